import BirdRealtime
import BirdRealtimeTestSupport
import Foundation
import Testing

@Suite("Errors and bad input")
struct ErrorRoutingTests {
    @Test("a wire error naming a channel goes to that channel as subscription_error; one naming none to onError")
    func routing() async throws {
        let h = Harness()
        let channel = h.bird.subscribe("private-a")
        let errors = TestBox<[JSONValue?]>([])
        channel.bind(BirdProtocol.Event.subscriptionError) { data in errors.mutate { $0.append(data) } }
        let socket = try await h.connect()
        socket.receive(
            event: "bird:error", channel: "private-a", data: ["code": 4301, "message": "bad signature"],
            doubleEncoded: false)
        await h.settle()
        #expect(errors.get.first??["error"]?.stringValue == "bad signature")
        #expect(errors.get.first??["code"]?.intValue == 4301)
        #expect(h.recorder.errors.isEmpty)
        socket.receive(event: "bird:error", data: ["code": 4302, "message": "server error"], doubleEncoded: true)
        socket.receive(event: "bird:error", data: ["code": nil, "message": "no code"], doubleEncoded: false)
        await h.settle()
        #expect(h.recorder.errors.map(\.code) == [4302, nil])
        #expect(h.recorder.errors.map(\.message) == ["server error", "no code"])
        #expect(h.recorder.errors.allSatisfy { $0.kind == .serverError })
    }

    @Test("a subscription_error from the server reaches the channel unchanged")
    func serverSubscriptionError() async throws {
        let h = Harness()
        let channel = h.bird.subscribe("private-a")
        let errors = TestBox<[JSONValue?]>([])
        channel.bind(BirdProtocol.Event.subscriptionError) { data in errors.mutate { $0.append(data) } }
        let socket = try await h.connect()
        socket.receive(
            event: "bird:subscription_error", channel: "private-a",
            data: ["type": "LimitReached", "error": "too many", "status": 429])
        await h.settle()
        #expect(errors.get.first??["type"]?.stringValue == "LimitReached")
        #expect(errors.get.first??["status"]?.intValue == 429)
        #expect(!channel.subscribed)
    }

    @Test(
        "bad input never crashes, is reported with a typed error, and leaves the connection up",
        arguments: [
            ("not json at all", RealtimeError.Kind.invalidJSON),
            ("{\"event\":", .invalidJSON),
            ("[1,2,3]", .notAnObject),
            ("\"just a string\"", .notAnObject),
            ("{\"data\":{}}", .missingField),
            ("{\"event\":42}", .missingField),
            ("{\"event\":\"e\",\"channel\":7}", .missingField),
            ("{\"event\":\"app-event\"}", .missingField),
            ("{\"event\":\"bird:something_new\"}", .unknownEvent),
            ("{\"event\":\"bird_internal:whatever\",\"channel\":\"x\"}", .unknownEvent),
            ("{\"event\":\"bird:subscribe\",\"data\":{}}", .unknownEvent),
        ])
    func badInput(_ text: String, _ kind: RealtimeError.Kind) async throws {
        let h = Harness()
        let channel = h.bird.subscribe("feed")
        let socket = try await h.connect()
        try await h.succeed("feed")
        socket.receive(text)
        await h.settle()
        #expect(h.recorder.errors.map(\.kind) == [kind])
        #expect(h.recorder.logs.contains { $0.0 == .error })
        #expect(h.bird.connectionState == .connected)
        #expect(channel.subscribed)
        // Still working afterwards.
        let got = TestBox(0)
        channel.bind("ok") { _ in got.mutate { $0 += 1 } }
        socket.receive(event: "ok", channel: "feed")
        await h.settle()
        #expect(got.get == 1)
    }

    @Test("binary frames are reported, not delivered")
    func binary() async throws {
        let h = Harness()
        let socket = try await h.connect()
        socket.receive(binary: [0xFF, 0x00, 0x01])
        await h.settle()
        #expect(h.recorder.errors.map(\.kind) == [.binaryMessage])
        #expect(h.bird.connectionState == .connected)
    }

    @Test("a handshake with a non-object payload is a handshake without id")
    func garbageHandshake() async throws {
        let h = Harness()
        await h.settle()
        let socket = try h.socket
        socket.open()
        socket.receive(#"{"event":"bird:connection_established","data":"garbage"}"#)
        await h.settle()
        #expect(h.recorder.errors.map(\.kind) == [.handshakeWithoutId])
        #expect(h.bird.connectionState == .unavailable)
    }

    @Test("events for channels not subscribed are logged, not delivered")
    func unknownChannel() async throws {
        let h = Harness()
        let socket = try await h.connect()
        socket.receive(event: "e", channel: "nobody")
        await h.settle()
        #expect(h.recorder.events.isEmpty)
        #expect(h.recorder.logs.contains { $0.1.contains("nobody") })
    }

    @Test("RealtimeError exposes code, message, reason; all errors conform to BirdRealtimeError")
    func errorTypes() {
        let error = RealtimeError(kind: .refused, code: 4009, message: "unauthorized", reason: "terminated")
        #expect(error.code ?? 0 == 4009)
        #expect(error.description.contains("terminated"))
        let all: [any BirdRealtimeError] = [
            error, RealtimeAuthError(endpoint: "e", status: 403, message: "m"),
            ConfigurationError(message: "c"), TriggerError(kind: .publicChannel, message: "t"),
        ]
        #expect(all.map(\.message) == ["unauthorized", "m", "c", "t"])
    }
}
