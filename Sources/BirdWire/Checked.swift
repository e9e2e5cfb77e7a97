// Conversions that never trap: numbers from files, flags, env vars and the network go through here
// (Swift's `Int(someDouble)` traps on NaN, infinities and values out of range).

import Foundation

/// Checked numeric conversions with documented ranges, for every target of the package.
package enum Checked {
    /// The largest magnitude `int(_:)` returns: ±9·10¹⁵ (exact in a `Double`, far below `Int.max`).
    package static let intLimit: Double = 9e15

    /// `value` rounded by `rule` and clamped to ±`intLimit`; 0 for NaN.
    package static func int(_ value: Double, _ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int {
        guard !value.isNaN else { return 0 }
        return Int(min(max(value.rounded(rule), -intLimit), intLimit))
    }

    /// Whole milliseconds of `duration`, rounded, clamped to ±`intLimit`.
    package static func milliseconds(_ duration: Duration) -> Int {
        let parts = duration.components
        return int((Double(parts.seconds) + Double(parts.attoseconds) / 1e18) * 1000)
    }

    /// A duration of `seconds`, clamped to 0…`maxSeconds` (NaN is 0) — for waits derived from input.
    package static func duration(seconds: Double, maxSeconds: Double = 1e9) -> Duration {
        guard seconds.isFinite, seconds > 0 else { return seconds == .infinity ? .seconds(Int64(maxSeconds)) : .zero }
        let s = min(seconds, maxSeconds)
        let whole = s.rounded(.down)
        return .seconds(Int64(whole)) + .nanoseconds(Int64(((s - whole) * 1e9).rounded(.down)))
    }

    /// A date `seconds` after `date`, with `seconds` clamped to ±10¹¹ s (about 3,000 years; NaN is 0),
    /// so date arithmetic on recorded numbers stays where clocks and calendars work.
    package static func date(_ date: Date, plus seconds: Double) -> Date {
        let s = seconds.isNaN ? 0 : min(max(seconds, -1e11), 1e11)
        return date.addingTimeInterval(s)
    }
}
