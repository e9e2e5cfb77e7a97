/// Writes ``JSONValue`` as JSON text: compact (the `description`) or pretty.
enum JSONWriter {
    static func write(_ value: JSONValue, pretty: Bool = false) -> String {
        var out = ""
        write(value, into: &out, pretty: pretty, indent: 0)
        return out
    }

    static func write(_ value: JSONValue, into out: inout String, pretty: Bool, indent: Int) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let d): out += formatNumber(d)
        case .string(let s): appendQuoted(s, to: &out)
        case .array(let a):
            if a.isEmpty { out += "[]"; return }
            out += "["
            for (i, element) in a.enumerated() {
                if i > 0 { out += "," }
                if pretty { newline(&out, indent + 1) }
                write(element, into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { newline(&out, indent) }
            out += "]"
        case .object(let o):
            if o.isEmpty { out += "{}"; return }
            out += "{"
            for (i, key) in o.keys.sorted().enumerated() {
                if i > 0 { out += "," }
                if pretty { newline(&out, indent + 1) }
                appendQuoted(key, to: &out)
                out += pretty ? ": " : ":"
                if let member = o[key] { write(member, into: &out, pretty: pretty, indent: indent + 1) }
            }
            if pretty { newline(&out, indent) }
            out += "}"
        }
    }

    private static func newline(_ out: inout String, _ indent: Int) {
        out += "\n"
        out += String(repeating: "  ", count: indent)
    }

    /// Integral values within the exact range print as integers ("4009", not "4009.0").
    static func formatNumber(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d.rounded() == d, abs(d) < 9.007_199_254_740_992e15 {
            return String(Int64(d))
        }
        return "\(d)"
    }

    /// Appends `s` as a JSON string literal with the escapes RFC 8259 requires.
    static func appendQuoted(_ s: String, to out: inout String) {
        out += "\""
        var needsEscape = false
        for b in s.utf8 where b < 0x20 || b == 0x22 || b == 0x5C {
            needsEscape = true
            break
        }
        if !needsEscape {
            out += s
        } else {
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case "\u{08}": out += "\\b"
                case "\u{0C}": out += "\\f"
                default:
                    if scalar.value < 0x20 {
                        let hex = String(scalar.value, radix: 16)
                        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
        }
        out += "\""
    }

    /// `s` as a JSON string literal.
    static func quoted(_ s: String) -> String {
        var out = ""
        appendQuoted(s, to: &out)
        return out
    }
}
