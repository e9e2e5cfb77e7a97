import BirdRealtime
import BirdRealtimeTestSupport
import Foundation
import Testing

@Suite("Pusher dialect on the wire, Bird names for handlers")
struct PusherDialectTests {
    @Test("handshake reads socket_id; subscribe, ping and pong use pusher: names")
    func names() async throws {
        let h = Harness(dialect: .pusher)
        h.bird.subscribe("orders")
        let socket = try await h.connect(id: "9.9")
        #expect(h.bird.connectionId == "9.9")
        #expect(socket.sent(event: "pusher:subscribe").count == 1)
        #expect(socket.sent(event: "bird:subscribe").isEmpty)
        socket.receive(event: "pusher:ping", data: [:])
        await h.settle()
        #expect(socket.sent(event: "pusher:pong").count == 1)
        await h.advance(.seconds(120))
        #expect(socket.sent(event: "pusher:ping").count == 1)
    }

    @Test("lifecycle events arrive under Bird names; subscription_count becomes connection_count")
    func lifecycleNames() async throws {
        let h = Harness(dialect: .pusher)
        let orders = h.bird.subscribe("orders")
        let names = TestBox<[String]>([])
        let counts = TestBox<[Int]>([])
        orders.bindAll { name, _ in names.mutate { $0.append(name) } }
        orders.bind(BirdProtocol.Event.connectionCount) { data in
            if let n = data?["connection_count"]?.intValue { counts.mutate { $0.append(n) } }
        }
        let socket = try await h.connect()
        socket.receive(event: "pusher_internal:subscription_succeeded", channel: "orders", data: [:])
        socket.receive(event: "pusher_internal:subscription_count", channel: "orders", data: ["subscription_count": 4])
        socket.receive(
            event: "pusher:error", channel: "orders", data: ["code": 4301, "message": "x"], doubleEncoded: false)
        await h.settle()
        #expect(
            names.get == [
                BirdProtocol.Event.subscriptionSucceeded, BirdProtocol.Event.connectionCount,
                BirdProtocol.Event.subscriptionError,
            ])
        #expect(counts.get == [4])
    }

    @Test("bird: names are not protocol events in the pusher dialect, and vice versa")
    func foreignPrefix() async throws {
        let p = Harness(dialect: .pusher)
        let socket = try await p.connect()
        socket.receive(event: "pusher:unheard_of")
        await p.settle()
        #expect(p.recorder.errors.map(\.kind) == [.unknownEvent])
        let b = Harness()
        let birdSocket = try await b.connect()
        birdSocket.receive(event: "pusher:connection_established", data: ["socket_id": "1.1"])
        await b.settle()
        #expect(b.recorder.errors.map(\.kind) == [.missingField])  // an app event without a channel
        #expect(b.bird.connectionId == "1.1")
    }

    @Test("pusher client events carry user_id as the sender")
    func clientEventSender() async throws {
        let h = Harness(dialect: .pusher)
        let room = h.bird.subscribe("presence-room")
        let senders = TestBox<[String?]>([])
        room.bindEvent("client-wave") { event in senders.mutate { $0.append(event.memberId) } }
        let socket = try await h.connect()
        socket.receive(
            event: "client-wave", channel: "presence-room", data: [:], memberId: "u7", memberIdKey: "user_id")
        await h.settle()
        #expect(senders.get == ["u7"])
    }
}
