import BirdRealtime
import BirdRealtimeTestSupport
import Foundation
import Testing

/// The client remembers the channel it routed the last event to (a stream of one channel's
/// events skips the hash lookup); every change to its subscriptions must be seen by the very
/// next event.
@Suite("Routing: the remembered channel follows subscribe and unsubscribe")
struct RouteMemoTests {
    @Test("events alternate between channels; after unsubscribe none arrive; a new subscription gets the next")
    func followsSubscriptions() async throws {
        let h = Harness()
        let seen = TestBox<[String]>([])
        func record(_ label: String) -> @Sendable (JSONValue?) -> Void {
            { data in seen.mutate { $0.append("\(label) \(data?["n"]?.intValue ?? -1)") } }
        }
        let a = h.bird.subscribe("a")
        _ = a.bind("tick", record("old a"))
        _ = h.bird.subscribe("b").bind("tick", record("b"))
        let socket = try await h.connect()
        try await h.succeed("a")
        try await h.succeed("b")

        for (channel, n) in [("a", 1), ("a", 2), ("b", 3), ("a", 4)] {
            socket.receive(event: "tick", channel: channel, data: ["n": .number(JSONNumber(n))])
        }
        await h.settle()
        #expect(seen.get == ["old a 1", "old a 2", "b 3", "old a 4"])

        // The last event went to "a": unsubscribing it must stop the next one.
        h.bird.unsubscribe("a")
        socket.receive(event: "tick", channel: "a", data: ["n": 5])
        await h.settle()
        #expect(seen.get == ["old a 1", "old a 2", "b 3", "old a 4"])

        // Subscribed again: a new channel object, and only its handlers see the event.
        let again = h.bird.subscribe("a")
        #expect(again !== a)
        _ = again.bind("tick", record("new a"))
        try await h.succeed("a")
        socket.receive(event: "tick", channel: "a", data: ["n": 6])
        await h.settle()
        #expect(seen.get == ["old a 1", "old a 2", "b 3", "old a 4", "new a 6"])
    }
}
