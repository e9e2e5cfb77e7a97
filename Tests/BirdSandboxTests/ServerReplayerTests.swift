import BirdWire
import Testing
import TestSupport

@testable import BirdSandbox

/// The player on in-memory links and a virtual clock: what each connection is sent, when, and
/// how it ends.
struct ServerReplayerTests {
    private struct Rig {
        let scheduler = VirtualScheduler()
        let log = LockedList<String>()
        let player: ServerReplayer

        init(_ plan: ServerReplayPlan) {
            let log = self.log
            player = ServerReplayer(plan: plan, scheduler: scheduler) { log.append($0) }
        }

        func accept(_ link: FakeLink) -> Int? { player.accept(link: link, remote: "127.0.0.1:5000") }
    }

    /// Two connections: handshake, subscribe, answer, close 4200; then a handshake and stay open.
    private func restartTranscript() -> RecordingBuilder {
        var t = RecordingBuilder()
        t.state(0, "initialized", "connecting", cause: "client started")
        t.inbound(20, t.handshake("111.222"))
        t.state(21, "connecting", "connected", cause: "handshake received")
        t.outbound(30, t.subscribe("public-demo"))
        t.inbound(40, t.succeeded("public-demo"))
        t.state(
            1000, "connected", "connecting", cause: RecordingBuilder.serverClosed(4200, "edge restarting"), code: 4200)
        t.inbound(1050, t.handshake("333.444"))
        t.state(1051, "connecting", "connected", cause: "handshake received")
        return t
    }

    @Test("connection k plays segment k at the recorded pace; later ones are declined for the edge")
    func playsSegmentsInOrder() throws {
        let t = restartTranscript()
        let rig = Rig(try t.plan(grace: 5))
        let first = FakeLink()
        #expect(rig.accept(first) == 1)
        #expect(first.sent.isEmpty, "the handshake waits its recorded 20 ms")
        rig.scheduler.advance(by: 0.019)
        #expect(first.sent.isEmpty)
        rig.scheduler.advance(by: 0.002)
        #expect(first.sent == [t.handshake("111.222")], "sent verbatim, recorded id included")
        rig.scheduler.advance(by: 2)
        #expect(first.sent.count == 1, "nothing more until the client subscribes")
        rig.player.received(text: t.subscribe("public-demo"), segment: 1)
        #expect(first.sent.count == 1)
        rig.scheduler.advance(by: 0.01)
        #expect(first.sent.last == t.succeeded("public-demo"))
        #expect(first.closed == nil)
        rig.scheduler.advance(by: 0.95)
        #expect(first.closed == nil, "the close comes 960 ms after the answer, as recorded")
        rig.scheduler.advance(by: 0.02)
        #expect(first.closed?.code == 4200)
        #expect(first.closed?.reason == "edge restarting")
        #expect(rig.player.phase(ofSegment: 1) == .closing)
        rig.player.closed(segment: 1, code: 4200, reason: "edge restarting")
        #expect(rig.player.openCount == 0)

        let second = FakeLink()
        #expect(rig.accept(second) == 2)
        rig.scheduler.advance(by: 0.05)
        #expect(second.sent == [t.handshake("333.444")])
        #expect(rig.player.phase(ofSegment: 2) == .open)

        #expect(rig.accept(FakeLink()) == nil, "beyond the transcript: the edge serves it")
        #expect(rig.accept(FakeLink()) == nil)
        let lines = rig.log.all
        #expect(lines.contains("replay: segment 1/2: sent bird:connection_established (connection id 111.222)"))
        #expect(lines.contains("replay: segment 1/2: received bird:subscribe on public-demo"))
        #expect(lines.contains("replay: segment 1/2: sent bird_internal:subscription_succeeded on public-demo"))
        #expect(lines.contains(#"replay: segment 1/2: closed with 4200 "edge restarting""#))
        #expect(lines.contains { $0.hasPrefix("replay: segment 2/2: end of the transcript") })
        #expect(lines.contains { $0.hasPrefix("replay: all 2 segment(s) played") })
        #expect(
            lines.filter { $0.contains("beyond") || $0.contains("the transcript has 2 segment(s)") }.count == 1,
            "the hand-over to the edge is logged once")
    }

    @Test("pings are answered in their dialect, until a pong-timeout segment goes silent")
    func pingsAndSilence() throws {
        var t = RecordingBuilder()
        t.state(0, "initialized", "connecting")
        t.inbound(0, t.handshake("1.1", activityTimeout: 5))
        t.state(1, "connecting", "connected")
        t.outbound(5000, t.ping())
        t.inbound(5001, t.pong())
        t.outbound(10001, t.ping())
        t.state(11001, "connected", "connecting", cause: "pong timeout", code: 4201)
        t.inbound(11010, t.handshake("2.2"))
        let rig = Rig(try t.plan())
        let link = FakeLink()
        #expect(rig.accept(link) == 1)
        #expect(link.sent == [t.handshake("1.1", activityTimeout: 5)], "no delay recorded: sent at once")
        rig.player.received(text: #"{"event":"bird:ping","data":{}}"#, segment: 1)
        #expect(link.sent.last == #"{"event":"bird:pong","data":{}}"#)
        rig.player.received(text: #"{"event":"pusher:ping","data":{}}"#, segment: 1)
        #expect(link.sent.last == #"{"event":"pusher:pong","data":{}}"#)
        rig.player.received(text: #"{"event":"bird:pong","data":{}}"#, segment: 1)
        #expect(link.sent.count == 3, "a client's pong is absorbed")
        rig.scheduler.advance(by: 5.002)
        #expect(link.paused)
        #expect(rig.player.phase(ofSegment: 1) == .silent)
        rig.player.received(text: #"{"event":"bird:ping","data":{}}"#, segment: 1)
        #expect(link.sent.count == 3, "silent: no pong")
        #expect(rig.log.contains("went silent"))

        // The client gives up (4201) and connects again; the silent one is let go.
        let next = FakeLink()
        #expect(rig.accept(next) == 2)
        #expect(link.dropped)
        #expect(rig.log.contains("replay: segment 1/2: dropped the silent connection"))
        rig.scheduler.advance(by: 0.01)
        #expect(next.sent == [t.handshake("2.2")])
    }

    @Test("a silent last connection is let go when the client moves on to the edge")
    func silentLastSegment() throws {
        var t = RecordingBuilder()
        t.state(0, "initialized", "connecting")
        t.inbound(0, t.handshake("1.1"))
        t.state(1, "connecting", "connected")
        t.state(9000, "connected", "connecting", cause: "pong timeout", code: 4201)
        let rig = Rig(try t.plan())
        #expect(rig.player.plan.segments.count == 1, "the attempt after the timeout has nothing recorded")
        let link = FakeLink()
        #expect(rig.accept(link) == 1)
        #expect(link.paused, "nothing recorded after the handshake: silent at once")
        #expect(rig.accept(FakeLink()) == nil)
        #expect(link.dropped)
    }

    @Test("client messages are matched in any order")
    func outOfOrder() throws {
        var t = RecordingBuilder()
        t.state(0, "initialized", "connecting")
        t.inbound(0, t.handshake("1.1"))
        t.state(1, "connecting", "connected")
        t.outbound(10, t.subscribe("a"))
        t.outbound(11, t.subscribe("b"))
        t.inbound(20, t.succeeded("a"))
        t.inbound(21, t.succeeded("b"))
        let rig = Rig(try t.plan(grace: 5))
        let link = FakeLink()
        #expect(rig.accept(link) == 1)
        rig.player.received(text: t.subscribe("b"), segment: 1)
        #expect(rig.log.all.allSatisfy { !$0.contains("unexpected") }, "b is expected later: kept")
        rig.player.received(text: t.subscribe("a"), segment: 1)
        #expect(rig.log.contains("received bird:subscribe on b (it arrived earlier, out of order)"))
        rig.scheduler.advance(by: 0.02)
        #expect(link.sent == [t.handshake("1.1"), t.succeeded("a"), t.succeeded("b")])
        rig.player.received(text: t.subscribe("b"), segment: 1)
        #expect(rig.log.contains("unexpected client message bird:subscribe on b"), "once matched, a repeat is extra")
    }

    @Test("an expectation that never comes times out, is logged, and the replay goes on")
    func expectTimeout() throws {
        var t = RecordingBuilder()
        t.state(0, "initialized", "connecting")
        t.inbound(0, t.handshake("1.1"))
        t.outbound(1000, t.subscribe("private-x"))
        t.inbound(1010, t.succeeded("private-x"))
        t.state(
            2000, "connected", "failed", cause: RecordingBuilder.serverClosed(4009, "terminated by the app"),
            code: 4009)
        let rig = Rig(try t.plan(grace: 2))
        let link = FakeLink()
        #expect(rig.accept(link) == 1)
        rig.scheduler.advance(by: 2.9)
        #expect(link.sent.count == 1, "waits the recorded gap (1 s) plus the grace (2 s)")
        rig.scheduler.advance(by: 0.2)
        #expect(rig.log.contains("mismatch: expected bird:subscribe on private-x within 3 s, not received; going on"))
        rig.scheduler.advance(by: 0.01)
        #expect(link.sent.last == t.succeeded("private-x"))
        rig.scheduler.advance(by: 1)
        #expect(link.closed?.code == 4009)
        #expect(link.closed?.reason == "terminated by the app")
    }

    @Test("refused segments are dropped at once; drops and client-side ends as recorded")
    func refusedDropAndClientEnds() throws {
        var t = RecordingBuilder()
        t.state(0, "initialized", "connecting")
        t.state(3, "connecting", "unavailable", cause: "network error: connection refused")
        t.state(200, "unavailable", "connecting")
        t.inbound(210, t.handshake("2.2"))
        t.state(211, "connecting", "connected")
        t.state(700, "connected", "unavailable", cause: "network error: connection lost (1006)")
        t.state(900, "unavailable", "connecting")
        t.inbound(910, t.handshake("3.3"))
        t.state(911, "connecting", "connected")
        t.state(1500, "connected", "disconnected", cause: "disconnect() called")
        let rig = Rig(try t.plan())
        let refused = FakeLink()
        #expect(rig.accept(refused) == 1)
        #expect(refused.dropped)
        #expect(refused.sent.isEmpty)
        rig.player.closed(segment: 1, code: 1006, reason: "")

        let dropped = FakeLink()
        #expect(rig.accept(dropped) == 2)
        rig.scheduler.advance(by: 0.01)
        #expect(dropped.sent == [t.handshake("2.2")])
        rig.scheduler.advance(by: 0.5)
        #expect(dropped.dropped)
        #expect(dropped.closed == nil, "no close frame")

        let last = FakeLink()
        #expect(rig.accept(last) == 3)
        rig.scheduler.advance(by: 1)
        #expect(rig.player.phase(ofSegment: 3) == .waitingForClient)
        #expect(last.closed == nil && !last.dropped)
        rig.player.closed(segment: 3, code: 1000, reason: "")
        #expect(rig.log.contains("replay: segment 3/3: the client closed with 1000, as recorded"))
    }

    @Test("a client that closes early is a logged mismatch; stop closes what is left")
    func earlyCloseAndStop() throws {
        let t = restartTranscript()
        let rig = Rig(try t.plan())
        let first = FakeLink()
        #expect(rig.accept(first) == 1)
        rig.scheduler.advance(by: 0.02)
        rig.player.closed(segment: 1, code: 1001, reason: "going away")
        #expect(
            rig.log.contains(
                #"replay: segment 1/2: mismatch: the client closed with 1001 "going away" at step 2/3; the recording went on to close 4200 "edge restarting""#
            ))
        rig.scheduler.advance(by: 20)
        #expect(first.closed == nil, "nothing is played on a closed connection")

        let second = FakeLink()
        #expect(rig.accept(second) == 2)
        rig.player.stop(code: 4200, reason: "edge restarting")
        #expect(second.closed?.code == 4200)
        #expect(rig.accept(FakeLink()) == nil)
        rig.scheduler.advance(by: 1)
        #expect(second.sent.isEmpty, "stopped before the handshake was due")
    }
}
