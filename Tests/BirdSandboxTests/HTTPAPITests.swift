import BirdWire
import Testing
import WebSocket

@testable import BirdSandbox

/// Builds an HTTP API request signed the way Pusher's server SDKs sign them (docs/PROTOCOL.md § Signatures).
func signedRequest(
    _ method: String, _ path: String, query: [(String, String)] = [], body: String = "",
    key: String = "sandbox-key", secret: String = "sandbox-secret", timestamp: Double
) -> HTTPRequest {
    var params = query
    params.append(("auth_key", key))
    params.append(("auth_timestamp", String(Int(timestamp))))
    params.append(("auth_version", "1.0"))
    if !body.isEmpty { params.append(("body_md5", Signature.md5Hex(Array(body.utf8)))) }
    let string = Signature.httpAPIString(method: method, path: path, query: params.map { (name: $0.0, value: $0.1) })
    params.append(("auth_signature", Signature.hmacSHA256Hex(key: secret, message: string)))
    let target = path + "?" + params.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    return HTTPRequest(method: method, target: target, body: Array(body.utf8), remoteAddress: "127.0.0.1:9")
}

private func bodyJSON(_ response: HTTPResponse) -> JSONValue? {
    try? JSONValue(parsing: String(decoding: response.body, as: UTF8.self))
}

@Suite struct HTTPAPITests {
    @Test func triggerDeliversToSubscribersExceptTheNamedSocket() {
        let h = EdgeHarness(dialect: .pusher)
        let (a, aId) = h.client()
        let (b, bId) = h.client()
        h.subscribe(aId, "news")
        h.subscribe(bId, "news")
        _ = a.take()
        _ = b.take()
        let body = JSONValue.object([
            "name": "headline", "data": "{\"t\":1}", "channels": ["news", "other"], "socket_id": .string(bId),
        ]).description
        let response = h.edge.handleAPI(
            signedRequest("POST", "/apps/sandbox/events", body: body, timestamp: h.time.now))
        #expect(response.status == 200)
        #expect(bodyJSON(response) == [:])
        let got = a.take()
        #expect(got.map(\.event) == ["headline"])
        #expect(got.first?.data == .string("{\"t\":1}"))
        #expect(b.take().isEmpty)
    }

    @Test func batchEventsDeliverEach() {
        let h = EdgeHarness()
        let (a, aId) = h.client()
        h.subscribe(aId, "x")
        _ = a.take()
        let batch: JSONValue = [
            "batch": [["channel": "x", "name": "one", "data": "1"], ["channel": "x", "name": "two", "data": "2"]]
        ]
        let response = h.edge.handleAPI(
            signedRequest("POST", "/apps/sandbox/batch_events", body: batch.description, timestamp: h.time.now))
        #expect(response.status == 200)
        #expect(a.take().map(\.event) == ["one", "two"])
    }

    @Test func signatureTimestampAndBodyAreChecked() {
        let h = EdgeHarness()
        let body = "{\"name\":\"e\",\"data\":\"1\",\"channel\":\"x\"}"
        let now = h.time.now
        #expect(
            h.edge.handleAPI(signedRequest("POST", "/apps/sandbox/events", body: body, secret: "wrong", timestamp: now))
                .status == 401)
        #expect(
            h.edge.handleAPI(signedRequest("POST", "/apps/sandbox/events", body: body, key: "other", timestamp: now))
                .status == 401)
        #expect(
            h.edge.handleAPI(signedRequest("POST", "/apps/sandbox/events", body: body, timestamp: now - 601)).status
                == 401)
        #expect(
            h.edge.handleAPI(signedRequest("POST", "/apps/sandbox/events", body: body, timestamp: now + 599)).status
                == 200)
        var tampered = signedRequest("POST", "/apps/sandbox/events", body: body, timestamp: now)
        tampered.body = Array(body.replacingOccurrences(of: "\"1\"", with: "\"2\"").utf8)
        let response = h.edge.handleAPI(tampered)
        #expect(response.status == 401)
        #expect(bodyJSON(response)?["error"]?.stringValue?.contains("body_md5") == true)
        let unsigned = HTTPRequest(method: "GET", target: "/apps/sandbox/channels")
        #expect(h.edge.handleAPI(unsigned).status == 401)
    }

    @Test func errorsAre400404And413() {
        let h = EdgeHarness()
        let now = h.time.now
        #expect(h.edge.handleAPI(signedRequest("GET", "/apps/other/channels", timestamp: now)).status == 404)
        #expect(h.edge.handleAPI(signedRequest("GET", "/apps/sandbox/nothing", timestamp: now)).status == 404)
        let big = JSONValue.object([
            "name": "e", "channel": "x", "data": .string(String(repeating: "x", count: 10 * 1024 + 1)),
        ])
        #expect(
            h.edge.handleAPI(signedRequest("POST", "/apps/sandbox/events", body: big.description, timestamp: now))
                .status == 413)
        let badChannel: JSONValue = ["name": "e", "channel": "bad name", "data": "1"]
        #expect(
            h.edge.handleAPI(
                signedRequest("POST", "/apps/sandbox/events", body: badChannel.description, timestamp: now)
            ).status == 400)
        let many = JSONValue.object(["name": "e", "data": "1", "channels": .array((0...100).map { .string("c\($0)") })])
        #expect(
            h.edge.handleAPI(signedRequest("POST", "/apps/sandbox/events", body: many.description, timestamp: now))
                .status == 400)
        let batch = JSONValue.object([
            "batch": .array((0...10).map { _ in ["channel": "x", "name": "e", "data": "1"] })
        ])
        #expect(
            h.edge.handleAPI(
                signedRequest("POST", "/apps/sandbox/batch_events", body: batch.description, timestamp: now)
            ).status == 400)
        let notJSON = h.edge.handleAPI(signedRequest("POST", "/apps/sandbox/events", body: "nope", timestamp: now))
        #expect(notJSON.status == 400)
        #expect(bodyJSON(notJSON)?["error"]?.stringValue != nil)
    }

    @Test func channelInfoUsersAndChannels() {
        let h = EdgeHarness(dialect: .pusher)
        let (_, aId) = h.client()
        let (_, bId) = h.client()
        let (_, cId) = h.client()
        h.joinPresence(aId, "presence-room", member: "alice")
        h.joinPresence(bId, "presence-room", member: "alice")
        h.joinPresence(cId, "presence-room", member: "bob")
        h.subscribe(aId, "news")
        let now = h.time.now
        let info = bodyJSON(
            h.edge.handleAPI(
                signedRequest(
                    "GET", "/apps/sandbox/channels/presence-room", query: [("info", "user_count,subscription_count")],
                    timestamp: now)))
        #expect(info == ["occupied": true, "user_count": 2, "subscription_count": 3])
        let empty = bodyJSON(h.edge.handleAPI(signedRequest("GET", "/apps/sandbox/channels/nobody", timestamp: now)))
        #expect(empty == ["occupied": false])
        let users = bodyJSON(
            h.edge.handleAPI(signedRequest("GET", "/apps/sandbox/channels/presence-room/users", timestamp: now)))
        #expect(users == ["users": [["id": "alice"], ["id": "bob"]]])
        let all = bodyJSON(h.edge.handleAPI(signedRequest("GET", "/apps/sandbox/channels", timestamp: now)))
        #expect(all == ["channels": ["presence-room": [:], "news": [:]]])
        let presence = bodyJSON(
            h.edge.handleAPI(
                signedRequest(
                    "GET", "/apps/sandbox/channels",
                    query: [("filter_by_prefix", "presence-"), ("info", "user_count")], timestamp: now)))
        #expect(presence == ["channels": ["presence-room": ["user_count": 2]]])
        #expect(
            h.edge.handleAPI(signedRequest("GET", "/apps/sandbox/channels/news/users", timestamp: now)).status == 400)
    }

    @Test(arguments: ["/apps/sandbox/users/alice/terminate_connections", "/users/alice/terminate_connections"])
    func terminateConnectionsBothPaths(path: String) {
        let h = EdgeHarness(dialect: .pusher)
        let (a, aId) = h.client()
        h.signin(aId, member: "alice")
        let response = h.edge.handleAPI(signedRequest("POST", path, body: "{}", timestamp: h.time.now))
        #expect(response.status == 200)
        #expect(a.closed?.code == 4009)
        #expect(a.closed?.reason == "terminated by the app")
    }

    @Test func publishToAMemberChannelInEitherSpelling() {
        let h = EdgeHarness(dialect: .bird)
        let (a, aId) = h.client()
        h.signin(aId, member: "alice")
        _ = a.take()
        let body: JSONValue = ["name": "notice", "channel": "#server-to-user-alice", "data": "{}"]
        #expect(
            h.edge.handleAPI(
                signedRequest("POST", "/apps/sandbox/events", body: body.description, timestamp: h.time.now)
            ).status == 200)
        let got = a.take().first
        #expect(got?.event == "notice")
        #expect(got?.channel == "#server-to-member-alice")
    }
}
