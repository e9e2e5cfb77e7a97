// A channel's events per second over the last half minute: a fixed ring of per-second counts
// (constant memory and O(1) per event, so a flood costs nothing more here).

import BirdWire
import Foundation

/// Events per second over the last `EventRate.seconds` seconds.
public struct EventRate: Sendable, Equatable {
    /// Seconds remembered.
    public static let seconds = 30

    /// Counts per second, indexed by the second modulo `seconds`.
    private var counts = [Int](repeating: 0, count: EventRate.seconds)
    /// The second (since 1970) of the newest count; nil before the first event.
    private var newest: Int?

    /// No events yet.
    public init() {}

    /// Counts one event at `time` (an event older than the ring, or from a clock that went back
    /// further than it, is counted in the oldest second it still holds).
    public mutating func record(at time: Date) {
        let second = Self.second(time)
        guard let top = newest else {
            newest = second
            counts[Self.slot(second)] = 1
            return
        }
        if second > top {
            // Clear the seconds that passed without events (at most the whole ring).
            let gap = min(Self.seconds, second - top)
            for s in (second - gap + 1)...second { counts[Self.slot(s)] = 0 }
            newest = second
        }
        let s = max(second, newest.map { $0 - Self.seconds + 1 } ?? second)
        counts[Self.slot(s)] = counts[Self.slot(s)] &+ 1
    }

    /// The counts of the `n` seconds up to and including the one holding `now`, oldest first
    /// (0 for seconds without events or older than the ring).
    public func last(_ n: Int, now: Date) -> [Int] {
        let n = min(max(0, n), Self.seconds)
        let current = Self.second(now)
        guard let top = newest else { return [Int](repeating: 0, count: n) }
        return (0..<n).map { i in
            let s = current - (n - 1 - i)
            return s <= top && s > top - Self.seconds ? counts[Self.slot(s)] : 0
        }
    }

    private static func second(_ time: Date) -> Int { Checked.int(time.timeIntervalSince1970, .down) }
    private static func slot(_ second: Int) -> Int { ((second % seconds) + seconds) % seconds }
}
