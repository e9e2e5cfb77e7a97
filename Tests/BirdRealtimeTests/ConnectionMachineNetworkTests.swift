import BirdRealtimeTestSupport
import Testing

@testable import BirdRealtime

@Suite("ConnectionMachine: network and endpoint inputs (pure)")
struct ConnectionMachineNetworkTests {
    typealias Action = ConnectionMachine.Action
    static let down = "no default route"
    static let up = "default via eth0 (IPv4)"

    func machine() -> ConnectionMachine {
        ConnectionMachine(activityTimeout: .seconds(120), pongTimeout: .seconds(30), random: { 1 })
    }

    /// A machine that is `connected`.
    func connected() -> ConnectionMachine {
        var m = machine()
        _ = m.connect(cause: .start)
        _ = m.transportOpened()
        _ = m.handshake(connectionId: "1.1", activityTimeoutSeconds: nil, now: .zero)
        return m
    }

    /// A machine that is `unavailable` with a retry pending (attempt 0 used).
    func backingOff() -> ConnectionMachine {
        var m = machine()
        _ = m.connect(cause: .start)
        _ = m.transportClosed(code: 1006, reason: "", initiatedLocally: false, networkError: "reset")
        return m
    }

    func changes(_ actions: [Action]) -> [StateChange] {
        actions.compactMap { if case .changeState(let c) = $0 { return c } else { return nil } }
    }

    func schedulesOrOpens(_ actions: [Action]) -> Bool {
        actions.contains { action in
            switch action {
            case .openTransport, .scheduleRetry: return true
            default: return false
            }
        }
    }

    func waiting(from previous: ConnectionState) -> StateChange {
        StateChange(previous: previous, current: .unavailable, cause: .networkUnavailable(Self.down))
    }

    // MARK: - networkLost

    @Test("lost while connecting (socket opening or open): abort, unavailable (no network), nothing scheduled")
    func lostWhileConnecting() {
        for socketOpen in [false, true] {
            var m = machine()
            _ = m.connect(cause: .start)
            if socketOpen { _ = m.transportOpened() }
            let actions = m.networkLost(Self.down)
            #expect(actions.first == .abortTransport)
            #expect(changes(actions) == [waiting(from: .connecting)])
            #expect(!schedulesOrOpens(actions))
            #expect(m.state == .unavailable && m.waitingForNetwork)
        }
    }

    @Test("lost while a retry is pending: the retry is cancelled; unavailable → unavailable says why")
    func lostWhileBackingOff() {
        var m = backingOff()
        let actions = m.networkLost(Self.down)
        #expect(actions == [.cancelRetry, .changeState(waiting(from: .unavailable))])
        #expect(m.retryTimerFired().isEmpty)
    }

    @Test("lost while connected: ping at once; the pong keeps the socket; a second loss sends nothing more")
    func lostWhileConnectedPong() {
        var m = connected()
        let actions = m.networkLost(Self.down)
        #expect(
            actions == [.cancelLiveness, .pingNow(pongTimeout: .seconds(30), reason: "network lost (\(Self.down))")])
        #expect(m.networkLost(Self.down).isEmpty)
        let pong = m.inbound(now: .seconds(1))
        #expect(pong == [.cancelLiveness, .scheduleActivityCheck(after: .seconds(120))])
        #expect(m.state == .connected(connectionId: "1.1"))
    }

    @Test("lost while connected and no pong: 4201, then unavailable (no network), not connecting")
    func lostWhileConnectedNoPong() {
        var m = connected()
        _ = m.networkLost(Self.down)
        let timeout = m.pongTimerFired()
        #expect(timeout.contains(.closeTransport(code: 4201, reason: "pong not received")))
        #expect(timeout.contains(.didLoseConnection))
        #expect(changes(timeout) == [waiting(from: .connected)])
        #expect(!schedulesOrOpens(timeout))
    }

    @Test("lost with a ping already out: no second ping; its pong timer decides")
    func lostWithPingOut() {
        var m = connected()
        #expect(m.activityCheckFired(now: .seconds(120)) == [.sendPing(pongTimeout: .seconds(30))])
        #expect(m.networkLost(Self.down).isEmpty)
        #expect(changes(m.pongTimerFired()) == [waiting(from: .connected)])
    }

    @Test("lost in initialized, disconnected, failed: only remembered; connect() then waits for the network")
    func lostWhileIdle() {
        var idle = machine()
        #expect(idle.networkLost(Self.down).isEmpty)
        let start = idle.connect(cause: .start)
        #expect(changes(start) == [waiting(from: .initialized)])
        #expect(!schedulesOrOpens(start))
        #expect(idle.connect(cause: .connectCalled).isEmpty, "connect() while waiting does nothing more")

        var stopped = connected()
        _ = stopped.disconnect()
        #expect(stopped.networkLost(Self.down).isEmpty)
        #expect(changes(stopped.connect(cause: .connectCalled)) == [waiting(from: .disconnected)])

        var failed = connected()
        _ = failed.transportClosed(code: 4001, reason: "", initiatedLocally: false, networkError: nil)
        #expect(failed.state == .failed)
        #expect(failed.networkLost(Self.down).isEmpty)
        #expect(changes(failed.connect(cause: .connectCalled)) == [waiting(from: .failed)])
        #expect(failed.attempt == 0)
    }

    // MARK: - Without a network, nothing opens

    @Test("while down, every path that would open or schedule ends waiting for the network")
    func nothingOpensWhileDown() {
        // Connected, network lost (the ping is answered, so the socket lives on), then each end.
        func connectedWithoutNetwork() -> ConnectionMachine {
            var m = connected()
            _ = m.networkLost(Self.down)
            _ = m.inbound(now: .seconds(1))
            return m
        }
        var cases: [(String, [Action])] = []
        var m = connectedWithoutNetwork()
        cases.append(
            ("TCP drop", m.transportClosed(code: 1006, reason: "", initiatedLocally: false, networkError: "reset")))
        m = connectedWithoutNetwork()
        cases.append(
            ("server close 1000", m.transportClosed(code: 1000, reason: "", initiatedLocally: false, networkError: nil))
        )
        m = connectedWithoutNetwork()
        cases.append(
            (
                "4200 after handshake",
                m.transportClosed(code: 4200, reason: "", initiatedLocally: false, networkError: nil)
            ))
        m = connectedWithoutNetwork()
        cases.append(("protocol violation", m.protocolViolation(code: 1002, reason: "bad frame")))
        m = connectedWithoutNetwork()
        cases.append(("dropConnection()", m.drop()))
        m = connectedWithoutNetwork()
        cases.append(("signout()", m.reconnectNow(cause: .signout)))
        for (name, actions) in cases {
            #expect(changes(actions) == [waiting(from: .connected)], "\(name)")
            #expect(!schedulesOrOpens(actions), "\(name)")
            #expect(actions.contains(.didLoseConnection), "\(name)")
        }
        // A refusal is still a refusal; disconnect() still disconnects.
        m = connectedWithoutNetwork()
        #expect(
            m.transportClosed(code: 4009, reason: "", initiatedLocally: false, networkError: nil).contains(
                .changeState(
                    StateChange(previous: .connected, current: .failed, cause: .serverClose(code: 4009, reason: "")))))
        m = connectedWithoutNetwork()
        _ = m.disconnect()
        #expect(m.state == .disconnected)
    }

    @Test("seeded walks: whatever the inputs, no transport opens and no retry is scheduled while the network is down")
    func seededWalks() {
        var random = SeededRandom(seed: 15)
        for _ in 0..<300 {
            var m = machine()
            var usable = true
            var now = Duration.zero
            for _ in 0..<60 {
                now += .seconds(1)
                let actions: [Action]
                switch random.next() % 16 {
                case 0: actions = m.connect(cause: .connectCalled)
                case 1: actions = m.disconnect()
                case 2: actions = m.drop()
                case 3: actions = m.transportOpened()
                case 4: actions = m.handshake(connectionId: "1.1", activityTimeoutSeconds: nil, now: now)
                case 5: actions = m.transportClosed(code: 1006, reason: "", initiatedLocally: false, networkError: "x")
                case 6: actions = m.transportClosed(code: 4200, reason: "", initiatedLocally: false, networkError: nil)
                case 7: actions = m.retryTimerFired()
                case 8: actions = m.pongTimerFired()
                case 9: actions = m.activityCheckFired(now: now + .seconds(200))
                case 10: actions = m.reconnectNow(cause: .signout)
                case 11: actions = m.endpointFailed("hung")
                case 12: actions = m.handshakeTimerFired()
                case 13:
                    usable = false
                    actions = m.networkLost(Self.down)
                case 14:
                    usable = true
                    actions = m.networkRestored(Self.up)
                default: actions = m.pathChanged(Self.up)
                }
                #expect(m.networkUsable == usable)
                if !usable {
                    #expect(!schedulesOrOpens(actions), "\(actions)")
                    if case .connecting = m.state { Issue.record("connecting while the network is down") }
                }
                if case .connecting = m.state { #expect(usable) }
                if m.state == .unavailable && !usable {
                    #expect(m.waitingForNetwork)
                }
            }
        }
    }

    // MARK: - networkRestored

    @Test("restored while waiting: backoff reset, connecting at once, cause networkRestored")
    func restored() {
        var m = backingOff()
        _ = m.transportClosed(code: 1006, reason: "", initiatedLocally: false, networkError: "x")
        _ = m.retryTimerFired()
        _ = m.transportClosed(code: 1006, reason: "", initiatedLocally: false, networkError: "x")
        #expect(m.attempt == 2)
        _ = m.networkLost(Self.down)
        let actions = m.networkRestored(Self.up)
        #expect(
            actions == [
                .changeState(
                    StateChange(previous: .unavailable, current: .connecting, cause: .networkRestored(Self.up))),
                .openTransport,
            ])
        #expect(m.attempt == 0)
        // The next failure waits attempt 0's delay again.
        let failure = m.transportClosed(code: 1006, reason: "", initiatedLocally: false, networkError: "x")
        #expect(failure.contains(.scheduleRetry(delay: .seconds(1), attempt: 0, cause: .networkError("x"))))
    }

    @Test("restored while connected (the socket outlived the outage): ping at once")
    func restoredConnected() {
        var m = connected()
        _ = m.networkLost(Self.down)
        _ = m.inbound(now: .seconds(1))
        #expect(
            m.networkRestored(Self.up) == [
                .cancelLiveness, .pingNow(pongTimeout: .seconds(30), reason: "network back (\(Self.up))"),
            ])
    }

    @Test("restored while disconnected or failed: nothing; a later connect() opens")
    func restoredIdle() {
        var m = connected()
        _ = m.disconnect()
        _ = m.networkLost(Self.down)
        #expect(m.networkRestored(Self.up).isEmpty)
        #expect(m.connect(cause: .connectCalled).contains(.openTransport))
    }

    // MARK: - pathChanged

    @Test("path changed while connected: ping at once, unless one is out")
    func changedConnected() {
        var m = connected()
        #expect(
            m.pathChanged(Self.up) == [
                .cancelLiveness, .pingNow(pongTimeout: .seconds(30), reason: "network changed (\(Self.up))"),
            ])
        #expect(m.pathChanged(Self.up).isEmpty, "a ping is out")
        _ = m.inbound(now: .seconds(2))
        #expect(m.pathChanged(Self.up).count == 2, "answered: the next change pings again")
    }

    @Test("path changed while a retry is pending: retry cancelled, backoff reset, connecting now (networkChanged)")
    func changedBackingOff() {
        var m = backingOff()
        let actions = m.pathChanged(Self.up)
        #expect(
            actions == [
                .cancelRetry,
                .changeState(
                    StateChange(previous: .unavailable, current: .connecting, cause: .networkChanged(Self.up))),
                .openTransport,
            ])
        #expect(m.attempt == 0)
    }

    @Test("path changed while connecting, initialized, disconnected or failed: nothing")
    func changedElsewhere() {
        var m = machine()
        #expect(m.pathChanged(Self.up).isEmpty)
        _ = m.connect(cause: .start)
        #expect(m.pathChanged(Self.up).isEmpty)
        _ = m.disconnect()
        #expect(m.pathChanged(Self.up).isEmpty)
    }

    @Test("networkUnwatched: usable again, no state change")
    func unwatched() {
        var m = machine()
        _ = m.networkLost(Self.down)
        m.networkUnwatched()
        #expect(m.networkUsable)
        #expect(m.connect(cause: .start).contains(.openTransport))
    }

    // MARK: - endpointFailed

    @Test("endpoint failed while resolving: attempt abandoned, backoff with the reason; stale otherwise")
    func endpointFailed() {
        var m = machine()
        _ = m.connect(cause: .start)
        let reason = "endpoint provider did not answer within 10 s"
        let actions = m.endpointFailed(reason)
        #expect(actions.first == .abortTransport)
        #expect(
            changes(actions) == [
                StateChange(previous: .connecting, current: .unavailable, cause: .endpointUnavailable(reason))
            ])
        #expect(actions.contains(.scheduleRetry(delay: .seconds(1), attempt: 0, cause: .endpointUnavailable(reason))))
        #expect(m.endpointFailed(reason).isEmpty, "not connecting any more")

        var open = machine()
        _ = open.connect(cause: .start)
        _ = open.transportOpened()
        #expect(open.endpointFailed(reason).isEmpty, "a socket is open: the answer came already")
    }

    @Test("causes describe themselves")
    func causeText() {
        #expect(StateChangeCause.networkUnavailable("no default route").description == "no network: no default route")
        #expect(StateChangeCause.networkRestored(Self.up).description == "network back: default via eth0 (IPv4)")
        #expect(StateChangeCause.networkChanged(Self.up).description == "network changed: default via eth0 (IPv4)")
        #expect(
            StateChangeCause.endpointUnavailable("endpoint provider failed: boom").description
                == "endpoint unavailable: endpoint provider failed: boom")
        #expect(StateChangeCause.networkUnavailable("x").closeCode == nil)
    }
}
