// Time formatting without Foundation formatters (pure, locale-free, fast).

import BirdWire
import Foundation

/// Clock times and durations as text (the `ts` stamps of recordings: BirdRecording's `RecordingTime`).
public enum TimeText {
    /// "12:34:56.789" at `utcOffsetSeconds` from UTC.
    public static func clock(_ date: Date, utcOffsetSeconds: Int = 0) -> String {
        let ms = Checked.int(date.timeIntervalSince1970 * 1000, .down) + utcOffsetSeconds * 1000
        let dayMs = ((ms % 86_400_000) + 86_400_000) % 86_400_000
        let h = dayMs / 3_600_000, m = dayMs / 60_000 % 60, s = dayMs / 1000 % 60, f = dayMs % 1000
        return "\(two(h)):\(two(m)):\(two(s)).\(three(f))"
    }

    /// "12:34:56" (no milliseconds).
    public static func clockSeconds(_ date: Date, utcOffsetSeconds: Int = 0) -> String {
        String(clock(date, utcOffsetSeconds: utcOffsetSeconds).prefix(8))
    }

    /// "2m 03s", "1h 02m", "45s", "0.4s" (NaN and negative durations read 0.0s).
    public static func duration(_ seconds: Double) -> String {
        guard seconds > 0 else { return "0.0s" }
        if seconds < 10 { return String(format: "%.1fs", max(0, seconds)) }
        let s = Checked.int(seconds, .down)
        if s < 60 { return "\(s)s" }
        if s < 3600 { return "\(s / 60)m \(two(s % 60))s" }
        return "\(s / 3600)h \(two(s / 60 % 60))m"
    }

    /// A whole-second duration: "120s".
    public static func seconds(_ d: Duration) -> String {
        let s = d.seconds
        return s == s.rounded() ? "\(Checked.int(s))s" : String(format: "%.1fs", s)
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    private static func three(_ n: Int) -> String { n < 10 ? "00\(n)" : n < 100 ? "0\(n)" : "\(n)" }
}
