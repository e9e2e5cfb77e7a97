@testable import BirdRealtime
import Foundation
import Testing
@testable import WebSocket

/// The address of a local in a frame of its own: how deep the stack is where it is called (the
/// stack grows down, so a deeper call gives a smaller address).
@inline(never) func stackMark() -> UInt {
    var local = 0
    return withUnsafeMutablePointer(to: &local) { UInt(bitPattern: $0) }
}

extension Integration {
    /// The path each batch's read credit takes back to the socket (docs/ARCHITECTURE.md § Flow
    /// control). The fence used to sit in a generic `Locked` read with `withLock { $0 }`, which
    /// stored it back wrapped in two more reabstraction thunks on every socket read: after tens
    /// of thousands of reads each release walked a chain that long, deliveries crawled and the
    /// real-socket flood test stalled under load.
    @Suite struct DeliveryFenceTests {
        @Test("a fence used once per batch runs every release at the same depth, however many batches went through it")
        func fenceDepthStaysFlat() {
            let fence = DeliveryFence()
            let credit = InboundCredit(highWater: 1 << 30)
            let marks = Locked<[UInt]>([])
            fence.set { release in
                marks.withLock { $0.append(stackMark()) }
                release()
            }
            let batches = 1_000
            credit.take(batches * 300)
            for _ in 0..<batches { fence.release(300, to: credit) }
            let all = marks.snapshot
            #expect(all.count == batches, "every release went through the fence")
            #expect(credit.outstandingCost == 0, "every batch's cost came back")
            let first = all.first ?? 0
            let last = all.last ?? 0
            // The growing chain put each release ≈ 200 bytes deeper than the one before it.
            let grew = first > last ? first - last : 0
            #expect(grew < 4096, "the 1,000th release ran \(grew) bytes deeper than the first")
        }

        @Test("without a fence the credit comes back at once")
        func noFence() {
            let fence = DeliveryFence()
            let credit = InboundCredit(highWater: 1000)
            credit.take(700)
            fence.release(700, to: credit)
            #expect(credit.outstandingCost == 0)
        }
    }
}
