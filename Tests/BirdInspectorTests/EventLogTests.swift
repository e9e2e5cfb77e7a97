// The ring buffer: bounded by entries and by bytes, sequence numbers survive eviction.

import Foundation
import Testing

@testable import BirdInspector

@Suite("Event log ring buffer")
struct EventLogTests {
    func event(_ i: Int, size: Int = 10) -> ClientEvent {
        .event(ChannelEventRecord(channel: "c", event: "e", data: String(repeating: "x", count: size) + "\(i)"))
    }

    @Test("bounded by entries: keeps the newest, in order")
    func entryBound() {
        var log = EventLog(maxEntries: 100)
        for i in 0..<1234 { log.append(event(i), at: t0) }
        #expect(log.count == 100)
        #expect(log.lastSeq == 1234)
        #expect(log.firstSeq == 1135)
        #expect(log.evicted == 1134)
        for i in 0..<log.count { #expect(log[i].seq == log.firstSeq + i) }
        #expect(log.entry(seq: 1134) == nil)
        if case .event(let e) = log.entry(seq: 1234)?.event {
            #expect(e.data?.hasSuffix("1233") == true)
        } else {
            Issue.record("missing newest")
        }
    }

    @Test("bounded by bytes: big entries evict old ones and memory stays under the bound")
    func byteBound() {
        var log = EventLog(maxEntries: 10_000, maxBytes: 64 * 1024)
        for i in 0..<500 {
            log.append(event(i, size: 4000), at: t0)
            #expect(log.bytes <= 64 * 1024)
        }
        #expect(log.count < 20)
        #expect(log.count > 10)
        #expect(log.lastSeq == 500)
    }

    @Test("small logs grow lazily and interleave eviction by bytes with growth")
    func mixed() {
        var log = EventLog(maxEntries: 50, maxBytes: 8 * 1024)
        for i in 0..<300 { log.append(event(i, size: i % 3 == 0 ? 1500 : 5), at: t0) }
        #expect(log.bytes <= 8 * 1024)
        let seqs = (0..<log.count).map { log[$0].seq }
        #expect(seqs == Array(log.firstSeq...log.lastSeq))
    }

    @Test("the model's log respects --log-size and the Events pane shows the newest")
    func modelBound() {
        var h = Harness(logSize: 50)
        h.connectAndSubscribe()
        h.events(500)
        #expect(h.model.log.count == 50)
        #expect(contains(h.render(), #""n":499"#))
        #expect(contains(h.render(), "50 · live"))
    }

    @Test("a paused selection survives eviction")
    func pausedEviction() {
        var h = Harness(logSize: 20)
        h.connectAndSubscribe()
        h.events(20)
        h.press(.up)  // pauses and selects
        #expect(h.model.paused)
        h.events(100, from: 5)
        #expect(h.model.missedWhilePaused == 100)
        let g = h.render()
        expectPanesFramed(g)
        #expect(contains(g, "100 new events"))
        h.type("G")
        #expect(!h.model.paused)
    }
}
