import Foundation

/// What the receiving side of a fan-out run saw, shared between the thread that receives (it
/// hands over one ``Batch`` per loop turn) and the thread that publishes and waits.
public final class FanoutRecorder: @unchecked Sendable {
    /// What one loop turn saw, handed over with one lock.
    public struct Batch: Sendable {
        /// Connections whose subscription succeeded.
        public var subscribed = 0
        /// Connections that failed (with the first few reasons).
        public var failed = 0
        /// Some failure reasons (at most a few per batch).
        public var reasons: [String] = []
        /// Counted app events.
        public var deliveries = 0
        /// The receive time of the last counted event.
        public var lastDeliveryNanos: UInt64 = 0
        /// (seq, receive − send in ns) of stamped events.
        public var stamped: [(seq: UInt64, nanos: UInt64)] = []

        /// An empty batch.
        public init() {}

        /// Whether there is anything to hand over.
        public var isEmpty: Bool { subscribed == 0 && failed == 0 && deliveries == 0 }

        /// Adds one subscriber action's outcome.
        public mutating func note(_ action: FanoutSubscriber.Action) {
            switch action {
            case .subscribed: subscribed += 1
            case .failed(let reason): fail(reason)
            case .delivery(let stamp, let received):
                deliveries += 1
                lastDeliveryNanos = Swift.max(lastDeliveryNanos, received)
                if let stamp {
                    stamped.append((stamp.seq, received >= stamp.sentNanos ? received - stamp.sentNanos : 0))
                }
            case .send: break
            }
        }

        /// Notes a failed connection.
        public mutating func fail(_ reason: String) {
            failed += 1
            if reasons.count < 3 { reasons.append(reason) }
        }
    }

    /// A snapshot of the totals.
    public struct Totals: Sendable {
        /// Subscribed connections.
        public var subscribed: Int
        /// Failed connections.
        public var failed: Int
        /// The first failure reasons.
        public var reasons: [String]
        /// Counted deliveries since the last ``resetDeliveries()``.
        public var deliveries: Int
        /// The receive time of the last of them.
        public var lastDeliveryNanos: UInt64
    }

    private let condition = NSCondition()
    private var subscribed = 0
    private var failed = 0
    private var reasons: [String] = []
    private var deliveries = 0
    private var lastDeliveryNanos: UInt64 = 0
    private var stamped: [UInt64: [UInt64]] = [:]

    /// An empty recorder.
    public init() {}

    /// Hands over one loop turn's batch (receiving thread).
    public func record(_ batch: Batch) {
        condition.lock()
        subscribed += batch.subscribed
        failed += batch.failed
        if reasons.count < 5 { reasons.append(contentsOf: batch.reasons.prefix(5 - reasons.count)) }
        deliveries += batch.deliveries
        lastDeliveryNanos = Swift.max(lastDeliveryNanos, batch.lastDeliveryNanos)
        for (seq, nanos) in batch.stamped { stamped[seq, default: []].append(nanos) }
        condition.broadcast()
        condition.unlock()
    }

    /// The totals now.
    public var totals: Totals {
        condition.lock()
        defer { condition.unlock() }
        return Totals(
            subscribed: subscribed, failed: failed, reasons: reasons, deliveries: deliveries,
            lastDeliveryNanos: lastDeliveryNanos)
    }

    /// Starts counting deliveries from zero (and forgets stamped samples).
    public func resetDeliveries() {
        condition.lock()
        deliveries = 0
        lastDeliveryNanos = 0
        stamped = [:]
        condition.unlock()
    }

    /// Waits until `predicate` holds for the totals or `deadline` (monotonic ns) passes; returns
    /// the totals then.
    public func wait(until deadline: UInt64, _ predicate: (Totals) -> Bool) -> Totals {
        condition.lock()
        defer { condition.unlock() }
        while true {
            let now = Totals(
                subscribed: subscribed, failed: failed, reasons: reasons, deliveries: deliveries,
                lastDeliveryNanos: lastDeliveryNanos)
            let current = monotonicNanos()
            if predicate(now) || current >= deadline { return now }
            _ = condition.wait(until: Date(timeIntervalSinceNow: Swift.min(0.05, Double(deadline - current) / 1e9)))
        }
    }

    /// Waits until `count` receivers reported the publish `seq` (or `deadline`, monotonic ns);
    /// returns their publish-to-receive times in ms (possibly fewer than `count`).
    public func latencies(seq: UInt64, count: Int, until deadline: UInt64) -> [Double] {
        condition.lock()
        defer { condition.unlock() }
        while (stamped[seq]?.count ?? 0) < count {
            let current = monotonicNanos()
            if current >= deadline { break }
            _ = condition.wait(until: Date(timeIntervalSinceNow: Swift.min(0.05, Double(deadline - current) / 1e9)))
        }
        return (stamped[seq] ?? []).map { Double($0) / 1e6 }
    }
}
