// The inspector's inbox (InboxQueue): bounded in entries and bytes, drops only channel events and
// their wire lines, and reports every drop in the stream where it happened.

import Foundation
import Testing

@testable import BirdInspector

@Suite("Inbox: bounded, and never silent about what it drops")
struct InboxQueueTests {
    typealias Queue = InboxQueue<String>

    /// The elements as text: items as themselves, drops as "dropped N/W".
    func texts(_ elements: [Queue.Element]) -> [String] {
        elements.map {
            switch $0 {
            case .item(let s): return s
            case .dropped(let count, let wire, _): return "dropped \(count)/\(wire)"
            }
        }
    }

    @Test("over the entry bound, events are dropped and counted where they happened; kept items never are")
    func entryBound() {
        var q = Queue(limits: InboxLimits(entries: 3, bytes: 1 << 20))
        for i in 0..<5 { q.post("e\(i)", kind: .event, bytes: 10, at: t0) }
        q.post("state", kind: .keep, bytes: 0, at: t0)
        q.post("e5", kind: .event, bytes: 10, at: t0)
        q.post("w0", kind: .wire, bytes: 10, at: t0)
        #expect(q.droppableCount == 3 && q.totalDropped == 4)
        #expect(texts(q.take(limit: 100)) == ["e0", "e1", "e2", "dropped 2/0", "state", "dropped 1/1"])
        #expect(q.count == 0)
        // Room again once the loop has caught up.
        q.post("e6", kind: .event, bytes: 10, at: t0)
        #expect(texts(q.take(limit: 100)) == ["e6"])
    }

    @Test("the byte bound counts the droppable items' text")
    func byteBound() {
        var q = Queue(limits: InboxLimits(entries: 1000, bytes: 100))
        let big = q.post("big", kind: .event, bytes: 90, at: t0)
        let next = q.post("next", kind: .event, bytes: 20, at: t0)
        let small = q.post("small", kind: .event, bytes: 10, at: t0)
        #expect(big && !next)
        #expect(small, "10 more bytes still fit")
        #expect(texts(q.take(limit: 10)) == ["big", "dropped 1/0", "small"])
        #expect(q.droppableBytes == 0)
    }

    @Test("deciding before the item is made: a full queue counts the drop in the same run as post's drops")
    func dropBeforeMaking() {
        var q = Queue(limits: InboxLimits(entries: 2, bytes: 1 << 20))
        let roomy = q.dropIfFull(kind: .event, bytes: 10, at: t0)
        #expect(!roomy && q.totalDropped == 0 && q.count == 0, "room: nothing is counted")
        q.post("e0", kind: .event, bytes: 10, at: t0)
        q.post("e1", kind: .event, bytes: 10, at: t0)
        var asked = 0
        func at(_ seconds: Double) -> Date {
            asked += 1
            return t0.addingTimeInterval(seconds)
        }
        let first = q.dropIfFull(kind: .event, bytes: 10, at: at(5))
        q.post("e2", kind: .event, bytes: 10, at: t0.addingTimeInterval(6))
        let wire = q.dropIfFull(kind: .wire, bytes: 10, at: at(7))
        let kept = q.dropIfFull(kind: .keep, bytes: 10, at: t0)
        #expect(first && wire)
        #expect(asked == 1, "the time is read once, when the run of drops begins")
        #expect(!kept, "what is never dropped is never counted")
        #expect(q.totalDropped == 3)
        let out = q.take(limit: 10)
        #expect(texts(out) == ["e0", "e1", "dropped 2/1"])
        if case .dropped(_, _, let since)? = out.last { #expect(since == t0.addingTimeInterval(5)) }
        let again = q.dropIfFull(kind: .event, bytes: 10, at: t0)
        #expect(!again, "room again once the loop has caught up")
    }

    @Test("a drop still open when the loop catches up comes out at the end, with the time it began")
    func openSpell() {
        var q = Queue(limits: InboxLimits(entries: 1, bytes: 1 << 20))
        q.post("a", kind: .event, bytes: 1, at: t0)
        q.post("b", kind: .event, bytes: 1, at: t0.addingTimeInterval(2))
        q.post("c", kind: .wire, bytes: 1, at: t0.addingTimeInterval(3))
        #expect(q.count == 2)
        let out = q.take(limit: 1)
        #expect(texts(out) == ["a"], "a partial take leaves the drop after the items before it")
        let rest = q.take(limit: 10)
        guard case .dropped(let count, let wire, let since)? = rest.first else {
            Issue.record("no dropped element: \(texts(rest))")
            return
        }
        #expect(count == 1 && wire == 1 && since == t0.addingTimeInterval(2))
    }

    @Test("memory stays bounded under a flood: 1,000,000 events into a 50,000-entry queue")
    func flood() {
        var q = Queue()
        for i in 0..<1_000_000 { q.post("e", kind: .event, bytes: 100, at: t0.addingTimeInterval(Double(i) / 1e5)) }
        #expect(q.droppableCount == InboxLimits.standard.entries)
        #expect(q.count == InboxLimits.standard.entries + 1)
        let all = q.take(limit: Int.max)
        var kept = 0, dropped = 0
        for e in all {
            switch e {
            case .item: kept += 1
            case .dropped(let n, _, _): dropped += n
            }
        }
        #expect(kept + dropped == 1_000_000)
    }

    @Test(
        "only channel events' wire texts may be dropped: protocol messages are kept",
        arguments: [
            (#"{"event":"order-updated","channel":"a","data":"{}"}"#, true),
            (#"{"channel":"p","event":"client-typing","data":{}}"#, true),
            (#"{"event":"bird:connection_established","data":"{}"}"#, false),
            (#"{"event":"pusher_internal:subscription_succeeded","channel":"p"}"#, false),
            (#"{"event":"bird:ping"}"#, false),
            ("<binary message, 3 bytes>", false),
            (#"{"event":"#, false),
        ])
    func wireKinds(text: String, droppable: Bool) {
        #expect(WireTextKind.isChannelEvent(text) == droppable)
    }

    @Test("a dropped line shows on screen and in JSONL")
    func droppedLine() throws {
        var h = Harness(size: Size(width: 120, height: 30))
        h.connectAndSubscribe()
        h.client(.dropped(count: 12_345, wire: 0, since: t0.addingTimeInterval(7)), at: 8)
        let text = flowed(paneRows(h.render(), Inspector.layout(h.model, size: h.model.size).connection))
        #expect(text.contains("dropped 12,345 events (inspector fell behind)"), "\(text)")
        #expect(contains(h.render(), "✗ dropped"))
        let line = JSONLines.line(.dropped(count: 12_345, wire: 4, since: t0), at: t0)
        #expect(
            line
                == #"{"ts":"2023-11-14T22:13:20.000Z","type":"dropped","count":12345,"wire":4,"since":"2023-11-14T22:13:20.000Z"}"#
        )
    }
}
