import BirdRealtime
import BirdRealtimeTestSupport
import Foundation
import Testing

@Suite("Client events: trigger throws or returns false")
struct TriggerTests {
    @Test("throws for a name without client-, a public channel, data over 10 KB, a name over 200")
    func throwsCases() async throws {
        let h = Harness()
        let room = h.bird.subscribe("private-room")
        let orders = h.bird.subscribe("orders")
        try await h.connect()
        try await h.succeed("private-room")
        try await h.succeed("orders")
        #expect(
            throws: TriggerError(
                kind: .notClientEvent, message: "client event names must start with \"client-\" (got \"typing\")")
        ) {
            try room.trigger("typing", data: [:])
        }
        let publicError = #expect(throws: TriggerError.self) { try orders.trigger("client-x", data: [:]) }
        #expect(publicError?.kind == .publicChannel)
        let big = JSONValue.string(String(repeating: "x", count: 10 * 1024))
        let sizeError = #expect(throws: TriggerError.self) { try room.trigger("client-big", data: big) }
        #expect(sizeError?.kind == .payloadTooLarge)
        let nameError = #expect(throws: TriggerError.self) {
            try room.trigger("client-" + String(repeating: "n", count: 200), data: [:])
        }
        #expect(nameError?.kind == .eventNameTooLong)
        let anyError: (any Error)? = publicError
        #expect(anyError is any BirdRealtimeError)
    }

    @Test("returns false and sends nothing while not subscribed; true when sent")
    func falseAndTrue() async throws {
        let h = Harness()
        let room = h.bird.subscribe("private-room")
        #expect(try room.trigger("client-typing", data: ["on": true]) == false)
        let socket = try await h.connect()
        #expect(try room.trigger("client-typing", data: ["on": true]) == false)  // subscribe pending
        try await h.succeed("private-room")
        #expect(try room.trigger("client-typing", data: ["on": true]) == true)
        let sent = try #require(socket.sent(event: "client-typing").first)
        #expect(sent.channel == "private-room")
        #expect(sent.data?.value["on"]?.boolValue == true)
        socket.serverClose(code: 1006)
        await h.settle()
        #expect(try room.trigger("client-typing", data: ["on": false]) == false)
        #expect(socket.sent(event: "client-typing").count == 1)
    }

    @Test("client events from others arrive with the sender's member id")
    func inbound() async throws {
        let h = Harness()
        let room = h.bird.subscribe("presence-room")
        let senders = TestBox<[String?]>([])
        room.bindEvent("client-typing") { event in senders.mutate { $0.append(event.memberId) } }
        let socket = try await h.connect()
        try await h.succeed("presence-room", data: ["presence": ["ids": [], "hash": [:], "count": 0]])
        socket.receive(event: "client-typing", channel: "presence-room", data: ["on": true], memberId: "m9")
        await h.settle()
        #expect(senders.get == ["m9"])
    }
}
