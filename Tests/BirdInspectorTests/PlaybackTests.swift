// `--replay FILE` in the pure core: pacing by mono_ms and speed, the replay keys, live commands
// refused, the end of the file, and the status on screen.

import BirdRecording
import Foundation
import Testing

@testable import BirdInspector

/// A model replaying `sampleRecording()`, driven by wall-clock ticks from `w0`.
struct PlaybackHarness {
    static let w0 = Date(timeIntervalSince1970: 1_800_000_000)
    var model: Model
    var commands: [Command] = []

    init(speed: Double = 1, size: Size = Size(width: 80, height: 24), text: String = sampleRecording()) throws {
        model = Model(replaying: try PlaybackRecording(text: text), file: "rec.jsonl", speed: speed, size: size)
    }

    var playback: PlaybackState { model.playback! }

    /// A tick `seconds` of wall time after w0.
    mutating func tick(_ seconds: Double) {
        commands += Inspector.update(&model, .tick(now: Self.w0.addingTimeInterval(seconds)))
    }

    mutating func press(_ key: Key) {
        commands += Inspector.update(&model, .key(key))
    }

    mutating func type(_ text: String) {
        for c in text { press(c == "\n" ? .enter : .char(c)) }
    }

    func render() -> Grid { Inspector.view(model, size: model.size) }
}

@Suite("Playback of a recording (--replay)")
struct PlaybackTests {
    @Test("entries play at their recorded offsets and drive the same panes")
    func pace() throws {
        var h = try PlaybackHarness()
        h.tick(0)
        #expect(h.playback.position == 0 && h.model.connection.state == .initialized)
        h.tick(0.015)
        #expect(h.playback.position == 1 && h.model.connection.state == .connecting)
        h.tick(0.999)
        #expect(h.playback.position == 5)
        h.tick(1.0)
        #expect(h.playback.position == 6)
        #expect(h.model.connection.state == .connected && h.model.connection.connectionId == "1.2")
        #expect(h.model.channels.first?.status == .subscribed && h.model.channels.first?.events == 1)
        // Panes show recorded times: the log entry is stamped with the line's ts.
        #expect(
            h.model.log.entry(seq: h.model.log.lastSeq).map { RecordingTime.iso($0.time) } == "2023-11-14T22:13:21.000Z"
        )
        #expect(h.commands.isEmpty)
    }

    @Test("speed divides the waits; --speed 0 plays everything at once")
    func speed() throws {
        var h = try PlaybackHarness(speed: 4)
        h.tick(0)
        h.tick(0.25)
        #expect(h.playback.position == 6)
        var fast = try PlaybackHarness(speed: 0)
        fast.tick(0)
        #expect(fast.playback.finished && fast.playback.position == 10)
        #expect(fast.playback.statusText == "replay rec.jsonl · entry 10/10 · ×max · replay finished")
    }

    @Test("playback time drives countdowns: a recorded 4 s retry counts down at the replay's speed")
    func countdown() throws {
        var h = try PlaybackHarness(speed: 2)
        h.tick(0)
        h.tick(1.501)  // 3002 ms recorded: the drop and the retry have played
        #expect(h.model.connection.state == .unavailable)
        let text = flowed(paneRows(h.render(), Inspector.layout(h.model, size: h.model.size).connection))
        #expect(text.contains("attempt 2 in 4.0s (≤ 4 s)"), "\(text)")
        h.tick(2.5)  // 1 s of wall time = 2 s recorded
        #expect(
            flowed(paneRows(h.render(), Inspector.layout(h.model, size: h.model.size).connection)).contains(
                "attempt 2 in 2.0s (≤ 4 s)"))
    }

    @Test("Space pauses and resumes; . steps one entry while paused; > plays to the next state change")
    func keys() throws {
        var h = try PlaybackHarness()
        h.tick(0)
        h.tick(0.015)
        #expect(h.playback.position == 1)
        h.press(.char("."))
        #expect(
            h.playback.position == 1 && h.model.flash?.isError == true
                && h.model.flash?.text.contains("only while paused") == true)
        h.press(.char(" "))
        #expect(h.playback.paused && h.playback.statusText.hasSuffix("· paused"))
        h.tick(5)
        #expect(h.playback.position == 1, "paused: nothing plays")
        h.press(.char("."))
        #expect(h.playback.position == 2 && h.model.flash?.text == "entry 2/10: wire in pusher:connection_established")
        h.press(.char(">"))
        #expect(h.playback.position == 3 && h.model.connection.state == .connected)
        h.press(.char(">"))
        #expect(h.playback.position == 8 && h.model.connection.state == .unavailable)
        #expect(h.model.channels.first?.events == 2)
        h.press(.char(" "))
        #expect(!h.playback.paused)
        // Resuming goes on from where playback stood (3000 ms), not from the wall clock.
        h.tick(5.0004)
        #expect(h.playback.position == 8)
        h.tick(5.001)
        #expect(h.playback.position == 9)
    }

    @Test("+ and - step through the speeds and stop at the ends")
    func speeds() throws {
        var h = try PlaybackHarness(speed: 3)
        h.press(.char("+"))
        #expect(h.playback.speed == 4)
        h.press(.char("-"))
        h.press(.char("-"))
        #expect(h.playback.speed == 1)
        for _ in 0..<10 { h.press(.char("=")) }
        #expect(h.playback.speed == 64 && h.model.flash?.text.contains("fastest") == true)
        for _ in 0..<12 { h.press(.char("-")) }
        #expect(h.playback.speed == 0.25 && h.model.flash?.text.contains("slowest") == true)
        #expect(h.playback.speedText == "×0.25")
    }

    @Test("commands that would talk to an edge say \"replaying a recording\" and do nothing")
    func liveRefused() throws {
        var h = try PlaybackHarness()
        h.tick(0)
        h.tick(0.06)
        for key in ["s", "u", "t", "i", "o", "d", "c", "x", "k"] {
            h.model.flash = nil
            h.type(key)
            #expect(h.model.mode == .normal, "\(key)")
            #expect(
                h.model.flash?.text.contains("replaying a recording") == true,
                "\(key): \(h.model.flash?.text ?? "no message")")
        }
        for line in ["subscribe other", "disconnect", "drop", "signin", "trigger chat client-x {}"] {
            h.type(":" + line + "\n")
            #expect(h.model.flash?.text.contains("replaying a recording") == true, "\(line)")
        }
        #expect(h.commands.isEmpty)
        #expect(h.model.channels.map(\.name) == ["chat"])
        h.type(":quit\n")
        #expect(h.commands == [.quit])
        h.commands = []
        h.type("q")
        #expect(h.commands == [.quit])
    }

    @Test("at the end the model stays, says replay finished, and the playback keys explain why they do nothing")
    func finished() throws {
        var h = try PlaybackHarness()
        h.tick(0)
        h.tick(8)
        #expect(h.playback.finished && h.model.flash?.text.contains("replay finished") == true)
        h.tick(9)
        h.press(.char(" "))
        #expect(h.model.flash?.text.contains("replay finished") == true && h.model.flash?.isError == true)
        let pane = flowed(paneRows(h.render(), Inspector.layout(h.model, size: h.model.size).connection))
        #expect(pane.hasPrefix("replay rec.jsonl · entry 10/10 · ×1 · replay finished"), "\(pane)")
        #expect(h.model.connection.state == .connecting)
    }

    @Test("the replay status and keys on screen", arguments: screenSizes)
    func rendering(size: Size) throws {
        var h = try PlaybackHarness(size: size)
        h.tick(0)
        h.tick(1.0)
        h.press(.char(" "))
        let g = h.render()
        expectPanesFramed(g)
        let pane = flowed(paneRows(g, Inspector.layout(h.model, size: size).connection))
        #expect(pane.hasPrefix("replay rec.jsonl · entry 6/10 · ×1 · paused"), "\(pane)")
        #expect(pane.contains("● connected"))
        if size.width >= 120 { #expect(pane.contains("· pusher · recorded by bird-inspect 0.1.0"), "\(pane)") }
        h.tick(7)  // the footer message expires by wall time, even while paused
        let footer = h.render().lines[size.height - 1]
        #expect(footer.hasPrefix("Space resume replay") || footer.hasPrefix("Space play"), "\(footer)")
        #expect(footer.contains("> next state") || footer.contains("> state"), "\(footer)")
        // The keys that would talk to an edge are shown dimmed, like any unavailable key.
        let items = Inspector.footerItems(h.model, width: size.width)
        #expect(items.first { $0.key == "s" }?.ok == false && items.first { $0.key == "d" }?.ok == false)
        #expect(items.first { $0.key == "Space" }?.ok == true)
        #expect(footer.contains("? more"), "\(footer)")
        // The help overlay lists the Replay keys.
        let help = Inspector.helpLines(h.model, width: 100).map { $0.map(\.0).joined() }
        #expect(help.contains { $0.contains("Space") && $0.contains("Pause / resume playback") })
        #expect(help.contains { $0.contains("unavailable: replaying a recording") })
    }

    @Test("skipped lines are counted in the status and the first is named in the footer")
    func problemsShown() throws {
        var h = try PlaybackHarness(text: sampleRecording(extra: ["garbage", "more garbage"]))
        h.tick(0)
        #expect(h.playback.statusText.hasSuffix("· 2 bad lines skipped"))
        #expect(h.model.flash?.text == "skipped line 12: not JSON (and 1 more)")
        h.tick(11)
        #expect(h.model.flash?.text != "skipped line 12: not JSON (and 1 more)")
    }

    @Test("replay keys are not main-screen keys, and do nothing in a live session")
    func keyTable() {
        for b in KeyBindings.scope(.replay) {
            for key in b.keys {
                #expect(KeyBindings.binding(for: key, in: .main) == nil, "\(key.name) is also a main key")
            }
        }
        var live = Harness()
        live.connectAndSubscribe()
        live.commands = []
        let before = live.model.log.count
        live.press(.char(" "))
        live.press(.char(">"))
        #expect(live.commands.isEmpty && live.model.log.count == before && live.model.playback == nil)
        #expect(KeyBindings.markdown.contains("### Replay (--replay FILE, on the main screen)"))
    }
}
