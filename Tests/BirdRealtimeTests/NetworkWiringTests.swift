import BirdRealtime
import BirdRealtimeTestSupport
import Foundation
import Testing

@Suite("The client and its network path monitor (manual clock, scripted transport, manual monitor)")
struct NetworkWiringTests {
    /// A harness whose client watches `monitor`.
    static func harness(
        _ monitor: ManualNetworkPathMonitor, _ configure: (inout BirdRealtime.Options) -> Void = { _ in }
    ) -> Harness {
        Harness { options in
            options.networkMonitor = .custom(monitor)
            configure(&options)
        }
    }

    static let noNetwork = StateChangeCause.networkUnavailable("no default route")

    /// Advances the manual clock by `total` in one-minute steps; asserts no socket was opened.
    static func expectNoAttempts(
        _ h: Harness, over total: Duration, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let before = h.transport.count
        var left = total
        while left > .zero {
            await h.advance(.seconds(60))
            left -= .seconds(60)
        }
        #expect(
            h.transport.count == before, "a socket was opened while the network was down",
            sourceLocation: sourceLocation)
    }

    @Test(
        "no network at start: unavailable (no network), no socket across an hour, no retry announced; route back → connects at once"
    )
    func startsWithoutNetwork() async throws {
        let monitor = ManualNetworkPathMonitor(initial: NetworkPath(defaultRoutes: [], generation: 1))
        let h = Self.harness(monitor)
        await h.settle()
        #expect(h.bird.connectionState == .unavailable)
        #expect(h.recorder.changes.last?.cause == Self.noNetwork)
        #expect(h.bird.nextAttemptAt == nil)
        await Self.expectNoAttempts(h, over: .seconds(3600))
        #expect(h.recorder.retries.isEmpty)
        #expect(h.bird.networkPath?.isUsable == false)

        monitor.restoreNetwork()
        await h.settle()
        #expect(h.transport.count == 1, "connects at once, no clock advance")
        #expect(
            h.recorder.changes.last
                == StateChange(
                    previous: .unavailable, current: .connecting,
                    cause: .networkRestored("default via eth0 (IPv4)")))
        try await h.connect()
        #expect(h.bird.connectionState == .connected)
    }

    @Test(
        "connected, route gone: ping at once; no pong → 4201, unavailable (no network), no attempts; route back → connects with backoff reset"
    )
    func connectedLosesNetwork() async throws {
        let monitor = ManualNetworkPathMonitor()
        let h = Self.harness(monitor)
        let socket = try await h.connect()
        monitor.loseNetwork()
        await h.settle()
        #expect(socket.sent(event: "bird:ping").count == 1, "ping at once, not after the activity timeout")
        #expect(h.bird.connectionState == .connected)
        await h.advance(.seconds(30))
        #expect(socket.closedWith?.code == 4201)
        #expect(h.bird.connectionState == .unavailable)
        #expect(h.recorder.changes.last?.cause == Self.noNetwork)
        #expect(h.bird.nextAttemptAt == nil)
        await Self.expectNoAttempts(h, over: .seconds(600))
        monitor.restoreNetwork()
        await h.settle()
        #expect(h.transport.count == 2)
        // Backoff reset: the next failure waits attempt 0's delay.
        try h.socket.networkFailure()
        await h.settle()
        #expect(h.recorder.retries.last?.attempt == 0)
    }

    @Test("connected, route gone, the pong comes: still connected (a blip); a drop then waits for the network")
    func blip() async throws {
        let monitor = ManualNetworkPathMonitor()
        let h = Self.harness(monitor)
        let socket = try await h.connect()
        monitor.loseNetwork()
        await h.settle()
        socket.receive(event: "bird:pong")
        await h.advance(.seconds(60))
        #expect(h.bird.connectionState == .connected)
        #expect(socket.closedWith == nil)
        socket.networkFailure()
        await h.settle()
        #expect(
            h.recorder.changes.last == StateChange(previous: .connected, current: .unavailable, cause: Self.noNetwork))
        await Self.expectNoAttempts(h, over: .seconds(300))
    }

    @Test("retry pending, route gone: retry cancelled (unavailable → unavailable, no network), no attempts")
    func backingOffLosesNetwork() async throws {
        let monitor = ManualNetworkPathMonitor()
        let h = Self.harness(monitor)
        try await h.connect()
        try h.socket.networkFailure()
        await h.settle()
        #expect(h.bird.nextAttemptAt != nil)
        monitor.loseNetwork()
        await h.settle()
        #expect(h.bird.nextAttemptAt == nil)
        #expect(
            h.recorder.changes.last == StateChange(previous: .unavailable, current: .unavailable, cause: Self.noNetwork)
        )
        await Self.expectNoAttempts(h, over: .seconds(600))
        #expect(h.recorder.retries.count == 1)
    }

    @Test("connecting, route gone: the socket is aborted; unavailable (no network)")
    func connectingLosesNetwork() async throws {
        let monitor = ManualNetworkPathMonitor()
        let h = Self.harness(monitor)
        await h.settle()
        let socket = try h.socket
        monitor.loseNetwork()
        await h.settle()
        #expect(socket.aborted)
        #expect(
            h.recorder.changes.last == StateChange(previous: .connecting, current: .unavailable, cause: Self.noNetwork))
    }

    @Test("addresses changed while connected: ping at once; a second change while it is out sends none")
    func pathChangeConnected() async throws {
        let monitor = ManualNetworkPathMonitor()
        let h = Self.harness(monitor)
        let socket = try await h.connect()
        monitor.changePath()
        await h.settle()
        #expect(socket.sent(event: "bird:ping").count == 1)
        monitor.changePath()
        await h.settle()
        #expect(socket.sent(event: "bird:ping").count == 1)
        #expect(h.recorder.logs.contains { $0.1.contains("network changed") && $0.1.contains("sending ping now") })
        // Unanswered: found dead within the pong timeout, not the activity timeout.
        await h.advance(.seconds(30))
        #expect(socket.closedWith?.code == 4201)
        #expect(h.bird.connectionState == .connecting)
    }

    @Test("path changed while a retry is pending: connects now, backoff reset, cause networkChanged")
    func pathChangeBackingOff() async throws {
        let monitor = ManualNetworkPathMonitor()
        let h = Self.harness(monitor)
        await h.settle()
        for _ in 0..<3 {
            try h.socket.networkFailure()
            await h.advance(.seconds(30))
        }
        try h.socket.networkFailure()
        await h.settle()
        #expect(h.recorder.retries.last?.attempt == 3)
        let count = h.transport.count
        monitor.changePath()
        await h.settle()
        #expect(h.transport.count == count + 1)
        #expect(h.recorder.changes.last?.cause == .networkChanged("default via eth0 (IPv4)"))
        try h.socket.networkFailure()
        await h.settle()
        #expect(h.recorder.retries.last?.attempt == 0)
    }

    @Test(
        "connect() without a network stays unavailable (no network) and connects when it returns; disconnect() is unaffected"
    )
    func connectWhileDown() async throws {
        let monitor = ManualNetworkPathMonitor()
        let h = Self.harness(monitor)
        try await h.connect()
        h.bird.disconnect()
        await h.settle()
        #expect(h.bird.connectionState == .disconnected)
        #expect(!monitor.isStarted, "disconnect() stops the monitor")
        monitor.loseNetwork()
        h.bird.connect()
        await h.settle()
        #expect(monitor.isStarted && monitor.startCount == 2)
        #expect(
            h.recorder.changes.last
                == StateChange(previous: .disconnected, current: .unavailable, cause: Self.noNetwork))
        let count = h.transport.count
        h.bird.connect()
        await h.settle()
        #expect(h.transport.count == count)
        monitor.restoreNetwork()
        await h.settle()
        #expect(h.transport.count == count + 1)
        h.bird.disconnect()
        await h.settle()
        #expect(h.bird.connectionState == .disconnected)
    }

    @Test("the path is published: networkPath, onNetworkPathChange (before the state change it causes), onActivity")
    func published() async throws {
        let monitor = ManualNetworkPathMonitor()
        let h = Self.harness(monitor)
        let order = TestBox<[String]>([])
        h.bird.onNetworkPathChange { path in order.mutate { $0.append("path \(path)") } }
        h.bird.onStateChange { change in order.mutate { $0.append("state \(change.current)") } }
        try await h.connect()
        #expect(h.bird.networkPath == ManualNetworkPathMonitor.usablePath)
        order.mutate { $0 = [] }
        monitor.loseNetwork()
        try h.socket.networkFailure()
        await h.settle()
        #expect(order.get == ["path no default route", "state unavailable"])
        #expect(h.bird.networkPath?.isUsable == false)
    }

    @Test("a monitor that fails to start is logged and the client connects as if unmonitored")
    func failedStart() async throws {
        let monitor = ManualNetworkPathMonitor(initial: NetworkPath(defaultRoutes: [], generation: 1))
        monitor.failStart(with: NetworkMonitorError(kind: .system, message: "socket: EPERM"))
        let h = Self.harness(monitor)
        await h.settle()
        #expect(h.transport.count == 1)
        #expect(h.bird.networkPath == nil)
        #expect(h.recorder.logs.contains { $0.0 == .warning && $0.1.contains("network monitor did not start") })
    }

    @Test(".disabled: no monitor; .system with a loopback host: no monitor either")
    func notWatched() async throws {
        let disabled = Harness { $0.networkMonitor = .disabled }
        await disabled.settle()
        #expect(disabled.bird.networkPath == nil)
        let loopback = Harness()  // 127.0.0.1, default .system
        await loopback.settle()
        #expect(loopback.bird.networkPath == nil)
        #expect(loopback.transport.count == 1)
    }

    @Test("releasing the client stops its monitor")
    func releaseStops() async throws {
        let monitor = ManualNetworkPathMonitor()
        weak var weakBird: BirdRealtime?
        do {
            let h = Self.harness(monitor)
            try await h.connect()
            #expect(monitor.isStarted)
            weakBird = h.bird
        }
        let deadline = ContinuousClock.now + .seconds(5)
        while monitor.isStarted || weakBird != nil {
            guard ContinuousClock.now < deadline else {
                Issue.record("the monitor is still started 5 s after the client was released")
                return
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        #expect(monitor.stopCount == 1)
    }
}

#if os(Linux)
    @Suite("The client with the system monitor (real rtnetlink)")
    struct SystemMonitorTests {
        /// Thread ids of this process whose name is `bird.netlink` (the monitor's reader).
        static func netlinkThreads() -> Set<String> {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            return Set(
                tasks.filter { tid in
                    let comm = (try? String(contentsOfFile: "/proc/self/task/\(tid)/comm", encoding: .utf8)) ?? ""
                    return comm.trimmingCharacters(in: .whitespacesAndNewlines) == "bird.netlink"
                })
        }

        @Test("a non-loopback host gets the netlink monitor; releasing the client ends its thread")
        func systemMonitorThread() async throws {
            let before = Self.netlinkThreads()
            var started: Set<String> = []
            do {
                let h = Harness { options in
                    options.host = "edge.invalid"
                    options.allowInsecure = false
                    options.networkMonitor = .system
                }
                await h.waitUntil({ h.bird.networkPath != nil }, what: "the system monitor reported a path")
                #expect(h.bird.networkPath?.isKnown == true)
                started = Self.netlinkThreads().subtracting(before)
                #expect(!started.isEmpty, "a bird.netlink thread runs")
            }
            let deadline = ContinuousClock.now + .seconds(5)
            while !Self.netlinkThreads().isDisjoint(with: started) {
                guard ContinuousClock.now < deadline else {
                    Issue.record("monitor thread(s) \(started) still run 5 s after the client was released")
                    return
                }
                try await Task.sleep(for: .milliseconds(10))
            }
        }
    }
#endif
