import BirdWire
import Foundation
import Testing
import TestSupport
import WebSocket

@testable import BirdSandbox

/// A sandbox in replay mode over real loopback sockets, driven by raw WebSocket clients.
@Suite(.serialized) struct ReplaySandboxTests {
    @Test("segments over sockets: verbatim handshake, answers, close, refusal, open end, then the edge")
    func replayOverSockets() async throws {
        var t = RecordingBuilder()
        t.state(0, "initialized", "connecting", cause: "client started")
        t.inbound(10, t.handshake("111.222"))
        t.state(11, "connecting", "connected", cause: "handshake received")
        t.outbound(20, t.subscribe("public-demo"))
        t.inbound(25, t.succeeded("public-demo"))
        t.state(
            125, "connected", "connecting", cause: RecordingBuilder.serverClosed(4200, "edge restarting"), code: 4200)
        t.state(130, "connecting", "unavailable", cause: "network error: connection refused")
        t.state(400, "unavailable", "connecting", cause: "retry due")
        t.inbound(410, t.handshake("333.444"))
        t.state(411, "connecting", "connected", cause: "handshake received")

        let log = LockedList<String>()
        var configuration = SandboxConfiguration(port: 0)
        configuration.replay = try t.plan(grace: 5)
        configuration.replayLog = { log.append($0) }
        let sandbox = try Sandbox(configuration: configuration)
        try sandbox.start()
        defer {
            sandbox.stopReplay(grace: 0.5)
            sandbox.stop(grace: 0)
        }
        let url = sandbox.endpoints.webSocketURL + "?protocol=7&client=test"

        let first = TestClient(url)
        #expect(await first.connectionId() == "111.222", "the recorded handshake, verbatim")
        first.send("bird:subscribe", data: ["channel": "public-demo"])
        #expect(await first.waitFor("bird_internal:subscription_succeeded", channel: "public-demo") != nil)
        let close = await first.waitForClose()
        #expect(close?.code == 4200)
        #expect(close?.reason == "edge restarting")

        let refused = TestClient(url)
        #expect(await refused.waitForClose() != nil, "dropped right after the accept")
        #expect(refused.messages.isEmpty)

        let last = TestClient(url)
        #expect(await last.connectionId() == "333.444")
        last.send("bird:ping", data: [:])
        #expect(await last.waitFor("bird:pong") != nil, "pings are answered")
        #expect(sandbox.connections().isEmpty, "replayed connections are not the edge's")

        // The demo auth endpoint works for the recorded connection id.
        let auth = await http(
            "POST", sandbox.endpoints.authEndpoint, body: ["connection_id": "333.444", "channel_name": "private-x"])
        #expect(auth.status == 200)
        #expect(auth.body?["auth"]?.stringValue?.hasPrefix("sandbox-key:") == true)

        // Beyond the transcript: the edge serves, with a fresh id.
        let extra = TestClient(url)
        let extraId = await extra.connectionId()
        #expect(extraId != nil && extraId != "333.444")
        #expect(sandbox.connections().map(\.id) == [extraId].compactMap { $0 })

        sandbox.stopReplay(grace: 2)
        #expect(await last.waitForClose()?.code == 4200, "stopReplay closes the replayed connections")
        #expect(log.contains("replay: segment 2/3: dropped right after accepting"))
        #expect(log.contains("replay: connection 4 from"))
        extra.close()
    }
}
