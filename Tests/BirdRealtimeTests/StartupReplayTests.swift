import BirdRealtime
import BirdRealtimeTestSupport
import Testing

/// docs/PROTOCOL.md § States: observers registered right after `init` see `initialized → connecting`,
/// whichever queue delivers — even when the transition was delivered before they registered
/// (observers registered later: LateObserverTests).
@Suite("Start-up transitions reach observers registered after init")
struct StartupReplayTests {
    @Test("an observer registered after the first transition was delivered still gets it, once, first")
    func lateObserverGetsStartup() async throws {
        let h = Harness()
        await h.settle()  // the automatic start's transition is delivered to the harness's recorder
        let seen = TestBox<[StateChange]>([])
        h.bird.onStateChange { change in seen.mutate { $0.append(change) } }
        try await h.connect()
        await h.settle()
        #expect(seen.get.map(\.current) == [.connecting, .connected])
        #expect(seen.get.first?.previous == .initialized)
        #expect(seen.get.first?.cause == .start)
    }

    @Test("an observer registered after a later transition gets the current connection's, once, then what follows")
    func observerAfterConnectedGetsCurrentConnection() async throws {
        let h = Harness()
        try await h.connect()
        await h.settle()
        let seen = TestBox<[StateChange]>([])
        h.bird.onStateChange { change in seen.mutate { $0.append(change) } }
        h.bird.disconnect()
        await h.settle()
        #expect(seen.get.map(\.current) == [.connecting, .connected, .disconnected])
    }
}
