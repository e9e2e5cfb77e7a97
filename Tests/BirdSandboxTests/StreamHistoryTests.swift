import BirdWire
import Testing

@testable import BirdSandbox

/// Continuity at the edge (docs/PROTOCOL.md § Extensions): offsets, the bounded history and the
/// resume answer, as a value and through the edge with fake links and a manual clock.
@Suite("StreamHistory and the edge's resume answer")
struct StreamHistoryTests {
    static func history(maxEvents: Int = 1000, maxAge: Double = 300) -> StreamHistory {
        StreamHistory(epoch: "e1", limits: HistoryLimits(maxEvents: maxEvents, maxAgeSeconds: maxAge))
    }

    static func publish(_ h: inout StreamHistory, _ channel: String = "c", count: Int, now: Double = 0) {
        for _ in 0..<count { _ = h.append(channel: channel, now: now) { "e\($0)" } }
    }

    @Test("offsets count from 1 per channel")
    func offsetsPerChannel() {
        var h = Self.history()
        #expect(h.append(channel: "a", now: 0) { "\($0)" } == (1, "1"))
        #expect(h.append(channel: "a", now: 0) { "\($0)" } == (2, "2"))
        #expect(h.append(channel: "b", now: 0) { "\($0)" } == (1, "1"))
    }

    @Test("a position inside the history: recovered, everything after it replayed in order")
    func recovered() {
        var h = Self.history()
        Self.publish(&h, count: 10)
        let answer = h.answer(channel: "c", resumingAfter: ("e1", 4), now: 0)
        #expect(answer.recovered == true)
        #expect(answer.missed == nil)
        #expect(answer.head == 10)
        #expect(answer.replay == (5...10).map { "e\($0)" })
        #expect(h.answer(channel: "c", resumingAfter: ("e1", 10), now: 0).replay.isEmpty)
        #expect(h.answer(channel: "c", resumingAfter: ("e1", 10), now: 0).recovered == true)
    }

    @Test("a position before the history: missed exactly what is gone, the rest replayed")
    func missedByCount() {
        var h = Self.history(maxEvents: 10)
        Self.publish(&h, count: 35)
        let answer = h.answer(channel: "c", resumingAfter: ("e1", 5), now: 0)
        #expect(answer.recovered == false)
        #expect(answer.missed == 20)  // 6…25 gone, 26…35 held
        #expect(answer.replay == (26...35).map { "e\($0)" })
    }

    @Test("events older than the age limit are gone; the count says how many")
    func missedByAge() {
        var h = Self.history(maxAge: 60)
        Self.publish(&h, count: 5, now: 0)
        Self.publish(&h, count: 3, now: 100)
        h.expire(now: 100)
        let answer = h.answer(channel: "c", resumingAfter: ("e1", 2), now: 100)
        #expect(answer.missed == 3)
        #expect(answer.replay == ["e6", "e7", "e8"])
        h.expire(now: 1000)
        #expect(h.answer(channel: "c", resumingAfter: ("e1", 2), now: 1000).missed == 6)
        #expect(h.answer(channel: "c", resumingAfter: ("e1", 2), now: 1000).replay.isEmpty)
    }

    @Test("no history kept (0 events): every event after the position is missed")
    func noHistory() {
        var h = Self.history(maxEvents: 0)
        Self.publish(&h, count: 7)
        let answer = h.answer(channel: "c", resumingAfter: ("e1", 3), now: 0)
        #expect(answer.missed == 4)
        #expect(answer.head == 7)
    }

    @Test("another epoch, or a position ahead of the stream: not recovered, count unknown, nothing replayed")
    func unknown() {
        var h = Self.history()
        Self.publish(&h, count: 5)
        for position in [("e0", 2), ("e1", 6)] {
            let answer = h.answer(channel: "c", resumingAfter: position, now: 0)
            #expect(answer.recovered == false)
            #expect(answer.missed == nil)
            #expect(answer.replay.isEmpty)
        }
        let fresh = h.answer(channel: "c", resumingAfter: nil, now: 0)
        #expect(fresh.recovered == nil && fresh.head == 5 && fresh.replay.isEmpty)
    }

    @Test("the edge stamps events (kept while nobody is subscribed) and replays after subscription_succeeded")
    func edgeReplays() throws {
        let h = EdgeHarness()
        let (link, id) = h.client()
        h.subscribe(id, "news")
        let succeeded = try #require(link.take().first)
        let epoch = try #require(succeeded.continuity?.epoch)
        #expect(succeeded.offset == 0)
        #expect(succeeded.continuity?.recovered == nil)
        h.edge.publish(channel: "news", event: "n", data: .string("1"))
        #expect(link.take().map(\.offset) == [1])
        h.send(id, "bird:unsubscribe", data: ["channel": "news"])
        for _ in 0..<3 { h.edge.publish(channel: "news", event: "n", data: .string("x")) }
        #expect(link.take().isEmpty)
        h.send(id, "bird:subscribe", data: ["channel": "news", "epoch": .string(epoch), "offset": 1])
        let replayed = link.take()
        #expect(replayed.map(\.event) == ["bird_internal:subscription_succeeded", "n", "n", "n"])
        #expect(replayed.first?.continuity == WireContinuity(epoch: epoch, recovered: true))
        #expect(replayed.first?.offset == 4)
        #expect(replayed.dropFirst().map(\.offset) == [2, 3, 4])
    }

    @Test("the Pusher dialect has no offsets, no epoch and ignores a position")
    func pusherDialect() {
        let h = EdgeHarness(dialect: .pusher)
        let (link, id) = h.client()
        h.send(id, "pusher:subscribe", data: ["channel": "news", "epoch": "x", "offset": 0])
        h.edge.publish(channel: "news", event: "n", data: .string("1"))
        let messages = link.take()
        #expect(messages.count == 2)
        #expect(messages.allSatisfy { $0.offset == nil && $0.continuity == nil })
        #expect(!link.sent.contains { $0.contains("offset") })
    }

    @Test("a bad position (negative, not a number, no epoch) counts as none")
    func badPosition() {
        for data: JSONValue in [
            ["channel": "news", "epoch": "e", "offset": -1], ["channel": "news", "epoch": "e", "offset": "3"],
            ["channel": "news", "offset": 3], ["channel": "news", "epoch": 7, "offset": 3],
        ] {
            let h = EdgeHarness()
            let (link, id) = h.client()
            h.send(id, "bird:subscribe", data: data)
            let answer = link.take().first
            #expect(answer?.continuity != nil && answer?.continuity?.recovered == nil, "\(data)")
        }
    }

    @Test("history limits are checked")
    func limits() {
        #expect(HistoryLimits().problem == nil)
        #expect(HistoryLimits(maxEvents: -1).problem != nil)
        #expect(HistoryLimits(maxEvents: 1_000_001).problem != nil)
        #expect(HistoryLimits(maxAgeSeconds: 0).problem != nil)
        #expect(HistoryLimits(maxAgeSeconds: .infinity).problem != nil)
    }
}
