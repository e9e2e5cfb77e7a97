#if canImport(Glibc)
    import BirdRealtime
    import BirdSandbox
    import Foundation
    import Glibc

    /// What a client reported, stamped with its arrival time, for a thread that waits on it.
    final class ActivityInbox: @unchecked Sendable {
        private let lock = NSCondition()
        private var items: [(activity: ClientActivity, at: ContinuousClock.Instant)] = []

        func post(_ activity: ClientActivity) {
            let now = ContinuousClock.now
            lock.lock()
            items.append((activity, now))
            lock.signal()
            lock.unlock()
        }

        /// The first item satisfying `accept`, consuming it and everything before it; nil at `deadline`.
        func wait(until deadline: Date, for accept: (ClientActivity) -> Bool) -> ContinuousClock.Instant? {
            lock.lock()
            defer { lock.unlock() }
            while true {
                while !items.isEmpty {
                    let next = items.removeFirst()
                    if accept(next.activity) { return next.at }
                }
                guard lock.wait(until: deadline) else { return nil }
            }
        }

        /// Everything that arrived and was not consumed yet (consumes it).
        func drain() -> [ClientActivity] {
            lock.lock()
            defer { lock.unlock() }
            defer { items.removeAll() }
            return items.map(\.activity)
        }
    }

    /// Counts the sandbox's accepted WebSocket upgrades (its `open …` log lines).
    final class AcceptCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var opened = 0

        func log(_ line: String) {
            guard line.hasPrefix("open ") else { return }
            lock.lock()
            opened += 1
            lock.unlock()
        }

        var count: Int {
            lock.lock()
            defer { lock.unlock() }
            return opened
        }
    }

    private func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let tenths = seconds * 10_000 + attoseconds / 100_000_000_000_000
        return "\(tenths / 10).\(tenths % 10)"
    }

    private func isPing(_ activity: ClientActivity, _ direction: WireDirection, _ event: String) -> Bool {
        guard case .wireMessage(let seen, let text) = activity, seen == direction else { return false }
        return text.contains("\"event\":\"\(event)\"")
    }

    private func state(_ activity: ClientActivity) -> StateChange? {
        if case .stateChange(let change) = activity { return change }
        return nil
    }

    /// The edge's address inside the namespace: not a loopback name, so the client watches the network.
    private let edgeAddress = "10.99.0.1"

    /// A throw-away CA and a certificate for `edgeAddress` (IP and DNS SAN), made with `openssl`.
    private func makeCertificates() -> (ca: String, certificate: String, key: String, directory: String) {
        guard let openssl = executable(["/usr/bin/openssl", "/bin/openssl", "/usr/local/bin/openssl"]) else {
            fail("openssl is missing (the drill's edge speaks TLS)")
        }
        let dir = NSTemporaryDirectory() + "bird-netcheck-\(getpid())"
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try
                "subjectAltName=IP:\(edgeAddress),DNS:\(edgeAddress)\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
                .write(toFile: dir + "/ext.cnf", atomically: true, encoding: .utf8)
        } catch {
            fail("cannot write to \(dir): \(error)")
        }
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        runQuietly(
            openssl,
            ["req", "-x509"] + ec + [
                "-keyout", dir + "/ca.key", "-out", dir + "/ca.pem", "-days", "2", "-subj", "/CN=bird-netcheck CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ])
        runQuietly(
            openssl,
            ["req"] + ec + ["-keyout", dir + "/server.key", "-out", dir + "/server.csr", "-subj", "/CN=\(edgeAddress)"])
        runQuietly(
            openssl,
            [
                "x509", "-req", "-in", dir + "/server.csr", "-CA", dir + "/ca.pem", "-CAkey", dir + "/ca.key",
                "-CAcreateserial", "-out", dir + "/server.pem", "-days", "2", "-extfile", dir + "/ext.cnf",
            ])
        return (dir + "/ca.pem", dir + "/server.pem", dir + "/server.key", dir)
    }

    /// `drill-client`: a real client (system monitor, TLS) and a real sandbox on `10.99.0.1` in a
    /// fresh namespace; the default route and addresses change under them with `ip`. Prints
    /// `step <n> <name> ok|FAILED <figures>` per step, then `client drill ok` / `client drill failed`.
    func clientDrill(_ options: Options) -> Bool {
        let deadlineMs = options.int("deadline-ms", 5000, range: 1...600_000)
        let reconnectMs = options.int("reconnect-deadline-ms", 1000, range: 1...600_000)
        let quietMs = options.int("quiet-ms", 1500, range: 1...600_000)
        requireFreshNamespace()
        ip("link", "set", "lo", "up")
        ip("addr", "add", "\(edgeAddress)/32", "dev", "lo")
        ip("route", "add", "default", "dev", "lo")
        let certificates = makeCertificates()
        defer { try? FileManager.default.removeItem(atPath: certificates.directory) }

        let accepts = AcceptCounter()
        var configuration = SandboxConfiguration(
            host: edgeAddress, port: 0, tlsCertificateFile: certificates.certificate,
            tlsPrivateKeyFile: certificates.key)
        configuration.log = { accepts.log($0) }
        let sandbox: Sandbox
        do {
            sandbox = try Sandbox(configuration: configuration)
            try sandbox.start()
        } catch {
            fail("the sandbox did not start on \(edgeAddress): \(error)")
        }
        defer { sandbox.stop(grace: 0) }

        var clientOptions = BirdRealtime.Options(
            appKey: configuration.appKey, host: edgeAddress, port: sandbox.endpoints.port,
            caFile: certificates.ca, deliveryQueue: DispatchQueue(label: "bird-netcheck.client"))
        // No backoff wait at all: a client that ignored the network would be back at once.
        clientOptions.random = { 0 }
        if options.flag("without-monitor") {
            // The baseline: what a client that ignores the network does (the drill fails).
            clientOptions.networkMonitor = .disabled
        }
        if options.flag("verbose") {
            clientOptions.logHandler = { level, message in say("log \(level) \(message)") }
        }
        let inbox = ActivityInbox()
        var bird: BirdRealtime? = BirdRealtime(options: clientOptions)
        bird?.onActivity { inbox.post($0) }

        var passed = true
        var number = 0
        func step(_ name: String, _ ok: Bool, _ figures: String) {
            number += 1
            say("step \(number) \(name) \(ok ? "ok" : "FAILED") \(figures)")
            if !ok { passed = false }
        }
        func limit(_ ms: Int) -> Date { Date(timeIntervalSinceNow: Double(ms) / 1000) }

        // 1. Connect over TLS to the edge on 10.99.0.1, the system monitor watching.
        var start = ContinuousClock.now
        let connected = inbox.wait(until: limit(deadlineMs)) { state($0)?.current == .connected }
        step(
            "connect", connected != nil,
            connected.map {
                "\(milliseconds($0 - start)) ms, network \(bird?.networkPath?.description ?? "not watched")"
            }
                ?? "no connection within \(deadlineMs) ms")
        guard connected != nil, bird?.networkPath != nil || options.flag("without-monitor") else {
            say("client drill failed")
            return false
        }

        // 2. An address added while connected: a ping at once, answered.
        start = ContinuousClock.now
        ip("addr", "add", "10.99.0.2/32", "dev", "lo")
        let pathSeen = inbox.wait(until: limit(deadlineMs)) {
            if case .networkPath = $0 { return true } else { return false }
        }
        let ping = inbox.wait(until: limit(deadlineMs)) { isPing($0, .outbound, "bird:ping") }
        let pong = inbox.wait(until: limit(deadlineMs)) { isPing($0, .inbound, "bird:pong") }
        step(
            "address-change-ping", pathSeen != nil && ping != nil && pong != nil,
            "path \(pathSeen.map { milliseconds($0 - start) } ?? "-") ms, ping \(ping.map { milliseconds($0 - start) } ?? "-") ms, "
                + "pong \(pong.map { milliseconds($0 - start) } ?? "-") ms")

        // 3. The default route removed while connected: no network, a ping at once, the socket lives.
        start = ContinuousClock.now
        ip("route", "del", "default")
        let lost = inbox.wait(until: limit(deadlineMs)) {
            if case .networkPath(let path) = $0 { return !path.isUsable } else { return false }
        }
        let lostPing = inbox.wait(until: limit(deadlineMs)) { isPing($0, .outbound, "bird:ping") }
        let lostPong = inbox.wait(until: limit(deadlineMs)) { isPing($0, .inbound, "bird:pong") }
        let stillConnected = bird?.connectionState == .connected
        step(
            "lose-default-connected", lost != nil && lostPing != nil && lostPong != nil && stillConnected,
            "detected \(lost.map { milliseconds($0 - start) } ?? "-") ms, ping \(lostPing.map { milliseconds($0 - start) } ?? "-") ms, "
                + "state \(bird?.connectionState.description ?? "-")")

        // 4. The edge drops the socket while there is no route: unavailable (no network), no retry.
        let acceptsBefore = accepts.count
        start = ContinuousClock.now
        for connection in sandbox.connections() { sandbox.drop(id: connection.id) }
        let waiting = inbox.wait(until: limit(deadlineMs)) { activity in
            guard let change = state(activity), change.current == .unavailable else { return false }
            if case .networkUnavailable = change.cause { return true }
            return false
        }
        step(
            "drop-while-down", waiting != nil && bird?.nextAttemptAt == nil,
            "unavailable after \(waiting.map { milliseconds($0 - start) } ?? "-") ms, next attempt "
                + "\(bird?.nextAttemptAt.map { "\($0)" } ?? "none")")

        // 5. Nothing is attempted while the route is gone (a window, watched at the edge and the client).
        let window = Date(timeIntervalSinceNow: Double(quietMs) / 1000)
        let early = inbox.wait(until: window) { state($0)?.current == .connecting }
        let attempts = accepts.count - acceptsBefore
        let connecting = (early == nil ? 0 : 1) + inbox.drain().filter { state($0)?.current == .connecting }.count
        step(
            "no-attempts-while-down", attempts == 0 && connecting == 0 && bird?.connectionState == .unavailable,
            "\(attempts) upgrades at the edge, \(connecting) connecting in \(quietMs) ms")

        // 6. The route returns: connecting at once (backoff reset), connected within the deadline.
        start = ContinuousClock.now
        ip("route", "add", "default", "dev", "lo")
        let back = inbox.wait(until: limit(deadlineMs)) {
            if case .networkPath(let path) = $0 { return path.isUsable } else { return false }
        }
        let reconnecting = inbox.wait(until: limit(deadlineMs)) { activity in
            guard let change = state(activity), change.current == .connecting else { return false }
            if case .networkRestored = change.cause { return true }
            return false
        }
        let reconnected = inbox.wait(until: limit(deadlineMs)) { state($0)?.current == .connected }
        let total = reconnected.map { $0 - start }
        step(
            "restore-default",
            back != nil && reconnecting != nil && total.map { $0 <= .milliseconds(reconnectMs) } == true,
            "detected \(back.map { milliseconds($0 - start) } ?? "-") ms, connecting "
                + "\(reconnecting.map { milliseconds($0 - start) } ?? "-") ms, connected \(total.map(milliseconds) ?? "-") ms "
                + "(deadline \(reconnectMs) ms)")

        // 7. Releasing the client ends the monitor's thread.
        start = ContinuousClock.now
        bird = nil
        var threadGone = false
        while ContinuousClock.now - start < .milliseconds(deadlineMs) {
            if netlinkThreadCount() == 0 {
                threadGone = true
                break
            }
            usleep(2_000)
        }
        step("release", threadGone, "monitor thread gone after \(milliseconds(ContinuousClock.now - start)) ms")

        say(passed ? "client drill ok" : "client drill failed")
        return passed
    }

    /// Threads of this process named `bird.netlink` (the monitor's reader).
    private func netlinkThreadCount() -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { tid in
            let comm = (try? String(contentsOfFile: "/proc/self/task/\(tid)/comm", encoding: .utf8)) ?? ""
            return comm.trimmingCharacters(in: .whitespacesAndNewlines) == "bird.netlink"
        }.count
    }
#endif
