import BirdLoadGen
import BirdWire
import Foundation

/// `bird-bench fanout`: the sandbox's fan-out measured by one process holding N WebSocket
/// connections on one epoll thread (see the usage at the top of main.swift). Each repetition
/// starts a fresh `bird-sandbox` child, so its RSS and CPU time are the edge's own.
func fanout(_ args: Arguments) {
    let binary = args.string("sandbox", "")
    guard !binary.isEmpty else { fail("fanout needs --sandbox PATH (a bird-sandbox binary, or 'embedded')") }
    let clients = args.int("clients", 250)
    let reps = args.int("reps", 5)
    let publishes = args.int("publishes", 20)
    let events = args.int("events", max(10, 100_000 / max(1, clients)))
    let window = args.int("window", 256)
    let pad = args.int("size", 100)
    let kind = args.string("client", "lean")
    let dialectName = args.string("dialect", "bird")
    guard clients > 0, reps > 0, publishes > 0, events > 0 else { fail("counts must be > 0") }
    guard kind == "lean" || kind == "websocket" else { fail("--client is lean or websocket") }
    let limit = raiseOpenFileLimit()
    guard limit >= clients + 64 else {
        fail("open-file limit \(limit) is below \(clients) connections (raise the hard limit: ulimit -Hn)")
    }
    say(
        "fanout: \(clients) \(kind) clients, \(reps) reps, \(publishes) stamped publishes + a burst of \(events) per rep"
    )
    var results: [[String: Any]] = []
    for rep in 1...reps {
        do {
            let result = try fanoutRep(
                binary: binary, dialect: dialectName, clients: clients, publishes: publishes, events: events,
                window: window, pad: pad, kind: kind)
            var line = String(
                format: "rep %d: connect %.2f s, sandbox RSS %d → %d KiB (%.2f KiB/connection); ", rep,
                result["connect_s"] as? Double ?? 0, result["rss_before_kb"] as? Int ?? 0,
                result["rss_held_kb"] as? Int ?? 0, result["rss_per_connection_kb"] as? Double ?? 0)
            line += String(
                format:
                    "p50 %.2f p95 %.2f p99 %.2f ms; %.0f deliveries/s; sandbox %.2f µs CPU/delivery, generator %.2f",
                result["p50_ms"] as? Double ?? 0, result["p95_ms"] as? Double ?? 0,
                result["p99_ms"] as? Double ?? 0, result["deliveries_per_s"] as? Double ?? 0,
                result["sandbox_cpu_us_per_delivery"] as? Double ?? 0,
                result["generator_cpu_us_per_delivery"] as? Double ?? 0)
            line += String(
                format: "; stamped publishes: sandbox %.2f µs CPU/delivery (%.0f %% in the kernel), generator %.2f",
                result["publish_sandbox_cpu_us_per_delivery"] as? Double ?? 0,
                (result["publish_sandbox_system_share"] as? Double ?? 0) * 100,
                result["publish_generator_cpu_us_per_delivery"] as? Double ?? 0)
            if let threads = result["publish_sandbox_threads_us_per_delivery"] as? [String: Double] {
                line +=
                    " ("
                    + threads.sorted { $0.value > $1.value }.map { String(format: "%@ %.2f", $0.key, $0.value) }
                    .joined(separator: ", ") + ")"
            }
            say(line)
            results.append(result)
        } catch {
            fail("rep \(rep): \(error)")
        }
    }
    emit(["clients": clients, "client": kind, "reps": results])
}

private func fanoutRep(
    binary: String, dialect: String, clients: Int, publishes: Int, events: Int, window: Int, pad: Int, kind: String
) throws -> [String: Any] {
    let sandbox =
        binary == "embedded"
        ? try SandboxProcess(embeddedDialect: dialect) : try SandboxProcess(binary: binary, dialect: dialect)
    defer { sandbox.stop() }
    let recorder = FanoutRecorder()
    let target = LeanFanoutClients.Target(
        host: "127.0.0.1", port: sandbox.port, path: "/app/\(sandbox.appKey)?protocol=7&client=bird-bench",
        dialect: dialect == "pusher" ? .pusher : .bird, channel: "bench", event: "tick")
    let open: (Int, Int) -> Void
    let closeAll: () -> Void
    if kind == "lean" {
        guard let lean = LeanFanoutClients(target: target, recorder: recorder) else { throw BenchError("bad target") }
        open = lean.open
        closeAll = lean.stop
    } else {
        guard let library = ClientFanoutClients(target: target, recorder: recorder) else { throw BenchError("bad URL") }
        open = library.open
        closeAll = library.closeAll
    }
    defer { closeAll() }
    let poster = ControlPoster(host: "127.0.0.1", port: sandbox.port)
    let controlPath = URL(string: sandbox.controlBase)?.path ?? "/sandbox"

    // Connections held.
    let rssBefore = sandbox.rssKB
    let connectStart = monotonicNanos()
    open(clients, window)
    let opened = recorder.wait(until: connectStart + 180_000_000_000) { $0.subscribed + $0.failed >= clients }
    guard opened.subscribed == clients else {
        throw BenchError("\(opened.subscribed) of \(clients) subscribed, \(opened.failed) failed: \(opened.reasons)")
    }
    let connectSeconds = Double(monotonicNanos() - connectStart) / 1e9
    Thread.sleep(forTimeInterval: 0.2)  // let the edge finish its bookkeeping before RSS is read
    let rssHeld = sandbox.rssKB

    // Publish-to-receive latency: one stamped publish at a time, all N receivers timed.
    var pooled: [Double] = []
    pooled.reserveCapacity(clients * publishes)
    var perPublishP95: [Double] = []
    var publishCallMs: [Double] = []
    let publishCPU0 = (sandbox.cpuSeconds, SandboxProcess.cpuSeconds(pid: getpid()), sandbox.threadCPU)
    let publishSystem0 = SandboxProcess.cpuSplit(pid: sandbox.pid).system
    for seq in 1...publishes {
        let stamp = FanoutStamp(seq: UInt64(seq), sentNanos: monotonicNanos())
        let body: JSONValue = ["channel": "bench", "event": "tick", "data": .string(stamp.payload(size: pad))]
        let answer = try poster.post(controlPath + "/publish", body.description)
        publishCallMs.append(Double(monotonicNanos() - stamp.sentNanos) / 1e6)
        guard answer.status == 200 else {
            throw BenchError("publish: HTTP \(answer.status) \(answer.body.prefix(200))")
        }
        let samples = recorder.latencies(
            seq: UInt64(seq), count: clients, until: monotonicNanos() + 30_000_000_000)
        guard samples.count == clients else {
            throw BenchError("publish \(seq): \(samples.count) of \(clients) receivers heard it")
        }
        if let summary = LatencySummary(samples) { perPublishP95.append(summary.p95) }
        pooled.append(contentsOf: samples)
        Thread.sleep(forTimeInterval: 0.02)  // a quiet gap: publishes do not overlap
    }
    guard let latency = LatencySummary(pooled) else { throw BenchError("no latency samples") }
    let publishDeliveries = Double(clients * publishes)
    let publishSandboxCPU = sandbox.cpuSeconds - publishCPU0.0
    let publishOwnCPU = SandboxProcess.cpuSeconds(pid: getpid()) - publishCPU0.1
    let publishSandboxSystem = SandboxProcess.cpuSplit(pid: sandbox.pid).system - publishSystem0
    var threads: [String: Double] = [:]
    for (name, seconds) in sandbox.threadCPU {
        let used = seconds - (publishCPU0.2[name] ?? 0)
        if used > 0 { threads[name] = used * 1e6 / publishDeliveries }
    }

    // Deliveries per second: one burst of `events` events to all N, request → last delivery.
    recorder.resetDeliveries()
    let expected = clients * events
    let sandboxCPU0 = sandbox.cpuSeconds
    let ownCPU0 = SandboxProcess.cpuSeconds(pid: getpid())
    let burstStart = monotonicNanos()
    let burst: JSONValue = [
        "channel": "bench", "event": "tick", "data": .string(String(repeating: "x", count: max(0, pad - 20))),
        "count": .number(JSONNumber(events)), "rate": 0,
    ]
    let answer = try poster.post(controlPath + "/burst", burst.description)
    guard answer.status == 200 else { throw BenchError("burst: HTTP \(answer.status) \(answer.body.prefix(200))") }
    let done = recorder.wait(until: burstStart + 300_000_000_000) { $0.deliveries >= expected }
    guard done.deliveries >= expected else { throw BenchError("burst: \(done.deliveries) of \(expected) delivered") }
    let burstSeconds = Double(done.lastDeliveryNanos - burstStart) / 1e9
    let sandboxCPU = sandbox.cpuSeconds - sandboxCPU0
    let ownCPU = SandboxProcess.cpuSeconds(pid: getpid()) - ownCPU0
    let rssAfter = sandbox.rssKB

    return [
        "connect_s": connectSeconds, "rss_before_kb": rssBefore, "rss_held_kb": rssHeld, "rss_after_kb": rssAfter,
        "rss_per_connection_kb": Double(rssHeld - rssBefore) / Double(clients),
        "p50_ms": latency.p50, "p95_ms": latency.p95, "p99_ms": latency.p99, "max_ms": latency.max,
        "samples": latency.count, "publish_p95_median_ms": median(perPublishP95) ?? 0,
        "publish_call_ms": median(publishCallMs) ?? 0,
        "deliveries": expected, "burst_s": burstSeconds, "deliveries_per_s": Double(expected) / burstSeconds,
        "sandbox_cpu_s": sandboxCPU, "generator_cpu_s": ownCPU,
        "publish_sandbox_cpu_us_per_delivery": publishSandboxCPU * 1e6 / publishDeliveries,
        "publish_sandbox_system_share": publishSandboxCPU > 0 ? publishSandboxSystem / publishSandboxCPU : 0,
        "publish_generator_cpu_us_per_delivery": publishOwnCPU * 1e6 / publishDeliveries,
        "publish_sandbox_threads_us_per_delivery": threads,
        "sandbox_cpu_us_per_delivery": sandboxCPU * 1e6 / Double(expected),
        "generator_cpu_us_per_delivery": ownCPU * 1e6 / Double(expected),
    ]
}
