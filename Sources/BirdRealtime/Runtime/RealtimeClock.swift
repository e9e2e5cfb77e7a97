import Foundation
import WebSocket

/// A timer that can be cancelled.
public protocol RealtimeTimer: Sendable {
    /// Stops the timer; its work will not run (if it has not started).
    func cancel()
}

/// Where the client gets time and timers. The real one is ``SystemRealtimeClock``; tests inject
/// `ManualClock` (BirdRealtimeTestSupport) through ``RealtimeEnvironment`` and advance virtual time.
public protocol RealtimeClock: Sendable {
    /// Monotonic time since an arbitrary origin (for timeouts).
    var uptime: Duration { get }
    /// The wall-clock time (for `nextAttemptAt`).
    var wallNow: Date { get }
    /// Runs `work` on `queue` after `delay`.
    func schedule(after delay: Duration, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void)
        -> any RealtimeTimer
}

/// The real clock: `ContinuousClock` for uptime, `Date()` for wall time, Dispatch for timers.
public struct SystemRealtimeClock: RealtimeClock {
    private let origin = ContinuousClock.now

    /// Creates the clock; its uptime starts now.
    public init() {}

    public var uptime: Duration { ContinuousClock.now - origin }

    public var wallNow: Date { Date() }

    public func schedule(after delay: Duration, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void)
        -> any RealtimeTimer
    {
        let item = DispatchWorkItem(block: work)
        // Clamped: a delay from the options or the network can be any duration.
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: delay.clampedNanoseconds)), execute: item)
        return DispatchTimer(item: item)
    }

    private struct DispatchTimer: RealtimeTimer, @unchecked Sendable {
        let item: DispatchWorkItem
        func cancel() { item.cancel() }
    }
}
