import BirdWire
import Testing
import TestSupport

@testable import BirdSandbox

/// Recordings travel in support tickets: a crafted one must give typed problems (a line skipped
/// with a reason), never a trap in the reader, the planner or the player.
@Suite("Replay: crafted recordings")
struct ReplayHostileInputTests {
    @Test("mono_ms out of 0…1e10 (1e300, negative, a string) skips the line with a warning naming it")
    func monoOutOfRange() throws {
        var t = RecordingBuilder()
        t.state(0, "initialized", "connecting", cause: "client started")
        t.inbound(1e300, t.handshake("1.1"))
        t.inbound(-5, t.handshake("1.2"))
        t.raw(#"{"mono_ms":"NaN","type":"wire","direction":"in","text":"{}"}"#)
        t.inbound(20, t.handshake("1.3"))
        t.state(2e300, "connected", "unavailable", cause: "network error: reset")
        let source = try t.source()
        #expect(source.entries.count == 2, "the first state line and the handshake at 20 ms")
        #expect(source.warnings.count == 4, "\(source.warnings)")
        #expect(source.warnings.first == "line 3: mono_ms 1e+300 is outside 0…10000000000; skipped")
        #expect(source.warnings.contains { $0 == "line 4: mono_ms -5 is outside 0…10000000000; skipped" })
        #expect(source.warnings.contains { $0.hasPrefix("line 5: ") && $0.contains("no mono_ms") })
        #expect(source.warnings.last?.hasPrefix("line 7: ") == true)
        let plan = ServerReplayPlan(source: source)
        #expect(plan.segments.count == 1)
        #expect(plan.segments.first?.steps == [.send(text: t.handshake("1.3"), after: 0.02)])
    }

    @Test("mono_ms at the top of the range plans waits the player can schedule")
    func largestMono() throws {
        var t = RecordingBuilder()
        t.state(0, "initialized", "connecting")
        t.inbound(1e10, t.handshake("1.1"))
        t.outbound(1e10, t.subscribe("public-demo"))
        let plan = try t.plan(grace: .nan)
        let segment = try #require(plan.segments.first)
        #expect(segment.steps.first == .send(text: t.handshake("1.1"), after: 1e7))
        #expect(
            segment.steps.last
                == .expect(ServerReplayExpectation(event: "bird:subscribe", channel: "public-demo"), timeout: 0))
        #expect(
            try t.plan(grace: .infinity).segments.first?.steps.last
                == .expect(ServerReplayExpectation(event: "bird:subscribe", channel: "public-demo"), timeout: 0))
        #expect(
            try t.plan(grace: 1e300).segments.first?.steps.last
                == .expect(ServerReplayExpectation(event: "bird:subscribe", channel: "public-demo"), timeout: 86_400))
    }

    @Test("a binary stand-in with a negative, huge or unreadable size is skipped with a warning")
    func binarySizes() throws {
        var t = RecordingBuilder()
        t.state(0, "initialized", "connecting")
        t.inbound(1, "<binary message, 5 bytes>")
        t.inbound(2, "<binary message, -5 bytes>")
        t.inbound(3, "<binary message, 99999999999999999999999 bytes>")
        t.inbound(4, "<binary message, \(ServerReplayPlan.maxBinaryBytes + 1) bytes>")
        t.inbound(5, "<binary message, ٣ bytes>")
        let plan = try t.plan()
        let segment = try #require(plan.segments.first)
        #expect(segment.steps == [.sendBinary(bytes: 5, after: 0.001)])
        #expect(plan.warnings.filter { $0.contains("binary message") }.count == 4, "\(plan.warnings)")
    }

    @Test("the player formats any timeout and sends only planned binary sizes")
    func playerWithHugeTimeouts() throws {
        // A hand-built plan (not from a file) with a timeout too large for Int: logged, not trapped.
        let segment = ServerReplaySegment(
            number: 1, steps: [.expect(ServerReplayExpectation(event: "bird:subscribe"), timeout: 1e300)],
            end: .stayOpen)
        let scheduler = VirtualScheduler()
        let log = LockedList<String>()
        let player = ServerReplayer(plan: ServerReplayPlan(segments: [segment]), scheduler: scheduler) {
            log.append($0)
        }
        let link = FakeLink()
        #expect(player.accept(link: link, remote: "test") == 1)
        scheduler.advance(by: 1e301)
        #expect(log.all.contains { $0.contains("expected bird:subscribe within 1e+300 s") }, "\(log.all)")
    }
}
