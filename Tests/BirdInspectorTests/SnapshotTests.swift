// Snapshot tests (issue 17 item 4): the whole screen of one fixed session at 80×24, 120×40 and
// 200×50, compared with golden text files in Snapshots/. Any change to the layout fails with a
// line diff; `BIRD_UPDATE_SNAPSHOTS=1 swift test --filter Snapshot` rewrites the files (then read
// the diff in git before committing them; CONTRIBUTING.md § Snapshots).

import BirdRealtime
import Foundation
import Testing

@testable import BirdInspector

@Suite("Snapshots")
struct SnapshotTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Snapshots")

    /// A fixed session: connected, the demo channels and two with long names, a presence roster,
    /// events with long channel and event names, a sent client event, a signed-in member, round
    /// trips, and a 4100 close with its backoff and reconnect.
    static func session(_ size: Size) -> Harness {
        var h = Harness(size: size)
        h.model.config.edgeNote = "embedded sandbox"
        h.model.config.networkNote = "not monitored (loopback edge)"
        h.client(.stateChanged(StateChangeRecord(previous: .initialized, current: .connecting, cause: .started)), at: 0)
        h.client(
            .stateChanged(
                StateChangeRecord(
                    previous: .connecting, current: .connected, cause: .handshake, connectionId: "4821.9931",
                    activityTimeout: .seconds(120))), at: 0.2)
        let channels = [
            "demo-orders", "private-demo", "presence-demo", "private-encrypted-demo",
            "presence-support-escalations-emea", "presence-support-escalations-apac",
        ]
        for ch in channels {
            h.type(":subscribe \(ch)\n")
            h.client(.subscribed(channel: ch), at: 0.3)
        }
        h.client(
            .membersSnapshot(
                channel: "presence-demo",
                members: [
                    PresenceMember(id: "alice", info: #"{"name":"Alice"}"#),
                    PresenceMember(id: "bob", info: #"{"name":"Bob"}"#),
                    PresenceMember(id: "inspector", info: #"{"name":"inspector"}"#),
                ], myId: "inspector"), at: 0.35)
        h.client(.signinSucceeded(memberId: "inspector", info: nil), at: 0.4)
        h.client(.roundTrip(.microseconds(412)), at: 0.5)
        h.client(.roundTrip(.microseconds(1210)), at: 0.6)
        var t = 1.0
        for i in 0..<6 {
            h.client(
                .event(
                    ChannelEventRecord(
                        channel: "demo-orders", event: "order-created",
                        data: #"{"id":\#(1000 + i),"total":"\#(12 + i).50","currency":"EUR"}"#)), at: t)
            t += 0.25
            h.client(
                .event(
                    ChannelEventRecord(
                        channel: i % 2 == 0 ? "presence-support-escalations-emea" : "presence-support-escalations-apac",
                        event: "ticket-escalated-to-second-line", data: #"{"ticket":\#(77 + i),"priority":"high"}"#)),
                at: t)
            t += 0.25
        }
        h.client(.sent(channel: "presence-demo", event: "client-typing", data: #"{"typing":true}"#), at: t)
        h.client(
            .stateChanged(
                StateChangeRecord(
                    previous: .connected, current: .unavailable,
                    cause: .closed(code: 4100, reason: "over capacity", by: .server))), at: t + 0.5)
        h.client(.retryScheduled(RetryRecord(delay: .milliseconds(1400), attempt: 0)), at: t + 0.5)
        h.client(
            .stateChanged(StateChangeRecord(previous: .unavailable, current: .connecting, cause: .retryDue)),
            at: t + 1.9)
        h.client(
            .stateChanged(
                StateChangeRecord(
                    previous: .connecting, current: .connected, cause: .handshake, connectionId: "4821.9932",
                    activityTimeout: .seconds(120))), at: t + 2)
        for ch in channels { h.client(.subscribed(channel: ch), at: t + 2.1) }
        h.client(
            .event(
                ChannelEventRecord(
                    channel: "private-encrypted-demo", event: "payment-authorised", data: #"{"amount":"42.00"}"#)),
            at: t + 2.2)
        h.tick(t + 9)  // footer messages expire
        h.model.selectedChannel = h.model.channelIndex("presence-demo") ?? 0
        return h
    }

    /// The screen as text, one line per row, trailing spaces kept off.
    static func text(_ grid: Grid) -> String {
        grid.lines.map { String($0.reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n") + "\n"
    }

    @Test("the screen matches its golden file", arguments: [(80, 24), (120, 40), (200, 50)])
    func matches(width: Int, height: Int) throws {
        let size = Size(width: width, height: height)
        let actual = Self.text(Self.session(size).render())
        let file = Self.directory.appendingPathComponent("\(width)x\(height).txt")
        if ProcessInfo.processInfo.environment["BIRD_UPDATE_SNAPSHOTS"] == "1" {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            try actual.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record("no golden file \(file.path): run BIRD_UPDATE_SNAPSHOTS=1 swift test --filter Snapshot")
            return
        }
        if actual != expected {
            let diff = Self.diff(expected, actual)
            Issue.record(
                "\(width)×\(height) differs from \(file.lastPathComponent) (- golden, + now; BIRD_UPDATE_SNAPSHOTS=1 rewrites):\n\(diff)"
            )
        }
    }

    /// Rows that differ, as `-` (golden) and `+` (now) pairs with their row numbers.
    static func diff(_ old: String, _ new: String) -> String {
        let a = old.split(separator: "\n", omittingEmptySubsequences: false)
        let b = new.split(separator: "\n", omittingEmptySubsequences: false)
        var out: [String] = []
        for i in 0..<max(a.count, b.count) {
            let x = i < a.count ? String(a[i]) : nil
            let y = i < b.count ? String(b[i]) : nil
            if x != y {
                if let x { out.append(Self.row(i) + " - " + x) }
                if let y { out.append(Self.row(i) + " + " + y) }
            }
        }
        return out.joined(separator: "\n")
    }

    /// Row number `i + 1`, right-aligned in 3 columns.
    static func row(_ i: Int) -> String {
        let n = String(i + 1)
        return String(repeating: " ", count: max(0, 3 - n.count)) + n
    }

    @Test("the diff names the rows that changed")
    func diffShowsRows() {
        #expect(Self.diff("a\nb\nc", "a\nB\nc") == "  2 - b\n  2 + B")
    }
}
