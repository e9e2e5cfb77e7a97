import BirdWire
import Testing

@testable import BirdSandbox

/// Cutting hand-written transcripts into segments and steps (docs/RECORDING.md).
struct ServerReplayPlanTests {
    @Test("a server close: handshake, subscribe, answer, then the close code and reason")
    func serverClose() throws {
        var t = RecordingBuilder()
        t.state(0, "initialized", "connecting", cause: "client started")
        t.inbound(20, t.handshake("111.222"))
        t.state(21, "connecting", "connected", cause: "handshake received")
        t.outbound(30, t.subscribe("public-demo"))
        t.raw(#"{"ts":"x","mono_ms":31,"type":"auth","kind":"channel","endpoint":"http://h/auth","status":200,"ms":3}"#)
        t.raw(#"{"ts":"x","mono_ms":32,"type":"subscribed","channel":"public-demo"}"#)
        t.inbound(40, t.succeeded("public-demo"))
        t.state(
            1000, "connected", "connecting", cause: RecordingBuilder.serverClosed(4200, "edge restarting"), code: 4200)
        t.inbound(1050, t.handshake("333.444"))
        t.state(1051, "connecting", "connected", cause: "handshake received")
        let plan = try t.plan(grace: 10)

        #expect(plan.dialect == .bird)
        #expect(plan.segments.count == 2)
        let first = plan.segments[0]
        #expect(first.number == 1)
        #expect(first.connectionId == "111.222")
        #expect(first.line == 2)
        #expect(
            first.steps == [
                .send(text: t.handshake("111.222"), after: 0.02),
                .expect(ServerReplayExpectation(event: "bird:subscribe", channel: "public-demo"), timeout: 10.01),
                .send(text: t.succeeded("public-demo"), after: 0.01),
            ])
        #expect(first.end == .close(code: 4200, reason: "edge restarting"))
        #expect(abs(first.endAfter - 0.96) < 1e-9)
        #expect(!first.isRefused)

        let second = plan.segments[1]
        #expect(second.steps == [.send(text: t.handshake("333.444"), after: 0.05)])
        #expect(second.end == .stayOpen)
        #expect(second.endAfter == 0)
        #expect(plan.summary == "2 segments, bird dialect")
    }

    @Test("a network error drops the TCP connection at its recorded time")
    func networkError() throws {
        var t = RecordingBuilder()
        t.state(0, "initialized", "connecting")
        t.inbound(10, t.handshake("1.1"))
        t.state(11, "connecting", "connected")
        t.state(2010, "connected", "unavailable", cause: "network error: connection lost (1006)")
        t.raw(#"{"ts":"x","mono_ms":2011,"type":"retry","in_ms":300,"attempt":0,"cause":"network error"}"#)
        t.state(2311, "unavailable", "connecting", cause: "retry due")
        t.inbound(2320, t.handshake("2.2"))
        t.state(2321, "connecting", "connected")
        let plan = try t.plan()
        #expect(plan.segments.count == 2)
        #expect(plan.segments[0].end == .drop)
        #expect(abs(plan.segments[0].endAfter - 2.0) < 1e-9)
        #expect(plan.segments[0].cause == "network error: connection lost (1006)")
        #expect(!plan.segments[0].isRefused, "a connection that got its handshake is not a refusal")
        #expect(plan.segments[1].end == .stayOpen)
    }

    @Test("a pong timeout goes silent after the last thing the server sent (a pong included)")
    func pongTimeout() throws {
        var t = RecordingBuilder()
        t.state(0, "initialized", "connecting")
        t.inbound(10, t.handshake("1.1", activityTimeout: 5))
        t.state(11, "connecting", "connected")
        t.outbound(5010, t.ping())
        t.inbound(5015, t.pong())
        t.outbound(10015, t.ping())
        t.state(11015, "connected", "connecting", cause: "pong timeout", code: 4201)
        t.inbound(11030, t.handshake("2.2"))
        let plan = try t.plan()
        let first = plan.segments[0]
        #expect(
            first.steps == [.send(text: t.handshake("1.1", activityTimeout: 5), after: 0.01)],
            "pings and pongs are not steps")
        #expect(first.end == .silence)
        #expect(abs(first.endAfter - 5.005) < 1e-9, "silent from the recorded pong on, not from the handshake")
        #expect(plan.segments[1].end == .stayOpen)
    }

    @Test("a client-side end waits for the client: disconnect(), dropConnection(), a protocol violation")
    func clientSideEnds() throws {
        for (cause, code) in [
            ("disconnect() called", nil), ("socket dropped", 1006),
            ("client closed: 1002 protocol error (bad frame)", 1002),
            ("handshake without connection id", nil), ("signed out", nil),
        ] as [(String, Int?)] {
            var t = RecordingBuilder()
            t.state(0, "initialized", "connecting")
            t.inbound(10, t.handshake("1.1"))
            t.state(11, "connecting", "connected")
            t.state(500, "connected", cause == "signed out" ? "connecting" : "disconnected", cause: cause, code: code)
            let plan = try t.plan()
            #expect(plan.segments.first?.end == .awaitClientClose, "\(cause)")
        }
    }

    @Test("a refused connection (no wire entries, network error) is dropped right after the accept")
    func refusedConnect() throws {
        var t = RecordingBuilder()
        t.state(0, "initialized", "connecting")
        t.state(5, "connecting", "unavailable", cause: "network error: connection refused")
        t.state(300, "unavailable", "connecting", cause: "retry due")
        t.state(
            320, "connecting", "unavailable", cause: RecordingBuilder.serverClosed(4100, "over capacity"), code: 4100)
        t.state(900, "unavailable", "connecting", cause: "retry due")
        t.inbound(910, t.handshake("3.3"))
        t.state(911, "connecting", "connected")
        let plan = try t.plan()
        #expect(plan.segments.count == 3)
        #expect(plan.segments[0].isRefused)
        #expect(plan.segments[0].steps.isEmpty)
        #expect(plan.segments[0].summary.hasPrefix("refused"))
        #expect(plan.segments[1].steps.isEmpty)
        #expect(plan.segments[1].end == .close(code: 4100, reason: "over capacity"), "a refusal with a code is a close")
        #expect(!plan.segments[1].isRefused)
        #expect(abs(plan.segments[1].endAfter - 0.02) < 1e-9)
        #expect(plan.segments[2].end == .stayOpen)
        #expect(plan.summary == "3 segments (1 refused), bird dialect")
    }

    @Test("a server ping is replayed; the client's pings and pongs and the server's pongs are not steps")
    func pingHandling() throws {
        var t = RecordingBuilder(dialect: .pusher)
        t.state(0, "initialized", "connecting")
        t.inbound(10, t.handshake("1.1"))
        t.state(11, "connecting", "connected")
        t.inbound(3000, t.ping())
        t.outbound(3001, t.pong())
        t.outbound(6000, t.ping())
        t.inbound(6002, t.pong())
        let plan = try t.plan()
        #expect(plan.dialect == .pusher)
        #expect(plan.segments[0].connectionId == "1.1", "socket_id in the pusher dialect")
        #expect(
            plan.segments[0].steps == [
                .send(text: t.handshake("1.1"), after: 0.01),
                .send(text: #"{"event":"pusher:ping","data":{}}"#, after: 2.99),
            ])
        #expect(ServerReplayPing.kind(ofEvent: "pusher:ping") == .ping(prefix: "pusher:"))
        #expect(ServerReplayPing.kind(ofEvent: "bird:ping") == .ping(prefix: "bird:"))
        #expect(ServerReplayPing.kind(ofEvent: "bird:pong") == .pong)
        #expect(ServerReplayPing.kind(ofEvent: "client-ping") == nil)
    }

    @Test("expectations keep their recorded order; the channel comes from the envelope or data.channel")
    func expectations() throws {
        var t = RecordingBuilder()
        t.state(0, "initialized", "connecting")
        t.inbound(10, t.handshake("1.1"))
        t.outbound(20, t.subscribe("private-a"))
        t.outbound(25, t.subscribe("presence-b"))
        t.outbound(30, #"{"event":"client-typing","channel":"private-a","data":{"on":true}}"#)
        t.outbound(35, #"{"event":"bird:signin","data":{"auth":"sandbox-key:<redacted>","member_data":"{}"}}"#)
        t.outbound(36, "{not json")
        let plan = try t.plan(grace: 1)
        let expected = plan.segments[0].steps.compactMap { step -> ServerReplayExpectation? in
            if case .expect(let e, _) = step { return e }
            return nil
        }
        #expect(
            expected == [
                ServerReplayExpectation(event: "bird:subscribe", channel: "private-a"),
                ServerReplayExpectation(event: "bird:subscribe", channel: "presence-b"),
                ServerReplayExpectation(event: "client-typing", channel: "private-a"),
                ServerReplayExpectation(event: "bird:signin"),
            ])
        #expect(plan.warnings.contains { $0.contains("not protocol JSON") })
        #expect(ServerReplayExpectation(event: "bird:signin").description == "bird:signin")
        #expect(ServerReplayExpectation(event: "e", channel: "c").description == "e on c")
    }

    @Test("a binary message recorded by size becomes a binary send")
    func binary() throws {
        var t = RecordingBuilder()
        t.state(0, "initialized", "connecting")
        t.inbound(10, t.handshake("1.1"))
        t.inbound(20, "<binary message, 3 bytes>")
        let plan = try t.plan()
        #expect(plan.segments[0].steps.last == .sendBinary(bytes: 3, after: 0.01))
    }

    @Test("stray wire entries and a trailing attempt with nothing recorded are skipped with notes")
    func strayAndTrailing() throws {
        var t = RecordingBuilder()
        t.state(2, "initialized", "connecting")
        t.inbound(10, t.handshake("1.1"))
        t.state(11, "connecting", "connected")
        t.state(500, "connected", "unavailable", cause: RecordingBuilder.serverClosed(4100), code: 4100)
        t.inbound(501, t.succeeded("late"))
        t.state(900, "unavailable", "connecting", cause: "retry due")
        let plan = try t.plan()
        #expect(plan.segments.count == 1)
        #expect(plan.segments[0].end == .close(code: 4100, reason: ""))
        #expect(plan.warnings.contains { $0.contains("ends while connecting") })
        #expect(plan.warnings.contains { $0.contains("1 wire entry outside a connection") })
    }

    @Test("wire entries before the first connecting line belong to the first connection")
    func leadingWireEntries() throws {
        // An observer registered after the client started may see the handshake first.
        var t = RecordingBuilder()
        t.inbound(5, t.handshake("1.1"))
        t.state(6, "initialized", "connecting", cause: "client started")
        t.state(7, "connecting", "connected", cause: "handshake received")
        t.outbound(20, t.subscribe("a"))
        let plan = try t.plan(grace: 1)
        #expect(plan.warnings.isEmpty)
        #expect(plan.segments.count == 1)
        #expect(
            plan.segments[0].steps == [
                .send(text: t.handshake("1.1"), after: 0),
                .expect(ServerReplayExpectation(event: "bird:subscribe", channel: "a"), timeout: 1.015),
            ])
        #expect(plan.segments[0].connectionId == "1.1")
    }

    @Test("close causes: reasons with parentheses, the client library's wording, no cause, unsendable codes")
    func causes() {
        func end(_ cause: String?, _ code: Int?) -> ServerReplayEnd {
            ServerReplayPlan.end(
                for: .init(mono: 0, previous: "connected", current: "failed", cause: cause, closeCode: code))
        }
        #expect(
            end(RecordingBuilder.serverClosed(4100, "busy (try later)"), 4100)
                == .close(code: 4100, reason: "busy (try later)"))
        #expect(
            end(RecordingBuilder.serverClosed(4009, "terminated by the app"), nil)
                == .close(code: 4009, reason: "terminated by the app"), "the code read from the text")
        #expect(
            end("closed by server: 4009 terminated by the app", 4009)
                == .close(code: 4009, reason: "terminated by the app"))
        #expect(end("closed by server: 4001 \(CloseCode.meaning(4001))", 4001) == .close(code: 4001, reason: ""))
        #expect(
            end("server closed: 4200 other words (edge restarting)", 4200)
                == .close(code: 4200, reason: "edge restarting"),
            "another recorder's meaning text: the last parenthesized group")
        #expect(end("server closed: 4100 other (words) (a (b))", 4100) == .close(code: 4100, reason: "a (b)"))
        #expect(end("server closed: 4200 other words", 4200) == .close(code: 4200, reason: ""))
        #expect(end(nil, 4100) == .close(code: 4100, reason: ""))
        #expect(end(nil, nil) == .awaitClientClose)
        #expect(end(RecordingBuilder.serverClosed(1005), 1005) == .close(code: 1000, reason: ""))
        #expect(end(RecordingBuilder.serverClosed(1006), 1006) == .drop)
        #expect(end("pong timeout (4201)", 4201) == .silence)
        var withReason = ServerReplaySource.State(
            mono: 0, previous: "connected", current: "failed", cause: "server closed: 4009 x")
        withReason.closeReason = "from the key"
        #expect(ServerReplayPlan.end(for: withReason) == .close(code: 4009, reason: "from the key"))
    }
}
