// Conversions that never trap: numbers from files, flags, env vars and the network go through here
// (Swift's `Int(someDouble)` traps on NaN, infinities and values out of range).

import Foundation

/// Checked numeric conversions with documented ranges.
public enum Checked {
    /// The largest magnitude `int(_:)` returns: ±9·10¹⁵ (exact in a `Double`, far below `Int.max`).
    public static let intLimit: Double = 9e15

    /// The largest `mono_ms` (and recorded delay) a recording may carry: 10¹⁰ ms, about 115 days.
    /// Lines beyond it are skipped, so no wait derived from a file is longer.
    public static let maxRecordedMs = 10_000_000_000

    /// `value` rounded by `rule` and clamped to ±`intLimit`; 0 for NaN.
    public static func int(_ value: Double, _ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int {
        guard !value.isNaN else { return 0 }
        return Int(min(max(value.rounded(rule), -intLimit), intLimit))
    }

    /// Whole milliseconds of `duration`, rounded, clamped to ±`intLimit`.
    public static func milliseconds(_ duration: Duration) -> Int {
        int(duration.seconds * 1000)
    }

    /// A duration of `seconds`, clamped to 0…`maxSeconds` (NaN is 0) — for waits derived from input.
    public static func duration(seconds: Double, maxSeconds: Double = 1e9) -> Duration {
        guard seconds.isFinite, seconds > 0 else { return seconds == .infinity ? .seconds(Int64(maxSeconds)) : .zero }
        let s = min(seconds, maxSeconds)
        let whole = s.rounded(.down)
        return .seconds(Int64(whole)) + .nanoseconds(Int64(((s - whole) * 1e9).rounded(.down)))
    }

    /// A date `seconds` after `date`, with `seconds` clamped to ±10¹¹ s (about 3,000 years; NaN is 0),
    /// so date arithmetic on recorded numbers stays where clocks and calendars work.
    public static func date(_ date: Date, plus seconds: Double) -> Date {
        let s = seconds.isNaN ? 0 : min(max(seconds, -1e11), 1e11)
        return date.addingTimeInterval(s)
    }
}
