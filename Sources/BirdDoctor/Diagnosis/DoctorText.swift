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

    /// An endpoint URL safe to show: the password of user info and the values of query
    /// parameters whose names suggest a secret are replaced; a fragment is dropped.
    static func endpoint(_ url: String) -> String {
        var base = Substring(url)
        if let hash = base.firstIndex(of: "#") { base = base[..<hash] }
        var query: Substring?
        if let mark = base.firstIndex(of: "?") {
            query = base[base.index(after: mark)...]
            base = base[..<mark]
        }
        var shown = String(base)
        if let scheme = base.range(of: "://") {
            let authority = base[scheme.upperBound...].prefix { $0 != "/" }
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                shown = String(base[..<authority.index(after: colon)]) + Redaction.placeholder + String(base[at...])
            }
        }
        guard let query else { return shown }
        let items = query.split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
            guard let (name, value) = queryPair(item) else { return String(item) }
            return isSecretParameter(name, value) ? "\(name)=\(Redaction.placeholder)" : String(item)
        }
        return shown + "?" + items.joined(separator: "&")
    }

    /// The values ``endpoint(_:)`` hides (the user info password, secret-looking query values).
    static func endpointSecrets(_ url: String) -> [String] {
        var out: [String] = []
        let beforeFragment = url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let parts = beforeFragment.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        if let base = parts.first, let scheme = base.range(of: "://") {
            let authority = base[scheme.upperBound...].prefix { $0 != "/" }
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                out.append(String(authority[authority.index(after: colon)..<at]))
            }
        }
        if parts.count == 2 {
            for item in parts[1].split(separator: "&") {
                if let (name, value) = queryPair(item), isSecretParameter(name, value) {
                    out.append(value)
                    out.append(value.removingPercentEncoding ?? value)
                }
            }
        }
        return out
    }

    private static func queryPair(_ item: Substring) -> (String, String)? {
        guard let equals = item.firstIndex(of: "=") else { return nil }
        return (String(item[..<equals]), String(item[item.index(after: equals)...]))
    }

    private static func isSecretParameter(_ name: String, _ value: String) -> Bool {
        let lower = name.lowercased()
        return Redaction.redactHeader(name: name, value: value) != value
            || ["session", "sig", "password", "jwt"].contains { lower.contains($0) }
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
