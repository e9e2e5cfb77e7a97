// The timeline of the connection's life: spans and marks built from client events, bounded
// memory, the window's zoom/scroll math on a manual clock, the `T` view and its keys.

import BirdRealtime
import Foundation
import Testing

@testable import BirdInspector

/// A state change record.
private func state(_ from: ConnectionState, _ to: ConnectionState, _ cause: TransitionCause? = nil) -> ClientEvent {
    .stateChanged(
        StateChangeRecord(previous: from, current: to, cause: cause, connectionId: to == .connected ? "1.2" : nil))
}

/// A session with a 4100 close and backoff, a network loss and return, a sign-in, and a 4009
/// refusal (seconds after t0).
private func flappingSession(_ h: inout Harness, chatAt12: Bool = false) {
    h.client(state(.initialized, .connecting, .started), at: 0)
    h.client(state(.connecting, .connected, .handshake), at: 0.25)
    h.client(.subscribed(channel: "chat"), at: 0.3)
    h.client(state(.connected, .unavailable, .closed(code: 4100, reason: "over capacity", by: .server)), at: 10)
    h.client(.retryScheduled(RetryRecord(delay: .milliseconds(800), attempt: 0)), at: 10)
    h.client(state(.unavailable, .connecting, .retryDue), at: 10.8)
    h.client(state(.connecting, .connected, .handshake), at: 11)
    if chatAt12 { h.events(3, from: 12) }
    h.client(.networkPath(NetworkPathRecord(usable: false, description: "no default route")), at: 20)
    h.client(state(.connected, .unavailable, .networkUnavailable("no default route")), at: 20)
    h.client(.networkPath(NetworkPathRecord(usable: false, description: "no default route")), at: 21)
    h.client(.networkPath(NetworkPathRecord(usable: true, description: "default via eth0 (IPv4)")), at: 25)
    h.client(state(.unavailable, .connecting, .networkRestored("default via eth0 (IPv4)")), at: 25)
    h.client(state(.connecting, .connected, .handshake), at: 25.5)
    h.client(.signinSucceeded(memberId: "alice", info: nil), at: 30)
    h.client(state(.connected, .failed, .closed(code: 4009, reason: "terminated by the app", by: .server)), at: 40)
}

@Suite("Timeline")
struct TimelineTests {
    @Test("spans and marks come from the messages the model gets")
    func spansAndMarks() {
        var h = Harness()
        flappingSession(&h)
        h.events(50, from: 12)  // channel events leave the timeline alone
        let timeline = h.model.timeline
        #expect(
            timeline.spans.map(\.state) == [
                .connecting, .connected, .unavailable, .connecting, .connected,
                .unavailable, .connecting, .connected, .failed,
            ])
        #expect(
            timeline.spans.map { ($0.start.timeIntervalSince(t0) * 1000).rounded() } == [
                0, 250, 10_000, 10_800, 11_000, 20_000,
                25_000, 25_500, 40_000,
            ])
        #expect(
            timeline.marks.map(\.kind) == [
                .close(code: 4100), .retry(attempt: 0), .networkLost, .networkBack, .signin,
                .close(code: 4009),
            ])
        #expect(timeline.marks[0].text.contains("4100 over capacity"))
        #expect(timeline.marks[1].text == "attempt 0 in 0.8s (≤ 1 s)")
        #expect(timeline.marks[4].text == "signed in as alice")
        #expect(timeline.span(at: t0.addingTimeInterval(22))?.state == .unavailable)
        #expect(timeline.span(at: t0.addingTimeInterval(22))?.cause == .networkUnavailable("no default route"))
        #expect(timeline.end(ofSpan: 1) == t0.addingTimeInterval(10))
        #expect(timeline.origin == t0)
    }

    @Test("the same state twice is one span; a drop marks 1006; a sign-out is marked")
    func coalescing() {
        var t = Timeline()
        t.record(state(.initialized, .connecting), at: t0)
        t.record(state(.connecting, .connecting), at: t0.addingTimeInterval(1))
        t.record(state(.connecting, .connected, .handshake), at: t0.addingTimeInterval(2))
        t.record(state(.connected, .unavailable, .dropped), at: t0.addingTimeInterval(3))
        t.record(state(.unavailable, .connecting, .signout), at: t0.addingTimeInterval(3))  // same instant: replaces
        #expect(t.spans.map(\.state) == [.connecting, .connected, .connecting])
        #expect(t.marks.map(\.kind) == [.close(code: 1006), .signout])
    }

    @Test("memory stays bounded by spans and marks however long the session flaps")
    func bounded() {
        var t = Timeline(maxSpans: 64, maxMarks: 40)
        for i in 0..<10_000 {
            let at = t0.addingTimeInterval(Double(i))
            t.record(state(.connected, .unavailable, .closed(code: 4100, reason: "", by: .server)), at: at)
            t.record(.retryScheduled(RetryRecord(delay: .seconds(1), attempt: 0)), at: at)
            t.record(state(.unavailable, .connected, .handshake), at: at.addingTimeInterval(0.5))
        }
        #expect(t.spans.count <= 64 && t.spans.count > 32)
        #expect(t.marks.count <= 40 && t.marks.count > 20)
        #expect(t.spans.last?.start == t0.addingTimeInterval(9_999.5))
        #expect(t.marks.last?.at == t0.addingTimeInterval(9_999))
        let cut = t.trimmedBefore ?? t0
        #expect(cut > t0.addingTimeInterval(9_000))
        #expect(t.origin == cut)
        // Marks and spans are cut at the same time: no mark before the cut, and the first span
        // is the one in force at it.
        #expect(t.marks.allSatisfy { $0.at >= cut })
        #expect(t.spans.count >= 2 && t.spans[0].start <= cut && t.spans[1].start > cut)
        // Spans alone (transitions without a close or any other mark) are bounded too.
        var quiet = Timeline(maxSpans: 64, maxMarks: 40)
        for i in 0..<10_000 {
            quiet.record(
                state(.connecting, i % 2 == 0 ? .connected : .connecting, .handshake),
                at: t0.addingTimeInterval(Double(i)))
        }
        #expect(quiet.marks.isEmpty)
        #expect(quiet.spans.count <= 64 && quiet.spans.count > 32)
        #expect(quiet.origin.map { $0 > t0.addingTimeInterval(9_900) } == true)
    }

    @Test("times from a clock that went back keep spans and marks in order")
    func outOfOrder() {
        var t = Timeline()
        t.record(state(.initialized, .connecting), at: t0.addingTimeInterval(5))
        t.record(state(.connecting, .connected), at: t0)
        #expect(t.spans.map(\.start) == [t0.addingTimeInterval(5)])  // replaced at the same instant
        #expect(t.spans.map(\.state) == [.connected])
    }

    @Test("the window: columns aligned to the scale, cursor moves, clamps at the origin, follows past now")
    func windowScroll() {
        let now = t0.addingTimeInterval(100.5)
        var w = TimelineWindow()
        #expect(w.scale == 1 && w.following)
        #expect(w.start(columns: 60, now: now) == t0.addingTimeInterval(41))
        #expect(w.cursorColumn(columns: 60, now: now) == 59)
        #expect(w.column(of: t0.addingTimeInterval(41), columns: 60, now: now) == 0)
        #expect(w.column(of: t0.addingTimeInterval(40.9), columns: 60, now: now) == nil)
        w.move(-1, columns: 60, now: now, origin: t0)
        #expect(w.cursor == t0.addingTimeInterval(99.5) && w.end == now)
        #expect(w.cursorColumn(columns: 60, now: now) == 58)
        // The picture holds still while the cursor is away from now.
        let later = now.addingTimeInterval(30)
        #expect(w.start(columns: 60, now: later) == t0.addingTimeInterval(41))
        // Past the left edge: the window scrolls so the cursor sits on it.
        w.move(-70, columns: 60, now: now, origin: t0)
        #expect(w.cursor == t0.addingTimeInterval(29.5))
        #expect(w.cursorColumn(columns: 60, now: now) == 0)
        // Not before the origin.
        w.move(-1000, columns: 60, now: now, origin: t0)
        #expect(w.cursor == t0)
        #expect(w.cursorColumn(columns: 60, now: now) == 0)
        #expect(w.start(columns: 60, now: now) == t0)
        // Right of the window: it scrolls so the cursor is the last column.
        w.move(80, columns: 60, now: now, origin: t0)
        #expect(w.cursor == t0.addingTimeInterval(80))
        #expect(w.cursorColumn(columns: 60, now: now) == 59)
        // Past now: following again.
        w.move(100, columns: 60, now: now, origin: t0)
        #expect(w.following && w.end == nil)
    }

    @Test("zoom keeps the cursor's column and stops at the ends of the ladder")
    func windowZoom() {
        let now = t0.addingTimeInterval(1000.5)
        var w = TimelineWindow()
        w.move(-200, columns: 60, now: now, origin: t0)
        w.move(20, columns: 60, now: now, origin: t0)
        #expect(w.cursor == t0.addingTimeInterval(820.5))
        #expect(w.cursorColumn(columns: 60, now: now) == 20)
        w.zoom(1, columns: 60, now: now)
        #expect(w.scale == 2)
        #expect(w.cursorColumn(columns: 60, now: now) == 20)
        #expect(w.cursor == t0.addingTimeInterval(820.5))
        w.zoom(-3, columns: 60, now: now)
        #expect(w.scale == 0.25)
        #expect(w.cursorColumn(columns: 60, now: now) == 20)
        // Near now the right edge stays at now (no empty future): the cursor moves right instead.
        var n = TimelineWindow()
        n.move(-5, columns: 60, now: now, origin: t0)
        n.zoom(1, columns: 60, now: now)
        #expect(n.end == now && n.cursorColumn(columns: 60, now: now) == 56)
        for _ in 0..<20 { w.zoom(1, columns: 60, now: now) }
        #expect(w.scale == 3600)
        for _ in 0..<20 { w.zoom(-1, columns: 60, now: now) }
        #expect(w.scale == 0.1)
        // Following: zoom keeps following.
        var f = TimelineWindow()
        f.zoom(-1, columns: 60, now: now)
        #expect(f.following && f.scale == 0.5)
        // Opening fits the history: 45 s in 63 columns is 1 s per column, in 102 columns 0.5 s.
        #expect(TimelineWindow.fitting(45.2, columns: 63).scale == 1)
        #expect(TimelineWindow.fitting(45.2, columns: 102).scale == 0.5)
        #expect(TimelineWindow.fitting(3, columns: 63).scale == 0.1)
        #expect(TimelineWindow.fitting(1e9, columns: 63).scale == 3600)
    }

    @Test("T opens the timeline; ← [ ] move the cursor; Enter selects the log entry nearest its time")
    func keysAndEnter() {
        var h = Harness(size: Size(width: 80, height: 24))
        flappingSession(&h, chatAt12: true)
        h.tick(45)
        h.type("T")
        guard case .timeline(let opened) = h.model.mode else {
            Issue.record("T did not open the timeline: \(h.model.mode)")
            return
        }
        #expect(opened.following && opened.scale == 1)
        h.press(.left)
        guard case .timeline(let moved) = h.model.mode else { return }
        #expect(moved.cursor == t0.addingTimeInterval(44))
        // [ jumps to the previous marks: the 4009 close, then the sign-in.
        h.type("[")
        guard case .timeline(let atClose) = h.model.mode else { return }
        #expect(atClose.cursor == t0.addingTimeInterval(40))
        h.type("[")
        guard case .timeline(let atSignin) = h.model.mode else { return }
        #expect(atSignin.cursor == t0.addingTimeInterval(30))
        h.type("]")
        guard case .timeline(let back) = h.model.mode else { return }
        #expect(back.cursor == t0.addingTimeInterval(40))
        // To 12 s: the channel events there.
        for _ in 0..<28 { h.press(.left) }
        guard case .timeline(let at12) = h.model.mode else { return }
        #expect(at12.cursor == t0.addingTimeInterval(12))
        h.press(.enter)
        #expect(h.model.mode == .normal)
        #expect(h.model.paused)
        #expect(h.model.focus == .events)
        let selected = h.model.selectedSeq.flatMap { h.model.log.entry(seq: $0) }
        #expect(selected?.time == t0.addingTimeInterval(12))
        #expect(selected.map { if case .event = $0.event { true } else { false } } == true)
        #expect(h.model.flash?.text.hasPrefix("log at 22:13:32.000") == true)
        // Esc closes without moving anything.
        h.type("T")
        h.press(.escape)
        #expect(h.model.mode == .normal)
    }
}

@Suite("Timeline view")
struct TimelineViewTests {
    /// The flapping session at `size`, the timeline open at now = 45 s, zoomed so it all shows.
    private func opened(_ size: Size, unicode: Bool) -> Grid {
        var h = Harness(size: size)
        h.model.config.unicode = unicode
        flappingSession(&h)
        h.tick(45.2)
        h.type("T")
        h.type("-")  // 2 s per column at 80, 1 s at 120
        h.press(.left)
        return h.render()
    }

    /// The 80×24 screen with Unicode (the footer row is checked on its own).
    private static let unicode80 = """
        ┌ Timeline ────────────────────────────── 2 s per column · cursor 22:14:03.200 ┐
        │ connected                                            ██████████··▒███████··· │
        │ connecting                                           ▒····▒······▒·········· │
        │ unavailable                                          ·····▒····███·········· │
        │ failed                                               ····················███ │
        │ disconnected                                         ······················· │
        │ marks                                                     ✕    ↓ ↑  ★    ✕   │
        │               ──────────────┬──────────────┬──────────────┬───────────────── │
        │ time                        22:12:30       22:13:00       22:13:30           │
        │ cursor                                                                    ▲  │
        │ 22:14:03.200  failed since 22:14:00.000 (5.2s so far)                        │
        │               — server closed: 4009 unauthorized (terminated by the app)     │
        │ marks up to the cursor (6 of 6)                                              │
        │ 22:13:30.000 ✕ server closed: 4100 over capacity                             │
        │ 22:13:30.000 ↻ attempt 0 in 0.8s (≤ 1 s)                                     │
        │ 22:13:40.000 ↓ network down · no default route                               │
        │ 22:13:45.000 ↑ network up · default via eth0 (IPv4)                          │
        │ 22:13:50.000 ★ signed in as alice                                            │
        │ 22:14:00.000 ✕ server closed: 4009 unauthorized (terminated by the app)      │
        │                                                                              │
        │                                                                              │
        │ ✕ close  ↻ retry  ↓↑ network lost/back  ★☆ sign-in/out  ✗ refused            │
        └──────────────────────────────────────────────────────────────────────────────┘
        """

    /// The same in ASCII (words in the text rows stay as they are).
    private static let ascii80 = """
        ┌ Timeline ────────────────────────────── 2 s per column · cursor 22:14:03.200 ┐
        │ connected                                            ##########..:#######... │
        │ connecting                                           :....:......:.......... │
        │ unavailable                                          .....:....###.......... │
        │ failed                                               ....................### │
        │ disconnected                                         ....................... │
        │ marks                                                     X    v ^  *    X   │
        │               --------------+--------------+--------------+----------------- │
        │ time                        22:12:30       22:13:00       22:13:30           │
        │ cursor                                                                    ^  │
        │ 22:14:03.200  failed since 22:14:00.000 (5.2s so far)                        │
        │               — server closed: 4009 unauthorized (terminated by the app)     │
        │ marks up to the cursor (6 of 6)                                              │
        │ 22:13:30.000 X server closed: 4100 over capacity                             │
        │ 22:13:30.000 r attempt 0 in 0.8s (≤ 1 s)                                     │
        │ 22:13:40.000 v network down · no default route                               │
        │ 22:13:45.000 ^ network up · default via eth0 (IPv4)                          │
        │ 22:13:50.000 * signed in as alice                                            │
        │ 22:14:00.000 X server closed: 4009 unauthorized (terminated by the app)      │
        │                                                                              │
        │                                                                              │
        │ X close  r retry  v^ network lost/back  *o sign-in/out  ! refused            │
        └──────────────────────────────────────────────────────────────────────────────┘
        """

    @Test("80×24 snapshot, Unicode: lanes in block characters, marks, the axis, the cursor, the marks list, the legend")
    func unicode80x24() {
        let grid = opened(Size(width: 80, height: 24), unicode: true)
        let rows = Array(grid.lines.prefix(23))
        let want = Self.unicode80.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(rows.count == want.count)
        for (y, (got, expected)) in zip(rows, want).enumerated() { #expect(got == expected, "row \(y)") }
        let footer = grid.lines[23]
        #expect(
            footer.hasPrefix("← earlier → later + zoom in - zoom out [ prev ] next Enter log Esc close ? more"),
            "\(footer)")
    }

    @Test("80×24 snapshot, ASCII: the same picture, the graphics in ASCII only")
    func ascii80x24() {
        let grid = opened(Size(width: 80, height: 24), unicode: false)
        let rows = Array(grid.lines.prefix(23))
        let want = Self.ascii80.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(rows.count == want.count)
        for (y, (got, expected)) in zip(rows, want).enumerated() { #expect(got == expected, "row \(y)") }
        for y in 1...9 {
            let ascii = rows[y].dropFirst().dropLast().unicodeScalars.allSatisfy { $0.isASCII }
            #expect(ascii, "row \(y) is ASCII: \(rows[y])")
        }
    }

    @Test("120×40 in both glyph sets: the spans and marks sit in the columns of their times")
    func wide120x40() {
        for unicode in [true, false] {
            var h = Harness(size: Size(width: 120, height: 40))
            h.model.config.unicode = unicode
            flappingSession(&h)
            h.tick(45.2)
            h.type("T")
            h.press(.left)
            let grid = h.render()
            let text = grid.lines
            let g = unicode ? Glyphs.unicode : Glyphs.ascii
            for (y, row) in text.enumerated() { #expect(DisplayWidth.of(row) == 120, "row \(y)") }
            guard case .timeline(let w) = h.model.mode else { Issue.record("not open"); return }
            let columns = Inspector.timelineColumns(Size(width: 120, height: 40))
            #expect(columns == 102 && w.scale == 0.5, "fitted: 45 s in 102 columns")
            #expect(text[0].contains("0.5 s per column · cursor 22:14:04.700"))
            let now = h.model.now
            let col = { (s: Double) in w.column(of: t0.addingTimeInterval(s), columns: columns, now: now) ?? -1 }
            let lanes = 1 + 1 + Inspector.timelineLabelWidth
            let cell = { (y: Int, c: Int) in grid[lanes + c, y].text }
            #expect(col(0) == 11 && col(45.2) == 101, "the history fills the width")
            #expect(cell(2, col(0.1)) == g.full, "connecting 0–0.25 s: half of its column")
            #expect(cell(1, col(5)) == g.full && cell(1, col(10.2)) == g.empty, "connected until 10 s")
            #expect(cell(3, col(10.2)) == g.full, "unavailable from 10 s")
            #expect(cell(3, col(22)) == g.full && cell(1, col(22)) == g.empty, "no network 20–25 s")
            #expect(
                cell(2, col(25.2)) == g.full && cell(1, col(25.6)) == g.full, "connecting 25–25.5 s, then connected")
            #expect(
                cell(3, col(10.9)) == g.full && cell(2, col(10.9)) == g.part,
                "10.5–11 s: unavailable 0.3 s, connecting 0.2 s")
            #expect(cell(4, col(41)) == g.full && cell(1, col(41)) == g.empty, "failed from 40 s")
            #expect(cell(5, col(41)) == g.empty && cell(5, 0) == " ", "disconnected: never; before the history: blank")
            #expect(
                cell(6, col(10)) == g.close && cell(6, col(20)) == g.networkLost && cell(6, col(25)) == g.networkBack)
            #expect(cell(6, col(30)) == g.signin && cell(6, col(40)) == g.close)
            #expect(cell(9, col(44.7)) == g.cursor && col(44.7) == 100)
            #expect(text.contains { $0.contains("marks up to the cursor (6 of 6)") })
            #expect(text.contains { $0.contains("22:14:04.700  failed since 22:14:00.000 (5.2s so far)") })
        }
    }

    @Test("the footer lists the timeline's keys, and the main footer lists T")
    func footerKeys() {
        var h = Harness(size: Size(width: 120, height: 40))
        h.connectAndSubscribe()
        #expect(h.render().lines[39].contains("T time"))
        h.type("T")
        let footer = h.render().lines[39]
        for key in [
            "← earlier", "→ later", "+ zoom in", "- zoom out", "[ prev mark", "] next mark", "Enter show in log",
            "Esc close",
        ] {
            #expect(footer.contains(key), "footer has \(key): \(footer)")
        }
    }
}

@Suite("Sparklines")
struct SparklineTests {
    @Test("levels scale to the busiest second; a quiet second is blank")
    func levels() {
        #expect(Inspector.sparkline([0, 1, 2, 4, 8], .unicode) == " ▁▂▄█")
        #expect(Inspector.sparkline([0, 1, 2, 4, 8], .ascii) == " ._-#")
        #expect(Inspector.sparkline([0, 0, 0], .unicode) == "   ")
        #expect(Inspector.sparkline([10_000, 1], .unicode) == "█▁")
        #expect(Inspector.sparkline([Int.max, 1], .ascii) == "#.")
        #expect(Inspector.sparkline([1, 3, 5, 7, 8], .ascii) == "._=##")
    }

    @Test("EventRate counts per second, forgets what is older than 30 s, and ignores a clock that went back")
    func rate() {
        var r = EventRate()
        for i in 0..<10 { r.record(at: t0.addingTimeInterval(Double(i) * 0.25)) }  // 4 in each of s 0, 1; 2 in s 2
        #expect(r.last(4, now: t0.addingTimeInterval(3.5)) == [4, 4, 2, 0])
        r.record(at: t0.addingTimeInterval(40))
        #expect(r.last(3, now: t0.addingTimeInterval(40.1)) == [0, 0, 1])
        #expect(r.last(30, now: t0.addingTimeInterval(40.1)).reduce(0, +) == 1)
        r.record(at: t0)  // 40 s back: counted in the oldest second still held
        #expect(r.last(30, now: t0.addingTimeInterval(40.1)).reduce(0, +) == 2)
        #expect(r.last(30, now: t0.addingTimeInterval(200)).reduce(0, +) == 0)
    }

    @Test("the Channels pane draws a sparkline per channel where there is width, in both glyph sets")
    func inChannelsPane() {
        for unicode in [true, false] {
            var h = Harness(size: Size(width: 200, height: 50))
            h.model.config.unicode = unicode
            h.connectAndSubscribe()
            for s in 0..<8 {
                for i in 0...s {
                    h.client(
                        .event(ChannelEventRecord(channel: "chat", event: "m", data: "{}")),
                        at: 10 + Double(s) + Double(i) * 0.01)
                }
            }
            h.tick(17.5)
            let grid = h.render()
            expectPanesFramed(grid)
            let row = line(grid, containing: " chat ") ?? ""
            #expect(row.contains(unicode ? "▁▂▃▄▅▆▇█ ✓ subscribed 36 ev" : ".__-==## ✓ subscribed 36 ev"), "\(row)")
        }
        // At 80 columns there is no room: the row is as before.
        var narrow = Harness(size: Size(width: 80, height: 24))
        narrow.connectAndSubscribe()
        narrow.events(5, from: 7)
        let grid = narrow.render()
        let rows = paneRows(grid, drawnLayout(grid).channels)
        #expect(rows.contains { $0.contains("chat") })
        #expect(!rows.contains { $0.contains("▁") || $0.contains("█") }, "\(rows)")
    }
}
