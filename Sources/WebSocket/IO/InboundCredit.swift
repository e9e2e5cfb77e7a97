import Foundation

/// Bounds what a connection has read but its consumer has not finished with (flow control from
/// the consumer back to the socket): the loop thread adds each batch's cost as it hands the batch
/// over, the consumer gives it back once done. At or above `highWater` the connection stops
/// reading its socket (TCP then pushes back to the sender); when the consumer brings the
/// outstanding cost down to `lowWater` or below, reading resumes.
///
/// Only the crossings do more than a locked addition: pausing happens on the loop thread where
/// the cost is added, resuming is one loop task per crossing of the low-water mark.
package final class InboundCredit: @unchecked Sendable {
    /// The default high-water mark: 8 MiB of costed events (``cost(ofText:)``).
    package static let defaultHighWater = 8 << 20

    /// The outstanding cost at or above which reading stops.
    package let highWater: Int
    /// The outstanding cost at or below which reading resumes.
    package let lowWater: Int

    private let lock = NSLock()
    private var outstanding = 0
    private var peak = 0
    private var resume: (@Sendable () -> Void)?

    /// Creates a credit with the given marks (`lowWater` is clamped to `0...highWater`).
    package init(highWater: Int = InboundCredit.defaultHighWater, lowWater: Int? = nil) {
        self.highWater = max(1, highWater)
        self.lowWater = min(max(0, lowWater ?? highWater / 2), self.highWater)
    }

    /// What one received message costs: its bytes plus a fixed allowance for the structures
    /// that carry it through the pipeline.
    static func cost(ofText text: String) -> Int { text.utf8.count + 256 }
    /// The cost of a message that is not text (binary, ping, pong, open, close).
    static func cost(ofBytes count: Int) -> Int { count + 256 }

    /// The cost handed over and not yet given back.
    package var outstandingCost: Int {
        lock.lock()
        defer { lock.unlock() }
        return outstanding
    }

    /// The largest ``outstandingCost`` seen so far.
    package var peakCost: Int {
        lock.lock()
        defer { lock.unlock() }
        return peak
    }

    /// Called (on any thread) when the outstanding cost falls to the low-water mark or below.
    func onLow(_ action: @escaping @Sendable () -> Void) {
        lock.lock()
        resume = action
        lock.unlock()
    }

    /// Adds `cost` (loop thread); returns whether the outstanding cost is now at or above the
    /// high-water mark.
    @discardableResult
    func take(_ cost: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        outstanding += cost
        if outstanding > peak { peak = outstanding }
        return outstanding >= highWater
    }

    /// Whether the outstanding cost is at or below the low-water mark.
    var isLow: Bool {
        lock.lock()
        defer { lock.unlock() }
        return outstanding <= lowWater
    }

    /// Gives `cost` back (any thread, once the consumer is done with what it cost). Returns
    /// whether this crossed the low-water mark (then the resume action has been called).
    @discardableResult
    package func give(_ cost: Int) -> Bool {
        lock.lock()
        let before = outstanding
        outstanding -= cost
        let crossed = before > lowWater && outstanding <= lowWater
        let action = crossed ? resume : nil
        lock.unlock()
        action?()
        return crossed
    }
}
