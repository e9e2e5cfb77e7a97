/// Makes text safe for one line of the sandbox's log: what a client sends (channel names, close
/// reasons, request paths, member ids …) must not start a new line, move the cursor or send
/// escape sequences to the operator's terminal.
///
/// Escaped as `\n`, `\r`, `\t` or `\uXXXX` (as in JSON): C0 controls (U+0000–U+001F, ESC among
/// them, so no escape sequence survives), DEL (U+007F), C1 controls (U+0080–U+009F), the line
/// and paragraph separators (U+2028, U+2029) and the bidirectional overrides and isolates
/// (U+202A–U+202E, U+2066–U+2069), which can make a line read differently from what it holds.
/// Everything else, backslashes included, is kept, so escaping twice changes nothing.
package enum LogText {
    /// The longest line kept, in UTF-8 bytes; the rest is cut and its size said.
    package static let maxLineBytes = 4096

    /// `text` with every control character escaped, cut to ``maxLineBytes``.
    package static func sanitize(_ text: String, maxBytes: Int = maxLineBytes) -> String {
        let escaped = escape(text)
        let count = escaped.utf8.count
        guard count > maxBytes else { return escaped }
        var kept = ""
        var used = 0
        for scalar in escaped.unicodeScalars {
            let size = UTF8.width(scalar)
            if used + size > maxBytes { break }
            kept.unicodeScalars.append(scalar)
            used += size
        }
        return kept + "… (\(count - used) more bytes)"
    }

    /// `text` with every control character escaped (no length limit).
    package static func escape(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }  // printable ASCII: as is
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if needsEscape(scalar) {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Whether a scalar is a control or layout character that must not reach a log line raw.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x2028, 0x2029: return true
        case 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
