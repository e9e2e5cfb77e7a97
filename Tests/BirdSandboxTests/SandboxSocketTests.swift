import BirdWire
import Foundation
import Testing
import WebSocket

@testable import BirdSandbox

/// The sandbox over real loopback sockets: handshake, channels, HTTP API, control API.
@Suite(.serialized) struct SandboxSocketTests {
    private func start(_ configuration: SandboxConfiguration = SandboxConfiguration(port: 0)) throws -> Sandbox {
        let sandbox = try Sandbox(configuration: configuration)
        try sandbox.start()
        return sandbox
    }

    @Test func handshakeSubscribePublishAndCloseWithACode() async throws {
        let sandbox = try start()
        defer { sandbox.stop(grace: 0) }
        let endpoints = sandbox.endpoints
        #expect(endpoints.port > 0)
        #expect(endpoints.webSocketURL == "ws://127.0.0.1:\(endpoints.port)/app/sandbox-key")
        let client = TestClient(endpoints.webSocketURL + "?protocol=7&client=test")
        let id = try #require(await client.connectionId())
        #expect(Limits.isValidConnectionId(id))
        client.send("bird:subscribe", data: ["channel": "news"])
        #expect(await client.waitFor("bird_internal:subscription_succeeded", channel: "news") != nil)
        #expect(sandbox.publish(channel: "news", event: "headline", data: ["t": 1]) == 1)
        let event = await client.waitFor("headline")
        #expect(event?.data?.value == ["t": 1])
        #expect(sandbox.connections().first?.channels == ["news"])
        #expect(sandbox.closeConnection(id: id, code: 4100, reason: "busy"))
        let close = await client.waitForClose()
        #expect(close?.code == 4100)
        #expect(close?.reason == "busy")
    }

    @Test func unknownKeyGets4001OverTheWire() async throws {
        let sandbox = try start()
        defer { sandbox.stop(grace: 0) }
        let client = TestClient("ws://127.0.0.1:\(sandbox.endpoints.port)/app/wrong?protocol=7")
        #expect(await client.waitForClose()?.code == 4001)
    }

    @Test func controlAPIOverHTTPListsAndDrops() async throws {
        let sandbox = try start()
        defer { sandbox.stop(grace: 0) }
        let control = sandbox.endpoints.controlBase
        let client = TestClient(sandbox.endpoints.webSocketURL + "?protocol=7")
        let id = try #require(await client.connectionId())
        let listed = await http("GET", control + "/connections")
        #expect(listed.status == 200)
        #expect(listed.body?[0]?["id"]?.stringValue == id)
        let dropped = await http("POST", control + "/connections/\(id)/drop")
        #expect(dropped.status == 200)
        #expect(await client.waitForClose()?.code == 1006)
        #expect(await http("POST", control + "/connections/1.1/drop").status == 404)
    }

    @Test func refuseThenRestartOnTheSamePort() async throws {
        let sandbox = try start()
        defer { sandbox.stop(grace: 0) }
        let url = sandbox.endpoints.webSocketURL + "?protocol=7"
        sandbox.refuse(code: 4100, reason: "over capacity", seconds: nil)
        let refused = TestClient(url)
        let info = await refused.waitForClose()
        #expect(info?.code == 4100)
        #expect(refused.messages.isEmpty)
        sandbox.acceptConnections()

        let client = TestClient(url)
        #expect(await client.connectionId() != nil)
        let restart = await http(
            "POST", sandbox.endpoints.controlBase + "/restart", body: ["code": 4200, "down_seconds": 1])
        #expect(restart.status == 200)
        #expect(await client.waitForClose()?.code == 4200)
        let during = TestClient(url)
        #expect(await during.waitForClose()?.code == 1006)
        // The port reopens after down_seconds: retry (as a client would) until one connects, with
        // a deadline that fails the test, rather than sleeping past the down time.
        let deadline = ContinuousClock.now + .seconds(10)
        var after: String?
        while after == nil, ContinuousClock.now < deadline {
            let attempt = TestClient(url)
            // Refused (closed) or answered (a handshake), whichever comes first.
            guard await attempt.wait(until: { $0.closeInfo != nil || !$0.messages.isEmpty }) else { break }
            if attempt.closeInfo == nil { after = await attempt.connectionId() }
        }
        #expect(after != nil, "no connection within 10 s after the restart's down time")
    }

    @Test func hostileInputDoesNotDisturbOthers() async throws {
        let sandbox = try start()
        defer { sandbox.stop(grace: 0) }
        let url = sandbox.endpoints.webSocketURL + "?protocol=7"
        let calm = TestClient(url)
        _ = await calm.connectionId()
        calm.send("bird:subscribe", data: ["channel": "news"])
        _ = await calm.waitFor("bird_internal:subscription_succeeded")
        let hostile = TestClient(url)
        _ = await hostile.connectionId()
        hostile.sendRaw("{\"event\":")
        hostile.sendRaw("[]")
        hostile.sendRaw("{\"event\":\"bird:subscribe\",\"data\":\"not json\"}")
        hostile.sendRaw("{\"event\":\"client-x\",\"channel\":\(String(repeating: "[", count: 10_000))}")
        hostile.sendRaw(String(repeating: "x", count: 2 << 20))  // over the message limit: closed 1009
        #expect(await hostile.waitForClose()?.code == 1009)
        #expect(sandbox.publish(channel: "news", event: "still-here", data: "{}") == 1)
        #expect(await calm.waitFor("still-here") != nil)
    }

    @Test func stopClosesEveryConnectionWith4200() async throws {
        let sandbox = try start()
        let client = TestClient(sandbox.endpoints.webSocketURL + "?protocol=7")
        _ = await client.connectionId()
        sandbox.stop()
        let info = await client.waitForClose()
        #expect(info?.code == 4200)
        #expect(info?.reason == "edge restarting")
    }

    @Test func demoAuthAndHTTPAPIOverHTTP() async throws {
        let sandbox = try start(SandboxConfiguration(port: 0, clientEvents: true))
        defer { sandbox.stop(grace: 0) }
        let endpoints = sandbox.endpoints
        let client = TestClient(endpoints.webSocketURL + "?protocol=7")
        let id = try #require(await client.connectionId())
        let auth = await http(
            "POST", endpoints.authEndpoint + "?member=alice",
            body: ["connection_id": .string(id), "channel_name": "presence-room"])
        #expect(auth.status == 200)
        let memberData = try #require(auth.body?["member_data"]?.stringValue)
        client.send(
            "bird:subscribe",
            data: ["channel": "presence-room", "auth": auth.body?["auth"] ?? .null, "member_data": .string(memberData)])
        let roster = await client.waitFor("bird_internal:subscription_succeeded", channel: "presence-room")
        #expect(roster?.data?.value["presence"]?["ids"] == ["alice"])

        let member = await http(
            "POST", endpoints.memberAuthEndpoint + "?member=alice", body: ["connection_id": .string(id)])
        client.send(
            "bird:signin",
            data: ["auth": member.body?["auth"] ?? .null, "member_data": member.body?["member_data"] ?? .null])
        #expect(await client.waitFor("bird:signin_success") != nil)

        let body = JSONValue.object(["name": "notice", "channel": "#server-to-user-alice", "data": "{\"n\":1}"])
            .description
        let request = signedRequest("POST", "/apps/sandbox/events", body: body, timestamp: Date().timeIntervalSince1970)
        let response = try await HTTPClient.send(
            method: "POST", url: URL(string: endpoints.httpBase + request.target)!,
            headers: ["Content-Type": "application/json"],
            body: Array(body.utf8))
        #expect(response.status == 200)
        let notice = await client.waitFor("notice")
        #expect(notice?.channel == "#server-to-member-alice")
    }
}
