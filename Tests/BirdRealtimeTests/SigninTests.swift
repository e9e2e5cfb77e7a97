@testable import BirdRealtime
import BirdRealtimeTestSupport
import Foundation
import Testing

@Suite("Sign-in, member events, sign-out")
struct SigninTests {
    static let endpoint = URL(string: "https://backend.example.com/bird/auth/member")!

    /// A harness whose member endpoint answers `{"auth","member_data"}` unless `failing` is set.
    static func make(dialect: Dialect = .bird, failing: TestBox<Int>? = nil) -> (Harness, ScriptedHTTP) {
        let http = ScriptedHTTP { request in
            if let failing, failing.get != 0 { return AuthHTTPResponse(status: failing.get, text: "no") }
            let id =
                try JSONValue(parsing: dialect == .bird ? request.bodyText : "{}")["connection_id"]?.stringValue ?? "?"
            let identity: JSONValue =
                dialect == .bird
                ? ["member_id": "m1", "member_info": ["name": "Ann"]] : ["id": "m1", "user_info": ["name": "Ann"]]
            return AuthHTTPResponse(
                status: 200,
                text: JSONValue.object([
                    "auth": .string("k:sig-\(id)"), dialect.signinDataKey: .string(identity.description),
                ]).description)
        }
        let h = Harness(dialect: dialect, http: http) { $0.memberAuthEndpoint = endpoint }
        return (h, http)
    }

    /// Plays the edge: answers the pending sign-in with signin_success.
    /// Waits until `count` `signin()` calls are registered with the client (they hop onto its
    /// queue asynchronously), so a test can act after them without guessing a delay.
    static func waitForSigninWaiters(
        _ h: Harness, count: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let core = h.bird.core
        await h.waitUntil(
            { core.queue.sync { core.signin.waiters.count } >= count }, what: "\(count) signin() call(s) registered",
            settling: false, sourceLocation: sourceLocation)
    }

    static func answerSignin(_ h: Harness, socket: ScriptedConnection) async throws {
        await h.settle()
        let signin = try #require(socket.sent(event: ProtocolEvent.signin.wireName(h.dialect)).last)
        let data = try #require(signin.data?.value[h.dialect.signinDataKey]?.stringValue)
        socket.receive(
            event: ProtocolEvent.signinSuccess.wireName(h.dialect), data: [h.dialect.signinDataKey: .string(data)],
            doubleEncoded: false)
        await h.settle()
    }

    @Test("signin() waits for connected, sends bird:signin, returns the member, subscribes the member channel")
    func signin() async throws {
        let (h, http) = Self.make()
        await h.settle()
        async let member = h.bird.signin()
        await Self.waitForSigninWaiters(h, count: 1)
        #expect(h.bird.connectionState == .connecting)
        let socket = try await h.connect(id: "4.4")
        await h.waitUntil { !socket.sent(event: "bird:signin").isEmpty }
        let request = try #require(http.requests.first)
        #expect(try JSONValue(parsing: request.bodyText)["connection_id"]?.stringValue == "4.4")
        let sent = try #require(socket.sent(event: "bird:signin").first)
        #expect(sent.data?.value["auth"]?.stringValue == "k:sig-4.4")
        try await Self.answerSignin(h, socket: socket)
        let me = try await member
        #expect(me.memberId == "m1")
        #expect(me.info?["name"]?.stringValue == "Ann")
        #expect(h.bird.currentMember?.memberId == "m1")
        #expect(h.subscribed(on: socket).contains("#server-to-member-m1"))

        let shipped = TestBox<[JSONValue?]>([])
        h.bird.member.bind("order.shipped") { data in shipped.mutate { $0.append(data) } }
        socket.receive(event: "order.shipped", channel: "#server-to-member-m1", data: ["order": 7])
        await h.settle()
        #expect(shipped.get.first??["order"]?.intValue == 7)
    }

    @Test("concurrent signin() calls share one request")
    func concurrent() async throws {
        let (h, http) = Self.make()
        let socket = try await h.connect()
        async let a = h.bird.signin()
        async let b = h.bird.signin()
        async let c = h.bird.signin()
        await h.waitUntil { !socket.sent(event: "bird:signin").isEmpty }
        await Self.waitForSigninWaiters(h, count: 3)
        try await Self.answerSignin(h, socket: socket)
        let ids = try await [a, b, c].map(\.memberId)
        #expect(ids == ["m1", "m1", "m1"])
        #expect(http.requests.count == 1)
        #expect(socket.sent(event: "bird:signin").count == 1)
    }

    @Test("signed in again on every new connection; later failures go to onSigninError, never onError")
    func perConnection() async throws {
        let failing = TestBox(0)
        let (h, http) = Self.make(failing: failing)
        let first = try await h.connect(id: "1.1")
        async let member = h.bird.signin()
        await h.waitUntil { !first.sent(event: "bird:signin").isEmpty }
        try await Self.answerSignin(h, socket: first)
        _ = try await member

        first.serverClose(code: 4200)
        let second = try await h.connect(id: "2.2")
        #expect(h.bird.currentMember == nil)
        #expect(http.requests.count == 2)
        #expect(try JSONValue(parsing: http.requests[1].bodyText)["connection_id"]?.stringValue == "2.2")
        try await Self.answerSignin(h, socket: second)
        #expect(h.bird.currentMember?.memberId == "m1")
        #expect(h.subscribed(on: second).contains("#server-to-member-m1"))

        failing.mutate { $0 = 503 }
        second.serverClose(code: 4200)
        try await h.connect(id: "3.3")
        #expect(h.recorder.signinErrors.count == 1)
        #expect(h.recorder.signinErrors.first?.message.contains("503") == true)
        #expect(h.recorder.errors.isEmpty)
        #expect(h.bird.connectionState == .connected)
    }

    @Test("the first signin() failing throws RealtimeAuthError with endpoint and status")
    func firstFailureThrows() async throws {
        let failing = TestBox(403)
        let (h, _) = Self.make(failing: failing)
        try await h.connect()
        do {
            _ = try await h.bird.signin()
            Issue.record("expected a throw")
        } catch let error as RealtimeAuthError {
            #expect(error.status == 403)
            #expect(error.endpoint == Self.endpoint.absoluteString)
        }
        #expect(h.recorder.signinErrors.isEmpty)
    }

    @Test("signin() without member endpoint or authorizer is a configuration error")
    func configuration() async throws {
        let h = Harness()
        try await h.connect()
        await #expect(throws: ConfigurationError.self) { try await h.bird.signin() }
    }

    @Test("signin() with no answer from the edge times out")
    func timeout() async throws {
        let (h, _) = Self.make()
        try await h.connect(activityTimeout: 600)
        let result = TestBox<(any Error)?>(nil)
        let task = Task {
            do { _ = try await h.bird.signin() } catch { result.mutate { $0 = error } }
        }
        await h.waitUntil { (try? h.socket.sent(event: "bird:signin").isEmpty) == false }
        await h.advance(.seconds(10))
        await task.value
        #expect((result.get as? RealtimeError)?.kind == .timeout)
    }

    @Test("signout() forgets the identity and reconnects without it")
    func signout() async throws {
        let (h, http) = Self.make()
        let first = try await h.connect(id: "1.1")
        async let member = h.bird.signin()
        await h.waitUntil { !first.sent(event: "bird:signin").isEmpty }
        try await Self.answerSignin(h, socket: first)
        _ = try await member
        h.bird.signout()
        await h.settle()
        #expect(first.closedWith != nil)
        #expect(h.bird.currentMember == nil)
        #expect(h.recorder.changes.last?.cause == .signout)
        let second = try await h.connect(id: "2.2")
        #expect(second.sent(event: "bird:signin").isEmpty)
        #expect(!h.subscribed(on: second).contains("#server-to-member-m1"))
        #expect(http.requests.count == 1)
    }

    @Test("pusher dialect: form socket_id, user_data with id, #server-to-user-")
    func pusher() async throws {
        let (h, http) = Self.make(dialect: .pusher)
        let socket = try await h.connect(id: "8.8")
        async let member = h.bird.signin()
        await h.waitUntil { !socket.sent(event: "pusher:signin").isEmpty }
        #expect(http.requests.first?.bodyText == "socket_id=8.8")
        let sent = try #require(socket.sent(event: "pusher:signin").first)
        #expect(sent.data?.value["user_data"] != nil)
        try await Self.answerSignin(h, socket: socket)
        #expect(try await member.memberId == "m1")
        #expect(h.subscribed(on: socket).contains("#server-to-user-m1"))
    }
}
