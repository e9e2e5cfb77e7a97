// `--record` is visible: `● REC path (N)` on the Events pane's border, N the lines written.

import Foundation
import Testing

@testable import BirdInspector

@Suite("Recording indicator")
struct RecordingIndicatorTests {
    @Test("● REC path (N) while recording, N following the driver's count", arguments: screenSizes)
    func shown(size: Size) {
        var h = Harness(size: size)
        h.model.recording = RecordingStatus(path: "session.jsonl", lines: 1)
        h.connectAndSubscribe()
        let rect = Inspector.layout(h.model, size: size).events
        let border = { (g: Grid) in g.lines[rect.y + rect.height - 1] }
        #expect(border(h.render()).contains("● REC session.jsonl (1)"), "\(border(h.render()))")
        _ = Inspector.update(&h.model, .recorded(lines: 1234))
        let g = h.render()
        #expect(border(g).contains("● REC session.jsonl (1234)"), "\(border(g))")
        let x = border(g).distance(from: border(g).startIndex, to: border(g).range(of: "●")!.lowerBound)
        #expect(g[x, rect.y + rect.height - 1].style.role == .bad)
        expectPanesFramed(g)
    }

    @Test("a long path keeps its file name; nothing is shown when not recording")
    func longPathAndAbsent() {
        var h = Harness(size: Size(width: 80, height: 24))
        h.connectAndSubscribe()
        #expect(!h.render().lines.contains { $0.contains("REC") })
        h.model.recording = RecordingStatus(
            path: "/very/long/directory/name/that/goes/on/and/on/session-2026.jsonl", lines: 7)
        let rect = Inspector.layout(h.model, size: h.model.size).events
        let line = h.render().lines[rect.y + rect.height - 1]
        #expect(line.contains("● REC …"), "\(line)")
        #expect(line.contains("session-2026.jsonl (7)"), "\(line)")
        #expect(line.hasSuffix("┘"), "the border's corner stays: \(line)")
    }
}

@Suite("Sent client events")
struct SentEventTests {
    @Test(
        "a sent client event is counted on its channel, said in the footer and its row stands out",
        arguments: screenSizes)
    func sent(size: Size) throws {
        var h = Harness(size: size)
        h.connectAndSubscribe()
        h.events(3, channel: "private-orders")
        let before = try #require(h.model.channels.first { $0.name == "private-orders" }).events
        h.client(.sent(channel: "private-orders", event: "client-ping", data: #"{"at":1}"#), at: 7)
        let after = try #require(h.model.channels.first { $0.name == "private-orders" })
        #expect(after.events == before + 1)
        #expect(after.sent == 1)
        let g = h.render()
        #expect(g.lines[size.height - 1].contains("sent client-ping on private-orders"))
        let row = try #require(
            g.lines.firstIndex { $0.contains("private-orders → client-") }, "\(g.lines.joined(separator: "\n"))")
        // Time, channel, name and data all in the sent colour, bold — unlike a received event's row.
        let inner = Inspector.layout(h.model, size: size).events.inner
        #expect(g[inner.x, row].style.role == .sent && g[inner.x, row].style.bold)
        let received = try #require(g.lines.firstIndex { $0.contains("private-orders") && $0.contains("message") })
        #expect(g[inner.x, received].style.role != .sent)
        if size.width >= 200 {
            #expect(contains(g, "(1 sent)"), "the Channels pane says how many were sent")
        }
    }
}

@Suite("Columns not cut while there is room")
struct ColumnTests {
    @Test("80×24: two presence channels are told apart in the event log (full channel names)")
    func fullChannelNames() {
        var h = Harness(size: Size(width: 80, height: 24))
        h.connectAndSubscribe()
        h.type(":subscribe presence-room2\n")
        h.client(.subscribed(channel: "presence-room2"), at: 6.5)
        h.client(
            .event(ChannelEventRecord(channel: "presence-room", event: "client-typing", data: #"{"typing":true}"#)),
            at: 7)
        h.client(
            .event(ChannelEventRecord(channel: "presence-room2", event: "client-typing", data: #"{"typing":true}"#)),
            at: 7.1)
        h.tick(20)
        let g = h.render()
        #expect(contains(g, "presence-room  client-typ"), "\(g.lines.joined(separator: "\n"))")
        #expect(contains(g, "presence-room2 client-typ"), "\(g.lines.joined(separator: "\n"))")
    }

    @Test(
        "a wide Channels pane shows status and every count whole",
        arguments: [Size(width: 140, height: 40), Size(width: 200, height: 50)])
    func channelsWhole(size: Size) {
        var h = Harness(size: size)
        h.connectAndSubscribe()
        h.roster()
        h.client(.connectionCount(channel: "presence-room", count: 1), at: 1)
        h.events(16, channel: "presence-room")
        let rows = paneRows(h.render(), Inspector.layout(h.model, size: size).channels)
        let row = rows.first { $0.contains("presence-room") } ?? ""
        #expect(row.contains("✓ subscribed 16 ev · 3 mem · 1 conn"), "\(row)")
        #expect(!row.contains("…"), "\(row)")
    }
}
