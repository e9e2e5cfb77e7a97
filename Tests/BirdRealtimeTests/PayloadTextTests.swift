import BirdRealtime
import BirdRealtimeTestSupport
import Foundation
import Testing

/// Every event carries its payload exactly as received (issue 12: `{"id":9007199254740993,"b":1,"a":2}`
/// arrived as `{"a":2,"b":1,"id":9007199254740992.0}`).
@Suite("Exact payload text on every event")
struct PayloadTextTests {
    static let text = #"{"id":9007199254740993,"b":1,"a":2}"#

    @Test("a double-encoded payload arrives as its exact text, members in order, id exact")
    func doubleEncoded() async throws {
        let h = Harness()
        let orders = h.bird.subscribe("orders")
        let got = TestBox<[ChannelEvent]>([])
        orders.bindEvent("e") { event in got.mutate { $0.append(event) } }
        let socket = try await h.connect()
        try await h.succeed("orders")
        socket.receive(#"{"event":"e","channel":"orders","data":"\#(Self.text.jsonEscaped)"}"#)
        await h.settle()
        let event = try #require(got.get.first)
        #expect(event.payload?.text == Self.text)
        #expect(event.payload?.sentAsString == true)
        #expect(event.data?["id"]?.int64Value == 9_007_199_254_740_993)
        #expect(event.data?.description == Self.text)
        #expect(event.data?.objectValue?.keys == ["id", "b", "a"])
    }

    @Test("JSON data (not a string) arrives verbatim, spaces included")
    func verbatim() async throws {
        let h = Harness()
        h.bird.subscribe("orders")
        let socket = try await h.connect()
        try await h.succeed("orders")
        let raw = #"{ "id" : 9007199254740993 , "x" : [1.50, 1e3] }"#
        socket.receive(#"{"event":"e","channel":"orders","data":\#(raw)}"#)
        await h.settle()
        let event = try #require(h.recorder.events("e").first)
        #expect(event.payload?.text == raw)
        #expect(event.payload?.sentAsString == false)
        #expect(event.data?["x"]?[0]?.numberValue?.text == "1.50")
    }

    @Test("a payload that is not JSON is a string, with a typed problem, nothing lost")
    func notJSON() async throws {
        let h = Harness(dialect: .pusher)
        h.bird.subscribe("orders")
        let socket = try await h.connect()
        try await h.succeed("orders")
        socket.receive(#"{"event":"e","channel":"orders","data":"plain words"}"#)
        socket.receive(#"{"event":"big","channel":"orders","data":"{\"n\":1e400}"}"#)
        await h.settle()
        let plain = try #require(h.recorder.events("e").first)
        #expect(plain.data == .string("plain words"))
        guard case .notJSON? = plain.payload?.problem else {
            Issue.record("\(String(describing: plain.payload?.problem))")
            return
        }
        let big = try #require(h.recorder.events("big").first)
        #expect(big.payload?.text == #"{"n":1e400}"#)
        #expect(big.data == .string(#"{"n":1e400}"#))
        guard case .numberOutOfRange? = big.payload?.problem else {
            Issue.record("\(String(describing: big.payload?.problem))")
            return
        }
    }

    @Test("events the client builds carry their compact JSON text")
    func builtEvents() async throws {
        let h = Harness()
        let room = h.bird.subscribe("presence-room")
        let socket = try await h.connect()
        try await h.succeed("presence-room", data: ["presence": ["ids": ["a"], "hash": ["a": ["n": 1]], "count": 1]])
        socket.receive(
            event: "bird_internal:member_added", channel: "presence-room",
            data: ["member_id": "b", "member_info": ["n": 2]])
        await h.settle()
        let added = try #require(h.recorder.events(BirdProtocol.Event.memberAdded).first)
        #expect(added.payload?.text == #"{"member_id":"b","member_info":{"n":2}}"#)
        let succeeded = try #require(h.recorder.events(BirdProtocol.Event.subscriptionSucceeded).first)
        #expect(succeeded.payload?.text == #"{"members":{"a":{"n":1}},"count":1,"my_id":"me"}"#)
        #expect(room.subscribed)
    }

    @Test("ChannelEvent.data is settable and stays in step with the payload")
    func settable() {
        var event = ChannelEvent(channel: "c", name: "n", data: ["b": 1, "a": 2])
        #expect(event.payload?.text == #"{"b":1,"a":2}"#)
        event.data = nil
        #expect(event.payload == nil)
        event.payload = EventPayload(text: "x")
        #expect(event.data == "x")
    }
}
