// Time formatting without Foundation formatters (pure, locale-free, fast).

import Foundation

/// Clock times, ISO-8601 stamps and durations as text.
public enum TimeText {
    /// "12:34:56.789" at `utcOffsetSeconds` from UTC.
    public static func clock(_ date: Date, utcOffsetSeconds: Int = 0) -> String {
        let ms = Int((date.timeIntervalSince1970 * 1000).rounded(.down)) + utcOffsetSeconds * 1000
        let dayMs = ((ms % 86_400_000) + 86_400_000) % 86_400_000
        let h = dayMs / 3_600_000, m = dayMs / 60_000 % 60, s = dayMs / 1000 % 60, f = dayMs % 1000
        return "\(two(h)):\(two(m)):\(two(s)).\(three(f))"
    }

    /// "12:34:56" (no milliseconds).
    public static func clockSeconds(_ date: Date, utcOffsetSeconds: Int = 0) -> String {
        String(clock(date, utcOffsetSeconds: utcOffsetSeconds).prefix(8))
    }

    /// UTC ISO-8601 with milliseconds: "2024-05-01T12:34:56.789Z".
    public static func iso(_ date: Date) -> String {
        let ms = Int((date.timeIntervalSince1970 * 1000).rounded(.down))
        var days = ms >= 0 ? ms / 86_400_000 : (ms - 86_399_999) / 86_400_000
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        days += 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let doe = days - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return "\(y)-\(two(m))-\(two(d))T\(clock(date))Z"
    }

    /// "2m 03s", "1h 02m", "45s", "0.4s".
    public static func duration(_ seconds: Double) -> String {
        if seconds < 10 { return String(format: "%.1fs", max(0, seconds)) }
        let s = Int(seconds)
        if s < 60 { return "\(s)s" }
        if s < 3600 { return "\(s / 60)m \(two(s % 60))s" }
        return "\(s / 3600)h \(two(s / 60 % 60))m"
    }

    /// A whole-second duration: "120s".
    public static func seconds(_ d: Duration) -> String {
        let s = d.seconds
        return s == s.rounded() ? "\(Int(s))s" : String(format: "%.1fs", s)
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    private static func three(_ n: Int) -> String { n < 10 ? "00\(n)" : n < 100 ? "0\(n)" : "\(n)" }
}
