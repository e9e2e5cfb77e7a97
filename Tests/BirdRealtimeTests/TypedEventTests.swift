import BirdRealtime
import BirdRealtimeTestSupport
import Foundation
import Testing

/// Payloads as app types (`bind(_:as:)`, `events(named:as:)`, `trigger(_:data:)` with an
/// `Encodable`), decoded through the lossless model, failures on `onError`.
@Suite("Typed events")
struct TypedEventTests {
    struct Order: Codable, Equatable, Sendable {
        var id: Int64
        var status: String
        var total: Decimal
    }

    static let orderText = #"{"id":9007199254740993,"status":"shipped","total":12.10}"#

    @Test("bind(_:as:) decodes the payload; a 64-bit id arrives exact", arguments: [true, false])
    func bindAs(_ doubleEncoded: Bool) async throws {
        let h = Harness()
        let orders = h.bird.subscribe("orders")
        let got = TestBox<[Order]>([])
        orders.bind("order-updated", as: Order.self) { order in got.mutate { $0.append(order) } }
        let socket = try await h.connect()
        try await h.succeed("orders")
        socket.receive(
            event: "order-updated", channel: "orders", data: try JSONValue(parsing: Self.orderText),
            doubleEncoded: doubleEncoded)
        await h.settle()
        #expect(got.get == [Order(id: 9_007_199_254_740_993, status: "shipped", total: Decimal(string: "12.1")!)])
        #expect(h.recorder.errors.isEmpty)
    }

    @Test("bindEvent(_:as:) gives the whole event with its exact text")
    func bindEventAs() async throws {
        let h = Harness()
        let orders = h.bird.subscribe("orders")
        let got = TestBox<[(Order, ChannelEvent)]>([])
        orders.bindEvent("order-updated", as: Order.self) { order, event in got.mutate { $0.append((order, event)) } }
        let socket = try await h.connect()
        try await h.succeed("orders")
        socket.receive(#"{"event":"order-updated","channel":"orders","data":"\#(Self.orderText.jsonEscaped)"}"#)
        await h.settle()
        let (order, event) = try #require(got.get.first)
        #expect(order.id == 9_007_199_254_740_993)
        #expect(event.payload?.text == Self.orderText)
        #expect(event.channel == "orders" && event.name == "order-updated")
    }

    @Test("a payload that does not decode reaches onError, typed, naming channel, event and what did not fit")
    func decodingFailure() async throws {
        let h = Harness()
        let orders = h.bird.subscribe("orders")
        let got = TestBox<[Order]>([])
        orders.bind("order-updated", as: Order.self) { order in got.mutate { $0.append(order) } }
        let socket = try await h.connect()
        try await h.succeed("orders")
        socket.receive(
            event: "order-updated", channel: "orders", data: ["id": "not a number", "status": "x", "total": 1])
        socket.receive(event: "order-updated", channel: "orders", data: "not JSON at all")
        await h.settle()
        #expect(got.get.isEmpty)
        let errors = h.recorder.errors
        #expect(errors.count == 2)
        let first = try #require(errors.first)
        #expect(first.kind == .payloadDecoding)
        #expect(first.channel == "orders")
        #expect(first.event == "order-updated")
        #expect(first.detail?.contains("id") == true)
        #expect(first.message.contains("Order"))
        #expect(errors.last?.kind == .payloadDecoding)
        #expect(errors.last?.detail?.contains("the top level") == true)
        // The channel and the connection are unharmed.
        socket.receive(event: "order-updated", channel: "orders", data: try JSONValue(parsing: Self.orderText))
        await h.settle()
        #expect(got.get.count == 1)
        #expect(h.bird.connectionState == .connected)
    }

    @Test("events(named:as:) is an async sequence of decoded values; failures go to onError")
    func typedStream() async throws {
        let h = Harness()
        let orders = h.bird.subscribe("orders")
        let stream = orders.events(named: "order-updated", as: Order.self)
        let socket = try await h.connect()
        try await h.succeed("orders")
        socket.receive(event: "order-updated", channel: "orders", data: ["id": 1, "status": "a", "total": 1])
        socket.receive(event: "order-updated", channel: "orders", data: ["id": 1.5, "status": "b", "total": 2])
        socket.receive(event: "order-updated", channel: "orders", data: ["id": 3, "status": "c", "total": 3])
        await h.settle()
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next()?.status == "a")
        #expect(await iterator.next()?.status == "c")
        #expect(h.recorder.errors.map(\.kind) == [.payloadDecoding])
    }

    @Test("member events decode too; failures name the member channel")
    func memberEvents() async throws {
        let (h, _) = SigninTests.make()
        let got = TestBox<[Order]>([])
        h.bird.member.bind("order.shipped", as: Order.self) { order in got.mutate { $0.append(order) } }
        let socket = try await h.connect()
        async let member = h.bird.signin()
        await h.waitUntil { !socket.sent(event: "bird:signin").isEmpty }
        try await SigninTests.answerSignin(h, socket: socket)
        _ = try await member
        socket.receive(
            event: "order.shipped", channel: "#server-to-member-m1", data: try JSONValue(parsing: Self.orderText))
        socket.receive(event: "order.shipped", channel: "#server-to-member-m1", data: ["id": "x"])
        await h.settle()
        await h.waitUntil { !h.recorder.errors.isEmpty }
        #expect(got.get.map(\.id) == [9_007_199_254_740_993])
        #expect(h.recorder.errors.first?.kind == .payloadDecoding)
        #expect(h.recorder.errors.first?.channel == "#server-to-member-m1")
    }

    @Test("trigger with an Encodable sends its exact JSON; a JSONValue literal keeps the JSONValue overload")
    func triggerEncodable() async throws {
        let h = Harness()
        let room = h.bird.subscribe("private-room")
        let socket = try await h.connect()
        try await h.succeed("private-room")
        let order = Order(id: 9_007_199_254_740_993, status: "new", total: Decimal(string: "0.10")!)
        #expect(try room.trigger("client-order", data: order))
        let sent = try #require(socket.sent(event: "client-order").first?.data?.text)
        #expect(sent == #"{"id":9007199254740993,"status":"new","total":0.1}"#)
        // A dictionary literal is a JSONValue (members in the order written), not a [String: Int].
        #expect(try room.trigger("client-literal", data: ["k9": 9, "k1": 1, "k8": 8, "k2": 2, "k7": 7, "k3": 3]))
        #expect(
            socket.sent(event: "client-literal").first?.data?.text == #"{"k9":9,"k1":1,"k8":8,"k2":2,"k7":7,"k3":3}"#)
        let error = #expect(throws: TriggerError.self) { try room.trigger("client-nan", data: [Double.nan]) }
        #expect(error?.kind == .notEncodable)
    }
}

extension String {
    /// The string's content escaped for use inside a JSON string literal (without quotes).
    var jsonEscaped: String { String(jsonQuoted.dropFirst().dropLast()) }
}

// README, "Using the library": the Codable snippet, pasted unchanged (this file not compiling means
// the README no longer matches the API).
struct ReadmeOrder: Decodable, Sendable { var id: Int64; var status: String; var total: Decimal }

func readmeCodable(bird: BirdRealtime, orders: BirdRealtime.Channel) {
    typealias Order = ReadmeOrder
    orders.bind("order-updated", as: Order.self) { order in
        print("order \(order.id) is \(order.status)")
    }
    bird.onError { error in
        if error.kind == .payloadDecoding {
            print("bad \(error.event ?? "") on \(error.channel ?? ""):", error.detail ?? "")
        }
    }
}
