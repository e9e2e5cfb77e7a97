import BirdWire
import Testing
import WebSocket

@testable import BirdSandbox

@Suite struct DemoAuthTests {
    private func json(_ response: HTTPResponse) -> JSONValue? {
        try? JSONValue(parsing: String(decoding: response.body, as: UTF8.self))
    }

    @Test func birdPresenceAuthSignsTheNamedMemberAndTheEdgeAcceptsIt() throws {
        let h = EdgeHarness()
        let (link, id) = h.client()
        let body = JSONValue.object(["connection_id": .string(id), "channel_name": "presence-room"]).description
        let response = h.edge.handleChannelAuth(
            HTTPRequest(method: "POST", target: "/auth?member=alice", body: Array(body.utf8)))
        #expect(response.status == 200)
        let answer = try #require(json(response))
        let memberData = try #require(answer["member_data"]?.stringValue)
        #expect(JSONValue.fromPayload(memberData)["member_id"] == "alice")
        h.subscribe(id, "presence-room", auth: answer["auth"]?.stringValue, presenceData: memberData)
        #expect(link.take().first?.event == "bird_internal:subscription_succeeded")
    }

    @Test func pusherFormAuthGivesChannelDataAndAGuestWithoutMember() throws {
        let h = EdgeHarness(dialect: .pusher)
        let (_, id) = h.client()
        let form = "socket_id=\(id)&channel_name=presence-room"
        let answer = try #require(
            json(h.edge.handleChannelAuth(HTTPRequest(method: "POST", target: "/auth", body: Array(form.utf8)))))
        let data = JSONValue.fromPayload(answer["channel_data"]?.stringValue ?? "")
        #expect(data["user_id"]?.stringValue?.hasPrefix("guest-") == true)
        let privateAnswer = try #require(
            json(
                h.edge.handleChannelAuth(
                    HTTPRequest(
                        method: "POST", target: "/auth", body: Array("socket_id=\(id)&channel_name=private-x".utf8)))))
        #expect(privateAnswer["auth"]?.stringValue == h.sign("\(id):private-x"))
        #expect(privateAnswer["channel_data"] == nil)
    }

    @Test func memberAuthSignsASignin() throws {
        let h = EdgeHarness(dialect: .pusher)
        let (link, id) = h.client()
        let answer = try #require(
            json(
                h.edge.handleMemberAuth(
                    HTTPRequest(method: "POST", target: "/auth/member?member=bob", body: Array("socket_id=\(id)".utf8)))
            ))
        let userData = try #require(answer["user_data"]?.stringValue)
        #expect(JSONValue.fromPayload(userData)["id"] == "bob")
        h.send(id, "pusher:signin", data: ["auth": answer["auth"] ?? .null, "user_data": .string(userData)])
        #expect(link.take().first?.event == "pusher:signin_success")
    }

    @Test func memberAuthTakesTheInfoAskedForAndIgnoresAnInfoThatIsNotAnObject() throws {
        let h = EdgeHarness()
        let (link, id) = h.client()
        func memberData(_ query: String) throws -> (JSONValue, String) {
            let body = Array("{\"connection_id\":\"\(id)\"}".utf8)
            let answer = try #require(
                json(h.edge.handleMemberAuth(HTTPRequest(method: "POST", target: "/auth/member?\(query)", body: body))))
            let data = try #require(answer["member_data"]?.stringValue)
            return (answer, data)
        }
        let (answer, data) = try memberData("member=carol&info=%7B%22role%22%3A%22ops%22%7D")
        #expect(JSONValue.fromPayload(data)["member_info"] == ["role": "ops"])
        h.send(id, "bird:signin", data: ["auth": answer["auth"] ?? .null, "member_data": .string(data)])
        #expect(link.take().first?.event == "bird:signin_success")
        let (_, plain) = try memberData("member=carol&info=%5B1%5D")
        #expect(JSONValue.fromPayload(plain)["member_info"] == ["name": "carol"])
    }

    @Test func injectedFailuresAndBadRequests() {
        let h = EdgeHarness()
        let (_, id) = h.client()
        func auth(_ channel: String) -> Int {
            let body = JSONValue.object(["connection_id": .string(id), "channel_name": .string(channel)]).description
            return h.edge.handleChannelAuth(HTTPRequest(method: "POST", target: "/auth", body: Array(body.utf8))).status
        }
        h.edge.authFailure = (403, "private-")
        #expect(auth("private-x") == 403)
        #expect(auth("presence-x") == 200)
        h.edge.authFailure = (500, nil)
        #expect(auth("presence-x") == 500)
        #expect(
            h.edge.handleMemberAuth(
                HTTPRequest(method: "POST", target: "/auth/member", body: Array("{\"connection_id\":\"\(id)\"}".utf8))
            ).status == 500)
        h.edge.authFailure = nil
        #expect(auth("presence-x") == 200)
        #expect(
            h.edge.handleChannelAuth(
                HTTPRequest(method: "POST", target: "/auth", body: Array("{\"channel_name\":\"x\"}".utf8))
            ).status == 400)
    }
}
