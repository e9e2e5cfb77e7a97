// bird-bench: the Swift side of Scripts/bench.d/{client-ingest,resubscribe,memory,fanout}.
//
//   bird-bench ingest --port P [--host H] [--dialect pusher|bird] [--channel C] [--event E] --count N [--rate R]
//                     [--handler data|event] [--hold yes]
//       Subscribes one channel, prints READY once subscribed, then counts N events delivered to a
//       `bind` handler (`--handler event`: a `bindEvent` handler that does not read the payload, so
//       it is never parsed); prints one JSON line {"count","t_last","lat_p50_ms","lat_p99_ms"} (wall
//       clock, seconds since 1970). With --rate > 0 the handler reads `t` (the burst's start time)
//       from the payload and takes event i's publish time as t + i/rate. `--hold yes` prints DONE
//       after the N-th event and waits for a line on stdin before the JSON line (so that callgrind
//       can be told to dump while the process does nothing).
//   bird-bench resubscribe [--public N] [--private N] [--presence N] [--reps N]
//       Embedded sandbox + its demo auth endpoint; subscribes, then `dropConnection()` --reps times
//       and times `connected` → last `bird:subscription_succeeded`. One JSON line {"ms":[…]}.
//   bird-bench memory --port P [--host H] [--dialect D] [--channels N] [--paced yes]
//       Subscribes N public channels (paced: under bird-sandbox's flood budget), waits for all, prints
//       {"rss_kb_before","rss_kb_after","seconds","connects"}.
//   bird-bench fanout --sandbox BIN|embedded [--clients N] [--reps N] [--publishes K] [--events E] [--client lean|websocket]
//                     [--window W] [--size BYTES] [--dialect bird|pusher]
//       Per rep: a fresh `BIN --port 0` child; N connections on one epoll thread handshake and
//       subscribe `bench` (at most W handshaking at once); the sandbox's VmRSS before and with them
//       held; K stamped publishes (`POST /sandbox/publish`, data carries seq and CLOCK_MONOTONIC ns),
//       one at a time, every receiver timed → p50/p95/p99 over all K×N; a burst of E events
//       (`/sandbox/burst`, rate 0) → deliveries/s (request to last delivery) and CPU µs per delivery
//       of the sandbox and of this process. One JSON line {"clients","client","reps":[{…}]}.
//       `--sandbox embedded` runs the edge in this process (for valgrind, which cannot run the
//       bird-sandbox binary here; RSS and CPU are then shared with the generator).
//   bird-bench decode [--count N]
//       ns/message of the inbound pieces on one pusher-dialect event: envelope decode, payload parse,
//       and Foundation's JSONSerialization for comparison (a profiling aid, not a Scripts/bench figure).
import BirdRealtime
import BirdSandbox
import BirdWire
import BirdCommandLine
import Foundation

func fail(_ message: String) -> Never {
    StandardStreams.err("bird-bench: \(message)\n")
    exit(2)
}

struct Arguments {
    var values: [String: String] = [:]
    init(_ list: ArraySlice<String>) {
        var iterator = list.makeIterator()
        while let key = iterator.next() {
            guard key.hasPrefix("--"), let value = iterator.next() else { fail("bad argument '\(key)'") }
            values[String(key.dropFirst(2))] = value
        }
    }
    func string(_ key: String, _ fallback: String) -> String { values[key] ?? fallback }
    func int(_ key: String, _ fallback: Int) -> Int {
        guard let text = values[key] else { return fallback }
        guard let value = Int(text) else { fail("--\(key) wants an integer") }
        return value
    }
    func double(_ key: String, _ fallback: Double) -> Double {
        guard let text = values[key] else { return fallback }
        guard let value = Double(text) else { fail("--\(key) wants a number") }
        return value
    }
    var dialect: Dialect { string("dialect", "pusher") == "bird" ? .bird : .pusher }
}

/// Writes a line to stdout unbuffered (the orchestrator waits for it).
func say(_ line: String) {
    StandardStreams.out((line + "\n"))
}

func now() -> Double { Date().timeIntervalSince1970 }

func rssKB() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? -1
    }
    return -1
}

func emit(_ object: [String: Any]) {
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
    say(String(decoding: data, as: UTF8.self))
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let index = min(sorted.count - 1, max(0, Int((p * Double(sorted.count - 1)).rounded())))
    return sorted[index]
}

/// State touched only on the delivery queue (serial), read after `done` is signalled.
final class IngestState: @unchecked Sendable {
    var received = 0
    var tLast = 0.0
    var latencies: [Double] = []
    var failures = 0
}

func ingest(_ args: Arguments) {
    let count = args.int("count", 200_000)
    let rate = args.double("rate", 0)
    let channelName = args.string("channel", "bench")
    let eventName = args.string("event", "tick")
    let queue = DispatchQueue(label: "bird-bench.delivery")
    let options = BirdRealtime.Options(
        appKey: args.string("key", "sandbox-key"), host: args.string("host", "127.0.0.1"),
        port: args.int("port", 6001), allowInsecure: true, dialect: args.dialect, deliveryQueue: queue)
    let client = BirdRealtime(options: options)
    let state = IngestState()
    if rate > 0 { state.latencies.reserveCapacity(count) }
    let done = DispatchSemaphore(value: 0)
    let ready = DispatchSemaphore(value: 0)
    let handler = args.string("handler", "data")
    let channel = client.subscribe(channelName)
    channel.bind(BirdProtocol.Event.subscriptionSucceeded) { _ in ready.signal() }
    /// Counts one event; `data` is read only when latencies are measured.
    let received: @Sendable (() -> JSONValue?) -> Void = { data in
        let index = state.received
        state.received += 1
        if rate > 0 {
            let t = now()
            if let start = data()?["t"]?.doubleValue {
                state.latencies.append(t - (start + Double(index) / rate))
            } else {
                state.failures += 1
            }
        }
        if state.received == count {
            state.tLast = now()
            done.signal()
        }
    }
    switch handler {
    case "data":  // the common handler: the parsed payload (each event's payload is parsed)
        channel.bind(eventName) { data in received { data } }
    case "event":  // the whole event, its payload not read (never parsed)
        channel.bindEvent(eventName) { event in received { event.data } }
    default:
        fail("--handler wants data or event")
    }
    if ready.wait(timeout: .now() + 20) == .timedOut { fail("not subscribed after 20 s") }
    say("READY")
    let timeout = args.double("timeout", 600)
    if done.wait(timeout: .now() + timeout) == .timedOut {
        let got = queue.sync { state.received }
        fail("only \(got) of \(count) events after \(timeout) s")
    }
    if args.string("hold", "no") == "yes" {
        // `Scripts/bench instructions`: the run is over; wait (doing nothing) while callgrind dumps.
        say("DONE")
        _ = readLine()
    }
    let result: [String: Any] = queue.sync {
        let sorted = state.latencies.sorted()
        var out: [String: Any] = ["count": state.received, "t_last": state.tLast, "rss_kb": rssKB()]
        if rate > 0 {
            out["lat_p50_ms"] = percentile(sorted, 0.50) * 1000
            out["lat_p99_ms"] = percentile(sorted, 0.99) * 1000
            out["missing_t"] = state.failures
        }
        return out
    }
    emit(result)
    withExtendedLifetime(client) {}
}

/// Counts `bird:subscription_succeeded` events and remembers when the last `connected` happened.
final class SubscribeCounter: @unchecked Sendable {
    let lock = NSLock()
    var succeeded = 0
    var target = Int.max
    var connectedAt = 0.0
    var lastAt = 0.0
    /// `connected` state changes seen (more than one: the edge closed the connection meanwhile).
    var connects = 0
    var errors: [String] = []
    let reached = DispatchSemaphore(value: 0)

    func arm(_ target: Int) {
        lock.lock()
        succeeded = 0
        self.target = target
        lock.unlock()
    }

    func count() {
        lock.lock()
        succeeded += 1
        let hit = succeeded == target
        if hit { lastAt = now() }
        lock.unlock()
        if hit { reached.signal() }
    }
}

func subscribeMany(
    client: BirdRealtime, names: [String], counter: SubscribeCounter, timeout: Double, paced: Bool = false
) {
    counter.arm(names.count)
    client.onChannelEvent { event in
        if event.name == BirdProtocol.Event.subscriptionSucceeded {
            counter.count()
        } else if event.name == BirdProtocol.Event.subscriptionError {
            counter.lock.lock()
            counter.errors.append("\(event.channel): \(event.data.map { "\($0)" } ?? "")")
            counter.lock.unlock()
        }
    }
    if paced {
        // bird-sandbox closes a connection sending over 2,000 messages at once or 500 a second
        // (its flood budget, 1008): 1,800 at once, then 400 a second, so every subscription is
        // made once on one connection rather than again after each close.
        var next = 0
        while next < names.count {
            let wave = next == 0 ? 1_800 : 400
            if next > 0 { Thread.sleep(forTimeInterval: 1) }
            for name in names[next..<min(names.count, next + wave)] { client.subscribe(name) }
            next += wave
        }
    } else {
        for name in names { client.subscribe(name) }
    }
    if counter.reached.wait(timeout: .now() + timeout) == .timedOut {
        counter.lock.lock()
        let got = counter.succeeded
        let errors = counter.errors.prefix(3)
        counter.lock.unlock()
        fail("only \(got) of \(names.count) subscriptions succeeded after \(timeout) s \(Array(errors))")
    }
}

func channelNames(publicCount: Int, privateCount: Int, presenceCount: Int) -> [String] {
    (0..<publicCount).map { "bench-\($0)" } + (0..<privateCount).map { "private-bench-\($0)" }
        + (0..<presenceCount).map { "presence-bench-\($0)" }
}

func resubscribe(_ args: Arguments) {
    let reps = args.int("reps", 5)
    let names = channelNames(
        publicCount: args.int("public", 1000), privateCount: args.int("private", 100),
        presenceCount: args.int("presence", 10))
    let sandbox: Sandbox
    do {
        sandbox = try Sandbox(configuration: SandboxConfiguration(port: 0, dialect: args.dialect))
        try sandbox.start()
    } catch {
        fail("sandbox: \(error)")
    }
    let endpoints = sandbox.endpoints
    let queue = DispatchQueue(label: "bird-bench.delivery")
    let options = BirdRealtime.Options(
        appKey: endpoints.appKey, authEndpoint: URL(string: endpoints.authEndpoint), host: endpoints.host,
        port: endpoints.port, allowInsecure: true, dialect: args.dialect, deliveryQueue: queue)
    let client = BirdRealtime(options: options)
    let counter = SubscribeCounter()
    client.onStateChange { change in
        if change.current == .connected {
            counter.lock.lock()
            counter.connectedAt = now()
            counter.lock.unlock()
        }
    }
    let firstStart = now()
    subscribeMany(client: client, names: names, counter: counter, timeout: 60)
    let first = (now() - firstStart) * 1000
    var times: [Double] = []
    for _ in 0..<reps {
        counter.arm(names.count)
        client.dropConnection()
        if counter.reached.wait(timeout: .now() + 60) == .timedOut { fail("re-subscription timed out") }
        counter.lock.lock()
        times.append((counter.lastAt - counter.connectedAt) * 1000)
        counter.lock.unlock()
        Thread.sleep(forTimeInterval: 0.2)
    }
    emit(["channels": names.count, "ms": times, "first_subscribe_ms": first])
    client.disconnect()
    sandbox.stop(grace: 0.5)
}

func memory(_ args: Arguments) {
    let channels = args.int("channels", 10_000)
    let before = rssKB()
    let queue = DispatchQueue(label: "bird-bench.delivery")
    let options = BirdRealtime.Options(
        appKey: args.string("key", "sandbox-key"), host: args.string("host", "127.0.0.1"),
        port: args.int("port", 6001), allowInsecure: true, dialect: args.dialect, deliveryQueue: queue)
    let client = BirdRealtime(options: options)
    let counter = SubscribeCounter()
    client.onStateChange { change in
        guard change.current == .connected else { return }
        counter.lock.lock()
        counter.connects += 1
        counter.lock.unlock()
    }
    let start = now()
    let names = (0..<channels).map { "mem-\($0)" }
    let paced = args.string("paced", "no") == "yes"
    subscribeMany(client: client, names: names, counter: counter, timeout: 120, paced: paced)
    let seconds = now() - start
    Thread.sleep(forTimeInterval: 0.3)
    emit([
        "rss_kb_before": before, "rss_kb_after": rssKB(), "seconds": seconds, "channels": channels,
        "connects": counter.lock.withLock { counter.connects },
    ])
    withExtendedLifetime(client) {}
}

/// Per-message costs of the inbound pipeline's pieces on one typical pusher-dialect event
/// (64-byte payload, double-encoded), in ns per message: envelope decode, payload parse, and
/// Foundation's JSONSerialization on the same frame for comparison.
func decodeCosts(_ args: Arguments) {
    let n = args.int("count", 500_000)
    let payload = "{\"t\":1764452929.123456,\"pad\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}"
    let frame = WireMessage(event: "tick", channel: "bench", data: .string(payload)).encode()
    func measure(_ label: String, _ body: () -> Int) -> (String, Double) {
        let start = DispatchTime.now().uptimeNanoseconds
        let sink = body()
        let ns = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(n)
        if sink == -1 { say("unreachable") }
        return (label, ns)
    }
    let results = [
        measure("envelope decode (WireMessage.decode)") {
            var total = 0
            for _ in 0..<n { total &+= (try? WireMessage.decode(frame))?.event.utf8.count ?? 0 }
            return total
        },
        measure("envelope decode + payload.value (what bind handlers get)") {
            var total = 0
            for _ in 0..<n {
                if let message = try? WireMessage.decode(frame), let value = message.data?.value {
                    total &+= value["t"] == nil ? 0 : 1
                }
            }
            return total
        },
        measure("payload.value alone (JSONValue.fromPayload)") {
            var total = 0
            let data = WirePayload.string(payload)
            for _ in 0..<n { total &+= data.value["t"] == nil ? 0 : 1 }
            return total
        },
        measure("JSONSerialization envelope + payload") {
            var total = 0
            let bytes = Data(frame.utf8)
            for _ in 0..<n {
                if let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any],
                    let inner = (object["data"] as? String).flatMap({ $0.data(using: .utf8) }),
                    (try? JSONSerialization.jsonObject(with: inner)) != nil
                {
                    total &+= 1
                }
            }
            return total
        },
    ]
    say("frame: \(frame) (\(frame.utf8.count) bytes)")
    for (label, ns) in results {
        say("\(label): \(Int(ns)) ns/message = \(Int(1e9 / ns)) messages/s")
    }
}

let argv = CommandLine.arguments
guard argv.count >= 2 else { fail("usage: bird-bench ingest|resubscribe|memory|decode|fanout [--flag value …]") }
let arguments = Arguments(argv.dropFirst(2))
switch argv[1] {
case "ingest": ingest(arguments)
case "resubscribe": resubscribe(arguments)
case "memory": memory(arguments)
case "decode": decodeCosts(arguments)
case "fanout": fanout(arguments)
default: fail("unknown command '\(argv[1])'")
}
exit(0)
