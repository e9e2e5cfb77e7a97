import BirdRealtime
import BirdRealtimeTestSupport
import Foundation
import Testing

@Suite("Authorization endpoints")
struct AuthorizationTests {
    static let endpoint = URL(string: "http://127.0.0.1:9000/bird/auth")!

    /// A harness whose private channels are signed by the scripted endpoint.
    static func endpointHarness(
        dialect: Dialect = .bird, http: ScriptedHTTP,
        _ configure: @escaping (inout BirdRealtime.Options) -> Void = { _ in }
    ) -> Harness {
        Harness(dialect: dialect, http: http) { options in
            options.authorizer = nil
            options.authEndpoint = endpoint
            configure(&options)
        }
    }

    @Test("bird dialect: POST JSON {connection_id, channel_name} with authHeaders and provider headers per request")
    func birdRequest() async throws {
        let http = ScriptedHTTP { _ in AuthHTTPResponse(status: 200, text: #"{"auth":"k:abc"}"#) }
        let calls = TestBox(0)
        let h = Self.endpointHarness(http: http) { options in
            options.authHeaders = ["authorization": "Bearer static", "x-app": "1"]
            options.authHeadersProvider = {
                calls.mutate { $0 += 1 }
                return ["authorization": "Bearer fresh-\(calls.get)"]
            }
        }
        h.bird.subscribe("private-a")
        h.bird.subscribe("private-b")
        let socket = try await h.connect(id: "5.6")
        let requests = http.requests
        #expect(requests.count == 2)
        let request = try #require(requests.first)
        #expect(request.method == "POST")
        #expect(request.url == Self.endpoint)
        #expect(request.headers["content-type"] == "application/json")
        #expect(request.headers["x-app"] == "1")
        #expect(Set(requests.compactMap { $0.headers["authorization"] }) == ["Bearer fresh-1", "Bearer fresh-2"])
        let body = try JSONValue(parsing: request.bodyText)
        #expect(body["connection_id"]?.stringValue == "5.6")
        #expect(["private-a", "private-b"].contains(body["channel_name"]?.stringValue ?? ""))
        let subscribes = socket.sent(event: "bird:subscribe")
        #expect(subscribes.count == 2)
        #expect(subscribes.allSatisfy { $0.data?.value["auth"]?.stringValue == "k:abc" })
    }

    @Test("pusher dialect: POST form socket_id=…&channel_name=…; channel_data read from the answer")
    func pusherRequest() async throws {
        let http = ScriptedHTTP { _ in
            AuthHTTPResponse(status: 200, text: #"{"auth":"k:abc","channel_data":"{\"user_id\":\"u1\"}"}"#)
        }
        let h = Self.endpointHarness(dialect: .pusher, http: http)
        let room = h.bird.subscribe("presence-room")
        let socket = try await h.connect(id: "5.6")
        let request = try #require(http.requests.first)
        #expect(request.headers["content-type"] == "application/x-www-form-urlencoded")
        let pairs = Dictionary(
            uniqueKeysWithValues: request.bodyText.split(separator: "&").map { part -> (String, String) in
                let kv = part.split(separator: "=", maxSplits: 1).map(String.init)
                return (kv[0], kv.count > 1 ? kv[1] : "")
            })
        #expect(pairs["socket_id"] == "5.6")
        #expect(pairs["channel_name"] == "presence-room")
        let subscribe = try #require(socket.sent(event: "pusher:subscribe").first)
        #expect(subscribe.data?.value["channel_data"]?.stringValue == #"{"user_id":"u1"}"#)
        socket.receive(
            event: "pusher_internal:subscription_succeeded", channel: "presence-room",
            data: ["presence": ["ids": ["u1"], "hash": ["u1": nil], "count": 1]])
        await h.settle()
        #expect((room as? PresenceChannel)?.myId == "u1")
    }

    @Test(
        "every endpoint failure is that channel's AuthError with status and endpoint; other channels unaffected",
        arguments: [
            ("refused", 0), ("403", 403), ("500", 500), ("not json", 200), ("no auth", 200), ("array", 200),
        ])
    func failures(_ mode: String, _ status: Int) async throws {
        let http = ScriptedHTTP { request in
            let body = request.bodyText
            if body.contains("private-good") { return AuthHTTPResponse(status: 200, text: #"{"auth":"k:good"}"#) }
            switch mode {
            case "refused": throw TransportFailure(message: "connection refused")
            case "403": return AuthHTTPResponse(status: 403, text: "forbidden")
            case "500": return AuthHTTPResponse(status: 500, text: "{}")
            case "not json": return AuthHTTPResponse(status: 200, text: "<html>")
            case "no auth": return AuthHTTPResponse(status: 200, text: #"{"other":1}"#)
            default: return AuthHTTPResponse(status: 200, text: "[1]")
            }
        }
        let h = Self.endpointHarness(http: http)
        let bad = h.bird.subscribe("private-bad")
        let good = h.bird.subscribe("private-good")
        let errors = TestBox<[JSONValue?]>([])
        bad.bind(BirdProtocol.Event.subscriptionError) { data in errors.mutate { $0.append(data) } }
        let socket = try await h.connect()
        let error = try #require(errors.get.first)
        #expect(error?["type"]?.stringValue == "AuthError")
        #expect(error?["status"]?.intValue == status)
        #expect(error?["endpoint"]?.stringValue == Self.endpoint.absoluteString)
        let text = error?["error"]?.stringValue ?? ""
        #expect(!text.isEmpty)
        #expect(h.subscribed(on: socket) == ["private-good"])
        try await h.succeed("private-good")
        #expect(good.subscribed)
        #expect(!bad.subscribed)
        #expect(h.recorder.errors.isEmpty)  // never onError
    }

    @Test("a custom authorizer's RealtimeAuthError keeps its endpoint and status")
    func customAuthorizerError() async throws {
        let h = Harness { options in
            options.authorizer = { _ in
                throw RealtimeAuthError(endpoint: "https://mine", status: 401, message: "expired")
            }
        }
        let channel = h.bird.subscribe("private-x")
        let errors = TestBox<[JSONValue?]>([])
        channel.bind(BirdProtocol.Event.subscriptionError) { data in errors.mutate { $0.append(data) } }
        try await h.connect()
        let error = try #require(errors.get.first)
        #expect(error?["status"]?.intValue == 401)
        #expect(error?["endpoint"]?.stringValue == "https://mine")
    }

    @Test("a plain http:// endpoint for a remote host is refused without a request")
    func insecureEndpoint() async throws {
        let http = ScriptedHTTP { _ in AuthHTTPResponse(status: 200, text: #"{"auth":"k:x"}"#) }
        let h = Harness(http: http) { options in
            options.authorizer = nil
            options.authEndpoint = URL(string: "http://backend.example.com/auth")
        }
        let channel = h.bird.subscribe("private-x")
        let errors = TestBox<[JSONValue?]>([])
        channel.bind(BirdProtocol.Event.subscriptionError) { data in errors.mutate { $0.append(data) } }
        try await h.connect()
        #expect(http.requests.isEmpty)
        let error = errors.get.first ?? nil
        #expect(error?["status"]?.intValue == 0)
        let text = error?["error"]?.stringValue ?? ""
        #expect(text.contains("http://"))
    }

    @Test("a presence auth answer without member data is an AuthError")
    func presenceWithoutMemberData() async throws {
        let h = Harness { options in options.authorizer = { _ in AuthResponse(auth: "k:x") } }
        let room = h.bird.subscribe("presence-x")
        let errors = TestBox<[JSONValue?]>([])
        room.bind(BirdProtocol.Event.subscriptionError) { data in errors.mutate { $0.append(data) } }
        let socket = try await h.connect()
        #expect(socket.sent(event: "bird:subscribe").isEmpty)
        #expect(errors.get.first??["type"]?.stringValue == "AuthError")
    }

    @Test("no endpoint and no authorizer: AuthError, not a crash")
    func noAuthorization() async throws {
        let h = Harness { options in options.authorizer = nil }
        let channel = h.bird.subscribe("private-x")
        let errors = TestBox<[JSONValue?]>([])
        channel.bind(BirdProtocol.Event.subscriptionError) { data in errors.mutate { $0.append(data) } }
        try await h.connect()
        #expect(errors.get.first??["type"]?.stringValue == "AuthError")
    }
}
