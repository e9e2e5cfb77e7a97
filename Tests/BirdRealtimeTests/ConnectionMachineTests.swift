import Testing
@testable import BirdRealtime

@Suite("ConnectionMachine (pure)")
struct ConnectionMachineTests {
    func machine(random: Double = 1) -> ConnectionMachine {
        ConnectionMachine(activityTimeout: .seconds(120), pongTimeout: .seconds(30), random: { random })
    }

    func states(_ actions: [ConnectionMachine.Action]) -> [ConnectionState] {
        actions.compactMap { if case .changeState(let c) = $0 { return c.current } else { return nil } }
    }

    @Test("start → connecting with openTransport; handshake → id before connected")
    func startAndHandshake() {
        var m = machine()
        let start = m.connect(cause: .start)
        #expect(states(start) == [.connecting])
        #expect(start.contains(.openTransport))
        let hs = m.handshake(connectionId: "1.2", activityTimeoutSeconds: 60, now: .zero)
        let idIndex = hs.firstIndex(of: .setConnectionId("1.2"))
        let changeIndex = hs.firstIndex { if case .changeState = $0 { return true } else { return false } }
        #expect(idIndex != nil && changeIndex != nil && idIndex! < changeIndex!)
        #expect(states(hs) == [.connected])
        #expect(hs.contains(.scheduleActivityCheck(after: .seconds(60))))
        #expect(hs.last == .didConnect(connectionId: "1.2"))
    }

    @Test("every close band from connected")
    func bands() {
        for (code, expected) in [
            (4001, ConnectionState.failed), (4200, .connecting), (4100, .unavailable), (1000, .unavailable),
            (4399, .unavailable),
        ] {
            var m = machine()
            _ = m.connect(cause: .start)
            _ = m.handshake(connectionId: "1.1", activityTimeoutSeconds: nil, now: .zero)
            let actions = m.transportClosed(code: code, reason: "", initiatedLocally: false, networkError: nil)
            #expect(states(actions) == [expected], "code \(code)")
            #expect(actions.contains(.didLoseConnection))
            #expect(actions.contains(.openTransport) == (expected == .connecting))
        }
    }

    @Test("attempt counter grows on failures and resets on handshake")
    func attempts() {
        var m = machine()
        _ = m.connect(cause: .start)
        for n in 0..<4 {
            let actions = m.transportClosed(code: 1006, reason: "", initiatedLocally: false, networkError: "down")
            #expect(
                actions.contains(
                    .scheduleRetry(delay: .seconds(min(30, 1 << n)), attempt: n, cause: .networkError("down"))))
            _ = m.retryTimerFired()
        }
        _ = m.handshake(connectionId: "1.1", activityTimeoutSeconds: nil, now: .zero)
        #expect(m.attempt == 0)
    }

    @Test("stale events in the wrong state do nothing")
    func stale() {
        var m = machine()
        #expect(m.transportClosed(code: 1000, reason: "", initiatedLocally: false, networkError: nil).isEmpty)
        #expect(m.retryTimerFired().isEmpty)
        #expect(m.pongTimerFired().isEmpty)
        _ = m.disconnect()
        #expect(m.state == .disconnected)
        #expect(m.handshake(connectionId: "1.1", activityTimeoutSeconds: nil, now: .zero).isEmpty)
        #expect(m.drop().isEmpty)
    }

    @Test("liveness: ping then 4201 close and reconnect")
    func liveness() {
        var m = machine()
        _ = m.connect(cause: .start)
        _ = m.handshake(connectionId: "1.1", activityTimeoutSeconds: nil, now: .zero)
        #expect(m.activityCheckFired(now: .seconds(100)) == [.scheduleActivityCheck(after: .seconds(20))])
        #expect(m.activityCheckFired(now: .seconds(120)) == [.sendPing(pongTimeout: .seconds(30))])
        let timeout = m.pongTimerFired()
        #expect(timeout.contains(.closeTransport(code: 4201, reason: "pong not received")))
        #expect(states(timeout) == [.connecting])
        #expect(timeout.last == .openTransport)
    }
}
