import BirdDoctor
import BirdWire
import Testing

/// Reading the edge's messages and writing the doctor's, in both dialects; auth answers.
@Suite struct WireTests {
    @Test func handshakesInBothDialects() {
        let bird =
            "{\"event\":\"bird:connection_established\",\"data\":\"{\\\"connection_id\\\":\\\"1.2\\\",\\\"activity_timeout\\\":30}\"}"
        #expect(EdgeMessage.read(bird, dialect: .bird) == .established(connectionId: "1.2", activityTimeout: 30))
        let pusher =
            "{\"event\":\"pusher:connection_established\",\"data\":\"{\\\"socket_id\\\":\\\"3.4\\\",\\\"activity_timeout\\\":120}\"}"
        #expect(EdgeMessage.read(pusher, dialect: .pusher) == .established(connectionId: "3.4", activityTimeout: 120))
        #expect(EdgeMessage.read(pusher, dialect: .bird) == .otherDialect(.pusher))
        let badId = "{\"event\":\"bird:connection_established\",\"data\":{\"connection_id\":\"abc\"}}"
        #expect(EdgeMessage.read(badId, dialect: .bird) == .established(connectionId: nil, activityTimeout: nil))
    }

    @Test func errorsAndSubscriptionResults() {
        #expect(
            EdgeMessage.read(
                "{\"event\":\"pusher:error\",\"data\":{\"code\":4001,\"message\":\"App key k not in this cluster\"}}",
                dialect: .pusher)
                == .error(code: 4001, message: "App key k not in this cluster", channel: nil))
        #expect(
            EdgeMessage.read("{\"event\":\"bird_internal:subscription_succeeded\",\"channel\":\"a\"}", dialect: .bird)
                == .subscriptionSucceeded(channel: "a"))
        #expect(
            EdgeMessage.read(
                "{\"event\":\"bird:subscription_error\",\"channel\":\"private-a\",\"data\":{\"type\":\"AuthError\",\"error\":\"invalid signature\",\"status\":401}}",
                dialect: .bird)
                == .subscriptionError(
                    channel: "private-a", type: "AuthError", message: "invalid signature", status: 401))
        #expect(EdgeMessage.read("{\"event\":\"bird:pong\",\"data\":{}}", dialect: .bird) == .pong)
        #expect(
            EdgeMessage.read("hello", dialect: .bird) == .notProtocol("message is not JSON (\(jsonError("hello")))"))
        #expect(
            EdgeMessage.read("{\"event\":\"news\",\"channel\":\"a\"}", dialect: .bird)
                == .other(event: "news", channel: "a"))
    }

    private func jsonError(_ text: String) -> String {
        do {
            _ = try JSONValue(parsing: text)
            return ""
        } catch {
            return "\(error)"
        }
    }

    @Test func requestsUseTheDialectsNames() throws {
        let ping = try WireMessage.decode(EdgeRequest.ping(.pusher))
        #expect(ping.event == "pusher:ping")
        let subscribe = try WireMessage.decode(
            EdgeRequest.subscribe(.pusher, channel: "presence-x", auth: "k:sig", memberData: "{\"user_id\":\"u\"}"))
        #expect(subscribe.event == "pusher:subscribe")
        #expect(subscribe.data?.object?["channel_data"] == "{\"user_id\":\"u\"}")
        #expect(subscribe.data?.object?["auth"] == "k:sig")
        let signin = try WireMessage.decode(EdgeRequest.signin(.bird, auth: "k:sig", memberData: "{}"))
        #expect(signin.event == "bird:signin" && signin.data?.object?["member_data"] == "{}")
    }

    @Test func authRequestBodiesFollowTheDialect() throws {
        let (birdType, birdBody) = AuthRequests.channel(.bird, connectionId: "1.2", channel: "private-a")
        #expect(birdType == "application/json")
        let object = try JSONValue(parsing: String(decoding: birdBody, as: UTF8.self))
        #expect(object["connection_id"] == "1.2" && object["channel_name"] == "private-a")
        let (pusherType, pusherBody) = AuthRequests.channel(.pusher, connectionId: "1.2", channel: "private-a;b")
        #expect(pusherType == "application/x-www-form-urlencoded")
        #expect(String(decoding: pusherBody, as: UTF8.self) == "socket_id=1.2&channel_name=private-a%3Bb")
    }

    @Test func pushersPublishedTestVectorVerifies() {
        // Pusher's documented example: key 278d425bdf160c739803, secret 7ad3773142a6692b25b8.
        let auth = "278d425bdf160c739803:58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4"
        let string = AuthRequests.channelString(connectionId: "1234.1234", channel: "private-foobar", identity: nil)
        #expect(
            AuthRequests.check(
                auth: auth, appKey: "278d425bdf160c739803", secret: "7ad3773142a6692b25b8", string: string) == .verified
        )
        #expect(
            AuthRequests.check(auth: auth, appKey: "278d425bdf160c739803", secret: "other", string: string) == .mismatch
        )
        #expect(
            AuthRequests.check(auth: auth, appKey: "278d425bdf160c739803", secret: nil, string: string) == .notChecked)
    }

    @Test func authAnswersAreRead() {
        let good = AuthAnswer.read(
            body: Array("{\"auth\":\"k:\(String(repeating: "0f", count: 32))\",\"channel_data\":{\"user_id\":1}}".utf8),
            identityKey: "channel_data")
        #expect(good.shape == .object && good.authWellFormed && good.keyPart == "k")
        #expect(good.identity == "{\"user_id\":1}")
        #expect(!AuthAnswer.read(body: Array("{\"auth\":\"k:ABC\"}".utf8), identityKey: "member_data").authWellFormed)
        #expect(
            !AuthAnswer.read(
                body: Array("{\"auth\":\":\(String(repeating: "0f", count: 32))\"}".utf8), identityKey: "x"
            ).authWellFormed)
        #expect(AuthAnswer.read(body: Array("[1]".utf8), identityKey: "x").shape == .notObject)
        if case .notJSON = AuthAnswer.read(body: Array("<html>".utf8), identityKey: "x").shape {
        } else {
            Issue.record("HTML read as JSON")
        }
    }
}
