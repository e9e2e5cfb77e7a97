// What the snapshots revealed, pinned: the Connection pane keeps its timeouts line, names are not
// cut while there is room, and at 80×24 shortened names stay told apart (whole on selection).

import Testing

@testable import BirdInspector

@Suite("Layout that uses the space")
struct LayoutFitTests {
    static let sizes = [Size(width: 80, height: 24), Size(width: 120, height: 40), Size(width: 200, height: 50)]

    @Test("the Connection pane shows its timeouts line at every size (rows grow, or lesser lines go)", arguments: sizes)
    func timeoutsShown(size: Size) {
        let h = SnapshotTests.session(size)
        let text = connectionText(h)
        #expect(text.contains("timeouts: activity 120s · pong 30s"), "\(text)")
        #expect(text.contains("● connected") && text.contains("last close: 4100"), "\(text)")
        expectPanesFramed(h.render())
    }

    @Test("lesser Connection lines go first, whole, in their order")
    func fitOrder() {
        let label = CellStyle(.dim)
        let lines: [[(String, CellStyle)]] = [
            [("● connected", label)], [("cause: ", label), ("x", label)], [("id: ", label), ("1.2", label)],
            [("last close: ", label), ("4100 over", label)], [("            ", label), ("capacity", label)],
            [("rtt: ", label), ("—", label)], [("timeouts: ", label), ("activity", label)],
        ]
        let labels = { (rows: Int) in Inspector.fitConnection(lines, rows: rows).map { $0[0].0 } }
        #expect(labels(7).count == 7)
        #expect(labels(6) == ["● connected", "cause: ", "last close: ", "            ", "rtt: ", "timeouts: "])
        #expect(labels(5) == ["● connected", "cause: ", "last close: ", "            ", "timeouts: "])
        #expect(labels(3) == ["● connected", "cause: "])
    }

    @Test("event columns: names whole when the row holds them; else the channel first; else both shortened")
    func eventColumns() {
        // 200 columns: whole.
        #expect(Inspector.eventColumns(channel: 33, name: 31, data: 40, width: 138) == (33, 31))
        // The channel whole while the event name keeps 8 columns.
        #expect(Inspector.eventColumns(channel: 14, name: 13, data: 30, width: 48) == (14, 11))
        // Neither fits: both shortened, the budget shared.
        #expect(Inspector.eventColumns(channel: 33, name: 31, data: 30, width: 48) == (13, 12))
        // The split keeps the most names whole: many 12-column channels and 13-column names
        // (demo-orders order-updated) beat one long channel.
        let rows = Array(repeating: (channel: 11, name: 13), count: 9) + [(channel: 22, name: 18)]
        #expect(Inspector.eventColumns(channel: 22, name: 18, data: 30, width: 48, rows: rows) == (12, 13))
    }

    @Test("80×24: two long channel names stay told apart in the log and the Channels pane")
    func toldApart() {
        let g = SnapshotTests.session(Size(width: 80, height: 24)).render()
        #expect(contains(g, "presenc…-emea") && contains(g, "presenc…-apac"), "\(g.lines.joined(separator: "\n"))")
        #expect(contains(g, "presence-sup…-emea") && contains(g, "presence-sup…-apac"))
    }

    @Test(
        "the selected log entry shows its names whole: the row its channel, the paused marker both",
        arguments: [Size(width: 80, height: 24), Size(width: 120, height: 40)])
    func wholeOnSelection(size: Size) {
        var h = SnapshotTests.session(size)
        h.model.focus = .events
        // Up to the newest escalation entry.
        while let entry = Inspector.selectedEntry(h.model),
            LogText.name(entry.event) != "ticket-escalated-to-second-line"
        {
            h.press(.up)
        }
        let g = h.render()
        #expect(contains(g, "presence-support-escalations-apac t"), "\(g.lines.joined(separator: "\n"))")
        let marker = "⏸ presence-support-escalations-apac ticket-escalated-to-second-line"
        #expect(
            contains(g, size.width >= 120 ? marker : String(marker.prefix(40))), "\(g.lines.joined(separator: "\n"))")
    }

    @Test("120×40: a long channel name is whole in Channels, its status shortened to its symbol")
    func channelNameWhole() {
        let g = SnapshotTests.session(Size(width: 120, height: 40)).render()
        #expect(contains(g, "pres presence-support-escalations-emea ✓ 3 ev"), "\(g.lines.joined(separator: "\n"))")
    }
}
