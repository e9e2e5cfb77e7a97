import BirdWire
import Foundation

/// Small text helpers shared by the diagnosis and the renderers.
enum DoctorText {
    /// `0.4 ms`, `12 ms`, `1.25 s`.
    static func duration(_ ms: Double) -> String {
        guard ms.isFinite, ms >= 0 else { return "?" }
        if ms < 10 { return String(format: "%.1f ms", ms) }
        if ms < 1000 { return String(format: "%.0f ms", ms) }
        return String(format: "%.2f s", ms / 1000)
    }

    /// `5 s`, `0.5 s`.
    static func seconds(_ duration: Duration) -> String {
        let (s, atto) = duration.components
        let value = Double(s) + Double(atto) / 1e18
        return value.rounded() == value ? "\(int(value)) s" : String(format: "%.2g s", value)
    }

    /// A Double as an Int without trapping: NaN is 0, out-of-range values are clamped.
    static func int(_ value: Double) -> Int {
        guard value.isFinite else { return value.isNaN ? 0 : (value > 0 ? Int.max : Int.min) }
        if value >= 9.2e18 { return Int.max }
        if value <= -9.2e18 { return Int.min }
        return Int(value)
    }

    /// Unix seconds as `2026-11-30T19:53:50Z`.
    static func date(_ unix: Int) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(unix)))
    }

    /// `127.0.0.1:6001` → `127.0.0.1`; `[::1]:6001` → `::1`.
    static func hostOnly(_ address: String) -> String {
        if address.hasPrefix("["), let close = address.firstIndex(of: "]") {
            return String(address[address.index(after: address.startIndex)..<close])
        }
        if let colon = address.lastIndex(of: ":"), address.filter({ $0 == ":" }).count == 1 {
            return String(address[..<colon])
        }
        return address
    }

    /// A list of names as "`a`, `b` and `c`".
    static func names(_ items: [String]) -> String {
        let quoted = items.map { "`\($0)`" }
        if quoted.count <= 1 { return quoted.first ?? "nothing" }
        return quoted.dropLast().joined(separator: ", ") + " and " + (quoted.last ?? "")
    }

    /// One line of at most `limit` characters, control characters replaced.
    static func line(_ text: String, limit: Int = 160) -> String {
        let cleaned = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
        return cleaned.count > limit ? String(cleaned.prefix(limit)) + "…" : cleaned
    }
}
