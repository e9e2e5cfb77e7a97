import BirdRealtime
import BirdRealtimeTestSupport
import Foundation
import Testing

@Suite("Wire tap and logs keep secrets out")
struct TapAndLogTests {
    @Test("onWireMessage sees both directions with auth signatures redacted")
    func tapRedacts() async throws {
        let h = Harness { options in
            options.authorizer = { request in AuthResponse(auth: "k:supersecretsignature") }
        }
        h.bird.subscribe("private-a")
        let socket = try await h.connect()
        try await h.succeed("private-a")
        let wire = h.recorder.wire
        #expect(wire.contains { $0.0 == .inbound && $0.1.contains("connection_established") })
        let outbound = wire.filter { $0.0 == .outbound }
        #expect(outbound.contains { $0.1.contains("bird:subscribe") })
        #expect(!wire.contains { $0.1.contains("supersecretsignature") })
        #expect(socket.sent.contains { $0.contains("supersecretsignature") })  // the wire itself carries it
        #expect(!h.recorder.logs.contains { $0.1.contains("supersecretsignature") })
    }

    @Test("auth headers never reach logs or errors")
    func headersStayOut() async throws {
        let http = ScriptedHTTP { _ in AuthHTTPResponse(status: 401, text: "no") }
        let h = Harness(http: http) { options in
            options.authorizer = nil
            options.authEndpoint = URL(string: "http://localhost:1/auth")
            options.authHeaders = ["authorization": "Bearer tok-123456"]
        }
        let channel = h.bird.subscribe("private-a")
        let errors = TestBox<[JSONValue?]>([])
        channel.bind(BirdProtocol.Event.subscriptionError) { data in errors.mutate { $0.append(data) } }
        try await h.connect()
        #expect(http.requests.first?.headers["authorization"] == "Bearer tok-123456")
        #expect(!h.recorder.logs.contains { $0.1.contains("tok-123456") })
        let error = errors.get.first ?? nil
        let text = error?.description ?? ""
        #expect(!text.contains("tok-123456"))
        #expect(error?["status"]?.intValue == 401)
    }

    @Test("handlers may be registered from any thread while events flow")
    func concurrentRegistration() async throws {
        let h = Harness()
        let channel = h.bird.subscribe("feed")
        let socket = try await h.connect()
        try await h.succeed("feed")
        let count = TestBox(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<50 {
                        let token = channel.bind("e") { _ in count.mutate { $0 += 1 } }
                        channel.unbind(token)
                        _ = h.bird.connectionState
                        _ = channel.subscribed
                    }
                }
            }
            group.addTask {
                for i in 0..<200 { socket.receive(event: "e", channel: "feed", data: ["i": .number(JSONNumber(i))]) }
            }
        }
        await h.settle()
        #expect(h.bird.connectionState == .connected)
        #expect(count.get >= 0)
    }
}
