import BirdRealtime
import BirdWire
import Foundation
import Testing

/// docs/PROTOCOL.md § Liveness over a real socket: a silent edge is noticed and replaced.
extension Integration {
    @Suite(.serialized) struct StaleConnectionTests {
        @Test("a silent edge: ping after the activity timeout, 4201 after the pong timeout, connected again")
        func silentEdge() async throws {
            let sandbox = try SandboxFixture()
            defer { sandbox.stop() }
            let client = ClientFixture(sandbox: sandbox)
            let recorder = client.recorder
            client.bird.subscribe("news")
            guard let id = await client.connected() else { return }
            await client.subscribed(["news"])
            await client.bird.settle()
            let mark = recorder.mark
            #expect(sandbox.sandbox.silence(id: id))

            // Functional bound: activity (2 s) + pong (1 s) + generous slack for a loaded machine.
            guard let second = await client.connected(other: id, within: 2 + 1 + 4) else { return }
            await client.bird.settle()
            let changes = recorder.changes(since: mark)
            #expect(changes.map(\.current) == [.connecting, .connected], "\(changes)")
            #expect(changes.first?.cause == .pongTimeout)
            #expect(changes.first?.cause.closeCode == 4201)
            #expect(changes.last?.connectionId == second)
            #expect(recorder.retries(since: mark).isEmpty, "a pong timeout reconnects at once, without connecting_in")

            let outbound = recorder.wire(since: mark).filter { $0.0 == .outbound }.compactMap {
                try? WireMessage.decode($0.1)
            }
            let pingIndex = outbound.firstIndex { $0.event == "bird:ping" }
            #expect(pingIndex != nil, "the client pinged the silent edge: \(outbound.map(\.event))")

            // The new connection works: the channel is back and delivers.
            await client.subscribed(["news"])
            await eventually("news on the new connection") {
                sandbox.connection(second)?.channels.contains("news") == true
            }
            let eventMark = recorder.mark
            #expect(sandbox.sandbox.publish(channel: "news", event: "after-stale", data: ["n": 1]) == 1)
            await eventually("event after the stale connection was replaced") {
                !recorder.events("after-stale", on: "news", since: eventMark).isEmpty
            }
            #expect(recorder.events("after-stale", on: "news", since: eventMark).first?.data == ["n": 1])
            await client.shutdown()
        }
    }
}
