// Screens rendered at 80×24 and 200×50: titles, borders, and the content that matters.

import Foundation
import Testing

@testable import BirdInspector

@Suite("Screens")
struct ViewTests {
    @Test("connected: state, id, endpoint, channels, events", arguments: screenSizes)
    func connected(size: Size) {
        var h = Harness(size: size)
        h.connectAndSubscribe()
        h.events(3)
        h.tick(65)
        let g = h.render()
        expectPanesFramed(g)
        #expect(contains(g, "● connected"))
        #expect(contains(g, "since"))
        #expect(contains(g, "(1m 04s)"))
        #expect(contains(g, "id: 123.456"))
        #expect(contains(g, "127.0.0.1:6001 · TLS off · bird"))
        #expect(contains(g, "activity 60s · pong 30s"))
        #expect(contains(g, "cause: handshake received"))
        for ch in ["chat", "private-orders", "presence-room"] { #expect(contains(g, ch)) }
        #expect(line(g, containing: "chat")?.contains("✓") == true)
        #expect(contains(g, #"{"n":2,"#))
        // Time with milliseconds on log lines.
        #expect(g.lines.contains { $0.range(of: #"\d\d:\d\d:\d\d\.\d\d\d"#, options: .regularExpression) != nil })
        // The state is coloured as good.
        let row = g.lines.firstIndex { $0.contains("● connected") } ?? 0
        #expect(g[1, row].style.role == .good)
    }

    @Test(
        "backoff: the library's attempt number (from 0), its window, and a countdown that ticks", arguments: screenSizes
    )
    func backoff(size: Size) {
        var h = Harness(size: size)
        h.connectAndSubscribe()
        h.client(
            .stateChanged(
                StateChangeRecord(
                    previous: .connected, current: .unavailable,
                    cause: .closed(code: 1006, reason: "", by: .server))), at: 10)
        h.client(
            .retryScheduled(
                RetryRecord(delay: .milliseconds(4000), attempt: 2, cause: .closed(code: 1006, reason: "", by: .server))
            ), at: 10)
        h.tick(10.5)
        let first = h.render()
        expectPanesFramed(first)
        #expect(contains(first, "● unavailable"))
        #expect(contains(first, "attempt 2 in 3.5s (≤ 4 s)"))
        #expect(
            flowed(paneRows(first, Inspector.layout(h.model, size: size).connection)).contains(
                "1006 connection lost (no close frame) — retry after backoff"))
        #expect(line(first, containing: "chat")?.contains("⟳") == true)
        h.tick(10.6)
        #expect(contains(h.render(), "attempt 2 in 3.4s (≤ 4 s)"))
        h.tick(14.5)
        #expect(contains(h.render(), "attempt 2 in 0.0s (≤ 4 s)"))
        // The retry shows in the log too.
        #expect(contains(first, "◆ retry"))
        // Reconnecting clears the countdown.
        h.client(
            .stateChanged(StateChangeRecord(previous: .unavailable, current: .connecting, cause: .retryDue)), at: 14.6)
        #expect(
            !flowed(paneRows(h.render(), Inspector.layout(h.model, size: size).connection)).contains("attempt 2 in"))
    }

    @Test("failed with 4009: meaning, band and the server's reason", arguments: screenSizes)
    func failed4009(size: Size) {
        var h = Harness(size: size)
        h.connectAndSubscribe()
        h.client(
            .stateChanged(
                StateChangeRecord(
                    previous: .connected, current: .failed,
                    cause: .closed(code: 4009, reason: "terminated by the app", by: .server))), at: 5)
        h.client(.error(ErrorReport(code: 4009, message: "unauthorized", reason: "terminated by the app")), at: 5)
        let g = h.render()
        expectPanesFramed(g)
        #expect(contains(g, "● failed"))
        let text = flowed(paneRows(g, Inspector.layout(h.model, size: size).connection))
        #expect(text.contains("4009 unauthorized — refused, no retry — terminated by the app"), "\(text)")
        let row = g.lines.firstIndex { $0.contains("● failed") } ?? 0
        #expect(g[1, row].style.role == .bad)
        #expect(contains(g, "id: 123.456 (previous)"))
        // c is available from failed; d too; x is not.
        #expect(KeyBindings.binding(for: .char("c"), in: .main)?.unavailable(h.model) == nil)
        #expect(KeyBindings.binding(for: .char("x"), in: .main)?.unavailable(h.model) != nil)
    }

    @Test("presence roster: members, own member marked, info shown", arguments: screenSizes)
    func presenceRoster(size: Size) {
        var h = Harness(size: size)
        h.connectAndSubscribe()
        h.roster()
        let g = h.render()
        expectPanesFramed(g)
        let members = Inspector.layout(h.model, size: size).members
        let rows = paneRows(g, members)
        #expect(g.lines[members.y].contains(" 3 ┐"))
        #expect(rows[0].hasPrefix("presence-room"))
        #expect(rows.contains { $0.contains("★ me-1 (you)") })
        #expect(rows.contains { $0.contains("• alice") && $0.contains(#"{"name":"Alice"}"#) })
        #expect(rows.contains { $0.contains("• carol") })
        #expect(!rows.contains { $0.contains("bob") })
        // Sorted by id.
        let order = ["alice", "carol", "me-1"].compactMap { id in rows.firstIndex { $0.contains(id) } }
        #expect(order == order.sorted() && order.count == 3)
    }

    @Test("paused log: frozen, marker counts the events that arrived", arguments: screenSizes)
    func paused(size: Size) {
        var h = Harness(size: size)
        h.connectAndSubscribe()
        h.events(5)
        h.type("p")
        h.events(7, from: 3)
        let g = h.render()
        expectPanesFramed(g)
        #expect(contains(g, "⏸ paused · 7 new events since · G/End follows"))
        #expect(contains(g, "paused"))
        #expect(!contains(g, #""n":6"#), "events after the pause stay hidden")
        #expect(contains(g, #""n":4"#))
        h.press(.end)
        let live = h.render()
        #expect(!contains(live, "⏸ paused"))
        #expect(contains(live, #""n":6"#))
    }

    @Test("filter: only matching entries, count in the border", arguments: screenSizes)
    func filter(size: Size) {
        var h = Harness(size: size)
        h.connectAndSubscribe()
        h.events(4)
        h.client(
            .event(ChannelEventRecord(channel: "private-orders", event: "order-created", data: #"{"id":"A-77"}"#)),
            at: 2)
        h.type("/a-77\n")
        let g = h.render()
        expectPanesFramed(g)
        #expect(h.model.filter == "a-77")
        #expect(contains(g, "filter “a-77” 1/"))
        #expect(contains(g, "order-cr"))
        // The channel's full name first at 80×24; the data keeps its start (Enter shows it whole).
        #expect(contains(g, "private-orders order-"))
        #expect(contains(g, size.width >= 120 ? #"{"id":"A-77"}"# : #"{"id":"A"#))
        #expect(!contains(g, "hello"))
        // Esc in a new filter prompt reverts to the previous filter.
        h.type("/")
        h.press(.ctrl("u"))
        h.type("zzz")
        #expect(h.model.filter == "zzz")
        h.press(.escape)
        #expect(h.model.filter == "a-77")
        // Filtering by channel name matches lifecycle entries too.
        h.type("/")
        h.press(.ctrl("u"))
        h.type("presence-room\n")
        #expect(contains(h.render(), "◆ subscr"))
    }

    @Test("detail view: pretty JSON, secrets redacted, invalid JSON raw", arguments: screenSizes)
    func detail(size: Size) {
        var h = Harness(size: size)
        h.connectAndSubscribe()
        let data =
            #"{"user":{"id":7,"tags":["a","b"]},"auth":"key:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef","n":1.50}"#
        h.client(.event(ChannelEventRecord(channel: "private-orders", event: "order-created", data: data)), at: 2)
        h.press(.enter)
        let g = h.render()
        #expect(contains(g, " Detail "))
        #expect(contains(g, "channel  private-orders"))
        #expect(contains(g, "  \"user\": {"))
        #expect(contains(g, "    \"id\": 7,"))
        #expect(contains(g, "      \"a\","))
        #expect(contains(g, "\"n\": 1.50"))
        #expect(contains(g, "key:<redacted>"))
        #expect(!g.text.contains("0123456789abcdef0123"))
        h.press(.escape)
        #expect(h.model.mode == .normal)

        h.client(.event(ChannelEventRecord(channel: "chat", event: "raw", data: "not {json")), at: 3)
        h.press(.enter)
        let raw = h.render()
        #expect(contains(raw, "not valid JSON — shown raw"))
        #expect(contains(raw, "not {json"))
    }

    @Test("help overlay lists every main key and says why unavailable ones are", arguments: screenSizes)
    func help(size: Size) {
        var h = Harness(size: size, sandbox: false)
        h.client(.stateChanged(StateChangeRecord(previous: .initialized, current: .connecting, cause: .started)), at: 0)
        h.type("?")
        let g = h.render()
        #expect(contains(g, " Help — keys "))
        #expect(contains(g, "Main screen"))
        #expect(contains(g, "unavailable: not attached to a"))
        // Scroll through to see every main binding.
        var seen = Set<String>()
        for _ in 0..<12 {
            let text = h.render().text
            for b in KeyBindings.all where text.contains(String(b.help.prefix(30))) { seen.insert(b.help) }
            for _ in 0..<5 { h.press(.down) }
        }
        for b in KeyBindings.scope(.main) { #expect(seen.contains(b.help), "\(b.keyNames) in help") }
        h.press(.escape)
        #expect(h.model.mode == .normal)
    }

    @Test("a terminal smaller than 60×16 shows one line asking to enlarge it")
    func tooSmall() {
        var h = Harness(size: Size(width: 59, height: 20))
        h.connectAndSubscribe()
        let g = h.render()
        #expect(g.lines[0].hasPrefix("enlarge the window"))
        #expect(g.lines.dropFirst().allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty })
        let ok = Inspector.view(h.model, size: Size(width: 60, height: 16))
        expectPanesFramed(ok)
    }

    @Test("close-code menu shows each band's behaviour and sends the chosen code")
    func closeMenu() {
        var h = Harness()
        h.connectAndSubscribe()
        h.type("k")
        let g = h.render()
        #expect(contains(g, "4009 unauthorized — refused, no retry"))
        #expect(contains(g, "4200 generic reconnect immediately"))
        #expect(contains(g, "4100 over capacity — retry after backoff"))
        h.press(.enter)
        #expect(
            h.commands.last == .closeConnection(connectionId: "123.456", code: 4009, reason: "terminated by the app"))
    }
}
