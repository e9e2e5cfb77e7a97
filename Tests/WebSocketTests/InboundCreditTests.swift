import Foundation
import Testing
@testable import WebSocket

/// The credit behind read flow control: only the crossings pause and resume.
@Suite struct InboundCreditTests {
    @Test("taking reports at or above the high-water mark; giving resumes once, at the low-water crossing")
    func crossings() {
        let credit = InboundCredit(highWater: 100, lowWater: 40)
        let resumed = Counter()
        credit.onLow { resumed.bump() }
        #expect(credit.take(60) == false)
        #expect(credit.take(39) == false)
        #expect(credit.take(1) == true, "exactly at the high-water mark")
        #expect(credit.take(50) == true, "still above")
        #expect(credit.give(100) == false, "150 → 50: above the low-water mark")
        #expect(resumed.value == 0)
        #expect(credit.isLow == false)
        #expect(credit.give(10) == true, "50 → 40: the crossing")
        #expect(resumed.value == 1)
        #expect(credit.isLow)
        #expect(credit.give(40) == false, "already below: no second resume")
        #expect(resumed.value == 1)
        #expect(credit.outstandingCost == 0)
        #expect(credit.peakCost == 150)
    }

    @Test("the low-water mark defaults to half the high-water mark and stays within it")
    func marks() {
        #expect(InboundCredit(highWater: 1000).lowWater == 500)
        #expect(InboundCredit(highWater: 10, lowWater: 50).lowWater == 10)
        #expect(InboundCredit(highWater: 0).highWater == 1)
        #expect(InboundCredit().highWater == InboundCredit.defaultHighWater)
    }

    @Test("a message's cost is its bytes plus a fixed allowance, so many tiny messages still count")
    func costs() {
        #expect(InboundCredit.cost(ofText: "héllo") == 6 + 256)
        #expect(InboundCredit.cost(ofBytes: 0) == 256)
    }

    @Test("the sink takes each batch's cost and reports the crossing on the loop side, once per flush")
    func sinkTakesCost() {
        let credit = InboundCredit(highWater: 600, lowWater: 0)
        let costs = Counter()
        let done = DispatchSemaphore(value: 0)
        let sink = EventSink(queue: DispatchQueue(label: "sink.test"), credit: credit) { _, cost in
            costs.add(cost)
            done.signal()
        }
        var over = 0
        sink.overHigh = { over += 1 }
        sink.add(.text("a"))
        sink.add(.text("bc"))
        sink.flush()
        #expect(over == 0)
        #expect(credit.outstandingCost == 257 + 258)
        sink.add(.ping([]))
        sink.flush()
        #expect(over == 1, "515 + 256 ≥ 600")
        _ = done.wait(timeout: .now() + 10)
        _ = done.wait(timeout: .now() + 10)
        #expect(costs.value == 257 + 258 + 256, "each batch carries its own cost to the consumer")
    }
}

/// A thread-safe counter.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
    func bump() { add(1) }
    func add(_ n: Int) {
        lock.lock()
        count += n
        lock.unlock()
    }
}
