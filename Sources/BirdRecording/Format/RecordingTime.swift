// The `ts` of recording lines: UTC ISO-8601 with milliseconds, written and read without Foundation
// formatters (pure, locale-free, fast, and safe for any date a file can hold).

import BirdWire
import Foundation

/// `ts` values as docs/RECORDING.md writes them: `2024-05-01T12:34:56.789Z`.
public enum RecordingTime {
    /// UTC ISO-8601 with milliseconds: "2024-05-01T12:34:56.789Z" (any date, clamped, never trapping).
    public static func iso(_ date: Date) -> String {
        let ms = Checked.int(date.timeIntervalSince1970 * 1000, .down)
        var days = ms >= 0 ? ms / 86_400_000 : (ms - 86_399_999) / 86_400_000
        let dayMs = ms - days * 86_400_000
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
        let h = dayMs / 3_600_000, min = dayMs / 60_000 % 60, s = dayMs / 1000 % 60, f = dayMs % 1000
        guard (1000...9999).contains(y) else {
            return "\(y)-\(two(m))-\(two(d))T\(two(h)):\(two(min)):\(two(s)).\(f < 10 ? "00" : f < 100 ? "0" : "")\(f)Z"
        }
        // A four-digit year (every stamp a recording writes): the 24 bytes written in place, as
        // every line of a recording starts with one.
        return String(unsafeUninitializedCapacity: 24) { out in
            func put(_ value: Int, at index: Int, digits: Int) {
                var v = value
                for k in stride(from: index + digits - 1, through: index, by: -1) {
                    out[k] = UInt8(truncatingIfNeeded: 0x30 + v % 10)
                    v /= 10
                }
            }
            put(y, at: 0, digits: 4)
            put(m, at: 5, digits: 2)
            put(d, at: 8, digits: 2)
            put(h, at: 11, digits: 2)
            put(min, at: 14, digits: 2)
            put(s, at: 17, digits: 2)
            put(f, at: 20, digits: 3)
            out[4] = UInt8(ascii: "-")
            out[7] = UInt8(ascii: "-")
            out[10] = UInt8(ascii: "T")
            out[13] = UInt8(ascii: ":")
            out[16] = UInt8(ascii: ":")
            out[19] = UInt8(ascii: ".")
            out[23] = UInt8(ascii: "Z")
            return 24
        }
    }

    /// Reads a UTC stamp as ``iso(_:)`` writes it ("2024-05-01T12:34:56.789Z"; fraction optional,
    /// any number of digits); nil for anything else.
    public static func parse(_ text: String) -> Date? {
        let b = Array(text.utf8)
        guard b.count >= 20, b.last == UInt8(ascii: "Z") else { return nil }
        func num(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var v = 0
            for i in from..<(from + count) {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                v = v * 10 + Int(b[i] - 0x30)
            }
            return v
        }
        func sep(_ i: Int, _ c: Unicode.Scalar) -> Bool { b[i] == UInt8(ascii: c) }
        guard let y = num(0, 4), sep(4, "-"), let m = num(5, 2), sep(7, "-"), let d = num(8, 2), sep(10, "T"),
            let hh = num(11, 2), sep(13, ":"), let mm = num(14, 2), sep(16, ":"), let ss = num(17, 2),
            (1...12).contains(m), (1...31).contains(d), hh < 24, mm < 60, ss < 61
        else { return nil }
        var ms = 0
        if b.count > 20 {
            guard sep(19, "."), b.count > 21 else { return nil }
            for (n, i) in (20..<(b.count - 1)).enumerated() {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                if n < 3 { ms = ms * 10 + Int(b[i] - 0x30) }
            }
            for _ in min(3, b.count - 21)..<3 { ms *= 10 }
        }
        // Days since 1970-01-01 from a civil date (Howard Hinnant's algorithm).
        let yy = m <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        // A microsecond above the millisecond, so `iso` (which rounds down) gives the same text back.
        let seconds = Double(days * 86_400 + hh * 3600 + mm * 60 + ss) + (Double(ms) + 0.001) / 1000
        return Date(timeIntervalSince1970: seconds)
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
