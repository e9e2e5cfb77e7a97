import BirdRealtime
import BirdRealtimeTestSupport
import Foundation
import Testing
import TestSupport

/// Observers registered at any time see the current connection from its `connecting` on
/// (docs/LIFECYCLE.md, docs/THREADING.md): a recorder attached after the handshake still records
/// the handshake. Written against the public API only, so the same file shows the old client
/// failing (observers saw only what came after they registered).
@Suite("Late observers see the current connection from its start")
struct LateObserverTests {
    /// What a late recorder saw, as short tags: `state:connecting`, `in:<event>`, `out:<event>`.
    typealias Log = LockedList<String>

    @Test("a wire tap registered after the handshake still sees the handshake")
    func tapAfterHandshake() async throws {
        let h = Harness()
        try await h.connect()
        #expect(h.bird.connectionState == .connected)
        let log = Log()
        log.attach(to: h.bird, states: false)
        await h.settle()
        #expect(log.all == ["in:bird:connection_established"])
    }

    @Test("a state observer registered after connected sees connecting, then connected, then what follows")
    func stateObserverAfterConnected() async throws {
        let h = Harness()
        try await h.connect()
        let seen = TestBox<[StateChange]>([])
        h.bird.onStateChange { change in seen.mutate { $0.append(change) } }
        await h.settle()
        #expect(seen.get.map(\.current) == [.connecting, .connected])
        #expect(seen.get.first?.cause == .start)
        h.bird.disconnect()
        await h.settle()
        #expect(seen.get.map(\.current) == [.connecting, .connected, .disconnected])
    }

    @Test("a recorder registering a wire tap and a state observer after the handshake sees them in order")
    func crossKindOrder() async throws {
        let h = Harness()
        h.bird.subscribe("news")
        try await h.connect()
        try await h.succeed("news")
        let log = Log()
        // Both registrations land before the delivery queue replays anything.
        h.delivery.suspend()
        log.attach(to: h.bird)
        h.delivery.resume()
        await h.settle()
        #expect(
            log.all == [
                "state:connecting", "in:bird:connection_established", "state:connected", "out:bird:subscribe",
                "in:bird_internal:subscription_succeeded",
            ])
        // Then live, in order, exactly once.
        try h.socket.receive(event: "e", channel: "news", data: ["n": 1])
        await h.settle()
        #expect(log.all.suffix(2) == ["in:bird_internal:subscription_succeeded", "in:e"])
    }

    @Test("after a reconnect, a late observer sees only the new connection, from its connecting")
    func newConnectionOnly() async throws {
        let h = Harness()
        try await h.connect(id: "1.1")
        h.bird.dropConnection()
        await h.advance(.seconds(1))
        try await h.connect(id: "2.2")
        let log = Log()
        log.attach(to: h.bird)
        let ids = TestBox<[String?]>([])
        h.bird.onStateChange { change in ids.mutate { $0.append(change.connectionId) } }
        await h.settle()
        #expect(log.all.filter { $0.hasPrefix("state:") } == ["state:connecting", "state:connected"])
        #expect(log.all.filter { $0.hasPrefix("in:") } == ["in:bird:connection_established"])
        #expect(ids.get == [nil, "2.2"])
    }

    @Test("error and retry observers registered after a failure see it")
    func errorsAndRetries() async throws {
        let refused = Harness()
        await refused.settle()
        try refused.socket.serverClose(code: 4001, reason: "app disabled")
        await refused.settle()
        let errors = TestBox<[RealtimeError]>([])
        refused.bird.onError { error in errors.mutate { $0.append(error) } }
        await refused.settle()
        #expect(errors.get.map(\.code) == [4001])

        let lost = Harness()
        try await lost.connect()
        try lost.socket.networkFailure()
        await lost.settle()
        let retries = TestBox<[RetrySchedule]>([])
        lost.bird.onRetryScheduled { schedule in retries.mutate { $0.append(schedule) } }
        await lost.settle()
        #expect(retries.get.map(\.attempt) == [0])
        #expect(retries.get.first?.delay == .seconds(1))
    }

    @Test("the start-up buffer keeps a connection's first 1,000 notifications and says when it is full")
    func bounded() async throws {
        let h = Harness()
        h.bird.subscribe("feed")
        let socket = try await h.connect()
        try await h.succeed("feed")
        for i in 0..<1_200 { socket.receive(event: "e", channel: "feed", data: ["i": .string(String(i))]) }
        await h.settle()
        #expect(h.recorder.logs.contains { $0.1.contains("start-up buffer full") })
        let log = Log()
        h.delivery.suspend()  // both registrations before the replay (as in crossKindOrder)
        log.attach(to: h.bird)
        h.delivery.resume()
        await h.settle()
        let seen = log.all
        #expect(seen.count == 1_000)
        #expect(Array(seen.prefix(3)) == ["state:connecting", "in:bird:connection_established", "state:connected"])
        socket.receive(event: "late", channel: "feed", data: [:])
        await h.settle()
        #expect(log.all.count == 1_001)
        #expect(log.all.last == "in:late")
    }
}

extension LockedList<String> {
    /// Records wire messages (by event name) and state changes into this log.
    fileprivate func attach(to bird: BirdRealtime, wire: Bool = true, states: Bool = true) {
        if wire {
            bird.onWireMessage { direction, text in
                let event = (try? WireMessage.decode(text))?.event ?? "?"
                self.append("\(direction == .inbound ? "in" : "out"):\(event)")
            }
        }
        if states {
            bird.onStateChange { change in self.append("state:\(change.current)") }
        }
    }
}
