// Issue 15 item 2 in the inspector: each event's offset and each (re)subscription's continuity,
// from the library's values through `ClientFeed` and `update` to the screen, the JSON lines and
// recordings — a gap or a recovery said where it happened, nothing misleading in the Pusher dialect.

import BirdRecording
import Foundation
import Testing

@testable import BirdInspector
@testable import BirdRealtime

@Suite("Continuity in the inspector (issue 15)")
struct ContinuityViewTests {
    static let epoch = "e9f1"

    /// An app event on `channel` at `offset`, as the library delivers it.
    static func event(_ offset: Int, channel: String = "chat", epoch: String = epoch) -> ChannelEvent {
        var e = ChannelEvent(channel: channel, name: "order", payload: EventPayload(text: #"{"n":\#(offset)}"#))
        e.offset = offset
        e.epoch = epoch
        return e
    }

    /// A `bird:subscription_succeeded` with the library's continuity.
    static func subscribed(_ continuity: ChannelContinuity?, channel: String = "chat") -> ChannelEvent {
        var e = ChannelEvent(channel: channel, name: BirdProtocol.Event.subscriptionSucceeded, data: .object([:]))
        e.continuity = continuity
        return e
    }

    /// Maps events as LiveSession does (positions followed in delivery order) and feeds them to `h`.
    static func feed(
        _ events: [ChannelEvent], _ positions: inout ResumePositions, _ h: inout Harness?, at seconds: Double = 8
    )
        -> [ClientEvent]
    {
        var out: [ClientEvent] = []
        for e in events {
            let after = positions.observe(e)
            for mapped in ClientFeed.events(e, roster: nil, resumedAfter: after) {
                out.append(mapped)
                h?.client(mapped, at: seconds)
            }
        }
        return out
    }

    @Test("an app event keeps its offset; one without (Pusher, client events) has none")
    func eventOffset() {
        #expect(
            ClientFeed.events(Self.event(42), roster: nil)
                == [.event(ChannelEventRecord(channel: "chat", event: "order", data: #"{"n":42}"#, offset: 42))])
        let plain = ChannelEvent(channel: "chat", name: "order", payload: EventPayload(text: "{}"))
        guard case .event(let record)? = ClientFeed.events(plain, roster: nil).first else {
            Issue.record("no event")
            return
        }
        #expect(record.offset == nil)
    }

    @Test("each subscription's continuity, with the position it resumed after, as the library's rule moves it")
    func resumePositions() {
        var positions = ResumePositions()
        var none: Harness? = nil
        let mapped = Self.feed(
            [
                Self.subscribed(.fresh), Self.event(1), Self.event(5),
                Self.subscribed(.recovered), Self.event(6), Self.event(8),
                Self.subscribed(.missed(37)),  // the edge replays from 46 on
                Self.subscribed(.missed(2)),  // before any replay: resumed after 8 + 37
                Self.subscribed(.unknown(.epochChanged)),  // resumed after 47, then nothing is known
                Self.subscribed(.unknown(.notAnswered)),
            ], &positions, &none)
        let subs = mapped.compactMap { event -> ContinuityRecord?? in
            if case .subscribed(_, let c) = event { return .some(c) }
            return nil
        }
        #expect(
            subs == [
                ContinuityRecord(outcome: .fresh),
                ContinuityRecord(outcome: .recovered, missed: 0, offset: 5, epoch: Self.epoch),
                ContinuityRecord(outcome: .missed, missed: 37, offset: 8, epoch: Self.epoch),
                ContinuityRecord(outcome: .missed, missed: 2, offset: 45, epoch: Self.epoch),
                ContinuityRecord(outcome: .unknown, reason: "epoch changed", offset: 47, epoch: Self.epoch),
                ContinuityRecord(outcome: .unknown, reason: "not answered"),
            ])
        // A subscription the library said nothing about (no record) carries no continuity.
        #expect(ClientFeed.events(Self.subscribed(nil), roster: nil) == [.subscribed(channel: "chat", continuity: nil)])
    }

    /// A harness whose `chat` was subscribed fresh, got events 1041 and 1042 (Bird dialect),
    /// then was subscribed again with `continuity`.
    func resubscribed(_ continuity: ChannelContinuity, size: Size, dialect: String = "bird") -> Harness {
        var h: Harness? = Harness(size: size)
        h?.model.config.dialect = dialect
        h?.connectAndSubscribe()
        var positions = ResumePositions()
        _ = positions.observe(Self.subscribed(.fresh))  // as connectAndSubscribe's chat
        _ = Self.feed(dialect == "bird" ? [Self.event(1041), Self.event(1042)] : [], &positions, &h, at: 7)
        _ = Self.feed([Self.subscribed(continuity)], &positions, &h, at: 8)
        h?.tick(9)
        return h ?? Harness(size: size)
    }

    @Test(
        "recovered: the log says nothing was missed and where it resumed; the Channels row shows @offset ↻",
        arguments: screenSizes)
    func recovered(size: Size) {
        let h = resubscribed(.recovered, size: size)
        let g = h.render()
        let channels = paneRows(g, drawnLayout(g).channels)
        let row = channels.first { $0.contains("chat") } ?? ""
        #expect(row.contains("@1042") && row.contains("↻"), "\(channels)")
        let events = paneRows(g, drawnLayout(g).events)
        // At 80 columns the data column may be cut to its 8-column minimum (Enter shows it whole).
        #expect(events.contains { $0.contains("↻ resumed") && $0.contains("recov") }, "\(events)")
        if size.width >= 200 {
            #expect(
                events.contains { $0.contains("recovered: nothing missed while reconnecting (resumed after @1042)") },
                "\(events)")
        }
        #expect(h.model.channels.first { $0.name == "chat" }?.lastOffset == 1042)
    }

    @Test(
        "missed: a gap marker with the exact count in the log (warn), and ✗N missed on the Channels row",
        arguments: screenSizes)
    func missed(size: Size) {
        var h = resubscribed(.missed(37), size: size)
        // A connection count (wide screens) comes after the stream, so the half row keeps the gap.
        h.client(.connectionCount(channel: "chat", count: 3), at: 9)
        let g = h.render()
        let channels = paneRows(g, drawnLayout(g).channels)
        let row = channels.first { $0.contains("chat") } ?? ""
        let wide = drawnLayout(g).channels.inner.width >= 48
        #expect(row.contains(wide ? "@1042 ✗37 missed" : "@1042−37"), "\(channels)")
        let events = paneRows(g, drawnLayout(g).events)
        #expect(events.contains { $0.contains("✗ gap") && $0.contains("37 event") }, "\(events)")
        #expect(
            h.model.log[h.model.log.count - 2].summary == "37 events missed while reconnecting (resumed after @1042)")
        #expect(LogText.role(h.model.log[h.model.log.count - 2].event) == .warn)
        // The replay moves the offset on.
        var positions = ResumePositions()
        var some: Harness? = h
        _ = Self.feed([Self.event(1080)], &positions, &some, at: 10)
        h = some ?? h
        let g2 = h.render()
        #expect(paneRows(g2, drawnLayout(g2).channels).first { $0.contains("chat") }?.contains("@1080") == true)
    }

    @Test(
        "epoch changed: continuity unknown (edge restarted) in the log and on the selected channel's line",
        arguments: screenSizes)
    func epochChanged(size: Size) {
        var h = resubscribed(.unknown(.epochChanged), size: size)
        h.model.selectedChannel = h.model.channels.firstIndex { $0.name == "chat" } ?? 0
        let g = h.render()
        #expect(
            h.model.log[h.model.log.count - 1].summary
                == "continuity unknown (edge restarted): events may have been missed")
        let channels = paneRows(g, drawnLayout(g).channels)
        #expect(channels.first { $0.contains("chat") }?.contains("?") == true, "\(channels)")
        #expect(channels.contains { $0.hasPrefix("? continuity unknown (edge") }, "\(channels)")
        if size.width >= 200 {
            #expect(
                channels.contains { $0.contains("? continuity unknown (edge restarted): may have gaps") },
                "\(channels)")
        }
    }

    @Test(
        "Pusher dialect: a resubscription logs a plain success (no alarm on every reconnect); the selected channel says once why",
        arguments: screenSizes)
    func pusher(size: Size) {
        var h = resubscribed(.unknown(.notSupported), size: size, dialect: "pusher")
        let last = h.model.log[h.model.log.count - 1]
        #expect(last.summary == "subscription succeeded" && LogText.name(last.event) == "◆ subscribed")
        #expect(LogText.role(last.event) == .info)
        h.model.selectedChannel = h.model.channels.firstIndex { $0.name == "chat" } ?? 0
        let g3 = h.render()
        let channels = paneRows(g3, drawnLayout(g3).channels)
        #expect(channels.first { $0.contains("chat") }?.contains("?") == false, "\(channels)")
        #expect(channels.contains { $0.hasPrefix("continuity unknown: this e") }, "\(channels)")
        if size.width >= 200 {
            #expect(
                channels.contains { $0.contains("continuity unknown: this edge replays nothing") },
                "\(channels)")
        }
        // A fresh subscription says nothing at all.
        let fresh = Harness(size: size)
        #expect(ContinuityText.marker(ContinuityRecord(outcome: .fresh)) == nil && fresh.model.channels.isEmpty)
    }

    @Test("JSONL: event lines carry offset; subscribed lines continuity, missed, reason, offset, epoch — and read back")
    func jsonLines() {
        let cases: [(ClientEvent, String)] = [
            (
                .event(ChannelEventRecord(channel: "chat", event: "order", data: #"{"n":7}"#, offset: 7)),
                #"{"type":"event","channel":"chat","event":"order","offset":7,"data":{"n":7}}"#
            ),
            (
                .subscribed(
                    channel: "chat",
                    continuity: ContinuityRecord(outcome: .missed, missed: 37, offset: 8, epoch: "e9f1")),
                #"{"type":"subscribed","channel":"chat","continuity":"missed","missed":37,"offset":8,"epoch":"e9f1"}"#
            ),
            (
                .subscribed(
                    channel: "chat",
                    continuity: ContinuityRecord(outcome: .recovered, missed: 0, offset: 5, epoch: "e9f1")),
                #"{"type":"subscribed","channel":"chat","continuity":"recovered","missed":0,"offset":5,"epoch":"e9f1"}"#
            ),
            (
                .subscribed(channel: "chat", continuity: ContinuityRecord(outcome: .unknown, reason: "epoch changed")),
                #"{"type":"subscribed","channel":"chat","continuity":"unknown","reason":"epoch changed"}"#
            ),
            (
                .subscribed(channel: "chat", continuity: ContinuityRecord(outcome: .fresh)),
                #"{"type":"subscribed","channel":"chat","continuity":"fresh"}"#
            ),
            (.subscribed(channel: "chat"), #"{"type":"subscribed","channel":"chat"}"#),
        ]
        for (event, body) in cases {
            #expect(JSONLines.body(event) == body)
            #expect(JSONLines.decode(line: JSONLines.line(event, at: t0)) == event, "\(body)")
        }
        // Bad values are dropped, not trusted; an outcome this version does not know is no continuity.
        #expect(
            JSONLines.decode(
                line: #"{"type":"subscribed","channel":"c","continuity":"missed","missed":-3,"offset":-1}"#)
                == .subscribed(channel: "c", continuity: ContinuityRecord(outcome: .missed)))
        #expect(
            JSONLines.decode(line: #"{"type":"subscribed","channel":"c","continuity":"rewound"}"#)
                == .subscribed(channel: "c", continuity: nil))
        #expect(
            JSONLines.decode(line: #"{"type":"event","channel":"c","event":"e","offset":-2,"data":null}"#)
                == .event(ChannelEventRecord(channel: "c", event: "e")))
    }

    @Test("a recording keeps offsets and continuity: played back, the Channels row and the log say the same")
    func recording() throws {
        let events: [ClientEvent] = [
            .subscribed(channel: "chat", continuity: ContinuityRecord(outcome: .fresh)),
            .event(ChannelEventRecord(channel: "chat", event: "order", data: "{}", offset: 12)),
            .subscribed(
                channel: "chat",
                continuity: ContinuityRecord(outcome: .missed, missed: 1500 - 1000, offset: 12, epoch: "e")),
            .event(ChannelEventRecord(channel: "chat", event: "order", data: "{}", offset: 513)),
        ]
        let lines = events.enumerated().map { i, e in
            JSONLines.line(e, at: t0.addingTimeInterval(Double(i)), monoMs: Double(i) * 1000)
        }
        let r = try PlaybackRecording(text: ([sampleHeader] + lines).joined(separator: "\n") + "\n")
        #expect(r.problems.isEmpty)
        #expect(r.entries.compactMap(\.event) == events)
        var h = Harness(size: Size(width: 200, height: 50))
        for (i, e) in r.entries.compactMap(\.event).enumerated() { h.client(e, at: Double(i)) }
        let g4 = h.render()
        let row = paneRows(g4, drawnLayout(g4).channels).first { $0.contains("chat") } ?? ""
        #expect(row.contains("✓ 2 ev · @513 ✗500 missed"), "\(row)")
    }
}
