/// Numbers as the report prints them, the same bytes on every machine (no locale, no
/// Foundation formatting), and safe for any input (clamped, never trapping).
public enum ReportFormat {
    /// The largest magnitude formatted as given (ms); beyond is clamped (about 300 years).
    static let limitMs = 1e13

    /// A whole number from a Double, clamped to ±``limitMs``; 0 for NaN.
    static func whole(_ value: Double) -> Int {
        guard value.isFinite else { return value.isNaN ? 0 : (value > 0 ? Int(limitMs) : -Int(limitMs)) }
        return Int(min(max(value.rounded(), -limitMs), limitMs))
    }

    /// A duration for people: `850 ms`, `5.2 s`, `4 min 12 s`, `2 h 05 min`.
    public static func duration(_ ms: Double) -> String {
        let ms = Double(whole(ms))
        if ms < 1000 { return "\(whole(ms)) ms" }
        if ms < 60_000 {
            let tenths = whole(ms / 100)
            return "\(tenths / 10).\(tenths % 10) s"
        }
        let seconds = whole(ms / 1000)
        if seconds < 3600 { return "\(seconds / 60) min \(seconds % 60) s" }
        let minutes = seconds / 60
        return "\(minutes / 60) h \(pad(minutes % 60, 2)) min"
    }

    /// A time since the recording started: `3.010 s`, `1:02.345`, `1:00:00.000`.
    public static func offset(_ ms: Double) -> String {
        let total = max(0, whole(ms))
        let millis = total % 1000
        let seconds = total / 1000
        if seconds < 60 { return "\(seconds).\(pad(millis, 3)) s" }
        let minutes = seconds / 60
        if minutes < 60 { return "\(minutes):\(pad(seconds % 60, 2)).\(pad(millis, 3))" }
        return "\(minutes / 60):\(pad(minutes % 60, 2)):\(pad(seconds % 60, 2)).\(pad(millis, 3))"
    }

    /// A short axis label for a tick every `stepMs`: `0 s`, `500 ms`, `1.5 s`, `15 s`, `2 min`,
    /// `1 h 30 min`.
    public static func axis(_ ms: Double, stepMs: Double = 1000) -> String {
        let whole = max(0, self.whole(ms))
        if whole == 0 { return "0 s" }
        if whole < 1000 { return "\(whole) ms" }
        if stepMs < 1000, whole % 1000 != 0, whole < 120_000 {
            let tenths = self.whole(ms / 100)
            return "\(tenths / 10).\(tenths % 10) s"
        }
        let seconds = self.whole(ms / 1000)
        if seconds < 120 { return "\(seconds) s" }
        let minutes = seconds / 60
        if minutes < 120 { return seconds % 60 == 0 ? "\(minutes) min" : "\(minutes) min \(seconds % 60) s" }
        return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
    }

    /// A number for SVG coordinates: at most two decimals, no exponent.
    static func coordinate(_ value: Double) -> String {
        let hundredths = whole(value * 100)
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = abs(hundredths)
        let fraction = magnitude % 100
        if fraction == 0 { return "\(sign)\(magnitude / 100)" }
        return fraction % 10 == 0
            ? "\(sign)\(magnitude / 100).\(fraction / 10)" : "\(sign)\(magnitude / 100).\(pad(fraction, 2))"
    }

    /// `1 thing` / `2 things`.
    public static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(n) \(n == 1 ? singular : plural ?? singular + "s")"
    }

    /// The clock time of an ISO-8601 `ts` (`21:04:39.168`), or nil when it is not one.
    public static func clock(_ timestamp: String?) -> String? {
        guard let ts = timestamp, ts.count >= 23 else { return nil }
        let chars = Array(ts)
        guard chars[10] == "T", chars[13] == ":", chars[16] == ":" else { return nil }
        return String(chars[11..<23])
    }

    static func pad(_ n: Int, _ width: Int) -> String {
        let text = String(n)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
