// The mouse: clicks focus a pane and select the entry drawn under them; the wheel scrolls the pane
// under the pointer. Coordinates are checked against the grid the view drew.

import Foundation
import Testing

@testable import BirdInspector

@Suite("Mouse")
struct MouseTests {
    /// The row (screen y) inside `rect` whose text contains `text`.
    func row(_ h: Harness, _ rect: Rect, containing text: String, sourceLocation: SourceLocation = #_sourceLocation)
        -> Int?
    {
        let rows = paneRows(h.render(), rect)
        guard let i = rows.firstIndex(where: { $0.contains(text) }) else {
            Issue.record("no row with \(text) in \(rows)", sourceLocation: sourceLocation)
            return nil
        }
        return rect.inner.y + i
    }

    func click(_ h: inout Harness, _ x: Int, _ y: Int, _ kind: MouseKind = .click) {
        h.commands += Inspector.update(&h.model, .mouse(x: x, y: y, kind: kind))
    }

    @Test(
        "every cell of a pane hits that pane; the footer hits none",
        arguments: screenSizes + [Size(width: 120, height: 40)])
    func hitTesting(size: Size) {
        var h = Harness(size: size)
        h.connectAndSubscribe()
        let layout = Inspector.layout(h.model, size: size)
        for pane in Pane.allCases {
            let r = layout.rect(pane)
            for (x, y) in [
                (r.x, r.y), (r.x + r.width - 1, r.y + r.height - 1), (r.x + r.width / 2, r.y + r.height / 2),
            ] {
                #expect(Inspector.pane(at: x, y, h.model) == pane, "\(pane) at \(x),\(y)")
            }
        }
        #expect(Inspector.pane(at: 3, size.height - 1, h.model) == nil)
        #expect(Inspector.pane(at: size.width, 0, h.model) == nil)
        #expect(Inspector.pane(at: -1, 0, h.model) == nil)
    }

    @Test("a click on a channel row focuses Channels and selects the channel drawn there", arguments: screenSizes)
    func clickChannel(size: Size) throws {
        var h = Harness(size: size)
        h.connectAndSubscribe()
        h.commands = []
        h.model.selectedChannel = 0
        #expect(h.model.focus == .events)
        let rect = Inspector.layout(h.model, size: size).channels
        let y = try #require(row(h, rect, containing: "private-orders"))
        click(&h, rect.x + 3, y)
        #expect(h.model.focus == .channels)
        #expect(h.model.currentChannel?.name == "private-orders")
        // The border row and the empty rows under the channels only focus.
        click(&h, rect.x + 3, rect.y)
        click(&h, rect.x + 3, rect.y + rect.height - 2)
        #expect(h.model.currentChannel?.name == "private-orders")
        #expect(h.commands.isEmpty)
    }

    @Test(
        "a click on a log row selects that entry (the log pauses) and it stays drawn selected", arguments: screenSizes)
    func clickEvent(size: Size) throws {
        var h = Harness(size: size)
        h.connectAndSubscribe()
        h.events(5)
        h.model.focus = .connection
        let rect = Inspector.layout(h.model, size: size).events
        let y = try #require(row(h, rect, containing: #""n":2"#))
        click(&h, rect.x + 20, y)
        #expect(h.model.focus == .events)
        #expect(h.model.paused)
        let selected = try #require(Inspector.selectedEntry(h.model))
        #expect(LogText.summary(selected.event).contains(#""n":2"#))
        // The drawn selection (reverse video) is on the row holding that entry.
        let grid = h.render()
        let shown = try #require(row(h, rect, containing: #""n":2"#))
        #expect(grid[rect.inner.x + 30, shown].style.reverse)
    }

    @Test("a click on the top log row of a full page keeps every row in place (the marker takes the newest's)")
    func clickKeepsRows() throws {
        var h = Harness(size: Size(width: 80, height: 24))
        h.connectAndSubscribe()
        h.events(30)
        let rect = Inspector.layout(h.model, size: h.model.size).events
        let before = paneRows(h.render(), rect)
        click(&h, rect.x + 20, rect.inner.y)
        let after = paneRows(h.render(), rect)
        #expect(Array(after.dropLast()) == Array(before.dropLast()), "\(before)\n\(after)")
        #expect(after.last?.contains("⏸ paused · 1 new event since") == true, "\(after)")
        #expect(h.model.selectedSeq == h.model.log.lastSeq - rect.inner.height + 1)
    }

    @Test("the wheel scrolls the pane under the pointer, three rows a step, without moving the focus")
    func wheel() throws {
        var h = Harness(size: Size(width: 120, height: 40))
        h.connectAndSubscribe()
        h.events(20)
        let layout = Inspector.layout(h.model, size: h.model.size)
        let newest = h.model.log.lastSeq
        click(&h, layout.events.x + 5, layout.events.y + 3, .wheelUp)
        #expect(h.model.paused)
        #expect(h.model.selectedSeq == newest - 3)
        click(&h, layout.events.x + 5, layout.events.y + 3, .wheelDown)
        #expect(h.model.selectedSeq == newest)
        // Over Channels: the channel selection moves, clamped; the focus stays on Events.
        h.model.selectedChannel = 0
        click(&h, layout.channels.x + 5, layout.channels.y + 1, .wheelDown)
        #expect(h.model.selectedChannel == 2)
        #expect(h.model.focus == .events)
        click(&h, layout.channels.x + 5, layout.channels.y + 1, .wheelUp)
        #expect(h.model.selectedChannel == 0)
        // Over Members: the roster scrolls, never past its last member.
        h.roster()
        click(&h, layout.members.x + 5, layout.members.y + 3, .wheelDown)
        #expect(h.model.membersScroll == 2)
        click(&h, layout.members.x + 5, layout.members.y + 3, .wheelUp)
        #expect(h.model.membersScroll == 0)
    }

    @Test("over an open help overlay the wheel scrolls it and a click does nothing; the footer ignores clicks")
    func overlays() {
        var h = Harness()
        h.connectAndSubscribe()
        h.type("?")
        click(&h, 10, 10, .wheelDown)
        #expect(h.model.mode == .help(scroll: 3))
        click(&h, 10, 10)
        #expect(h.model.mode == .help(scroll: 3))
        h.press(.escape)
        let focus = h.model.focus
        click(&h, 10, 23)
        #expect(h.model.focus == focus)
        #expect(h.model.mode == .normal)
    }
}
