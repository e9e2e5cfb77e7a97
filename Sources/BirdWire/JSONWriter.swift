/// Writes ``JSONValue`` as JSON text, members in their order and numbers as their text: compact
/// (the `description`) or pretty (two-space indent).
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
        case .number(let n): appendNumber(n, to: &out)
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
            for (i, member) in o.enumerated() {
                if i > 0 { out += "," }
                if pretty { newline(&out, indent + 1) }
                appendQuoted(member.key, to: &out)
                out += pretty ? ": " : ":"
                write(member.value, into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { newline(&out, indent) }
            out += "}"
        }
    }

    private static func newline(_ out: inout String, _ indent: Int) {
        out += "\n"
        out += String(repeating: "  ", count: indent)
    }

    /// Appends a number's JSON text (the digits as received).
    static func appendNumber(_ n: JSONNumber, to out: inout String) {
        switch n.storage {
        case .int(let value): out += String(value)
        case .uint(let value): out += String(value)
        case .text(let text): out += text
        }
    }

    /// Appends `s` as a JSON string literal with the escapes RFC 8259 requires. Runs of bytes
    /// that need no escape are appended whole (escapable bytes are ASCII, so every cut falls on a
    /// character boundary) — double-encoded payloads are full of quotes.
    static func appendQuoted(_ s: String, to out: inout String) {
        out += "\""
        let utf8 = s.utf8
        var runStart = utf8.startIndex
        var i = runStart
        while i != utf8.endIndex {
            let b = utf8[i]
            guard b < 0x20 || b == 0x22 || b == 0x5C else {
                i = utf8.index(after: i)
                continue
            }
            out += s[runStart..<i]
            switch b {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            default:
                let hex = String(b, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
            i = utf8.index(after: i)
            runStart = i
        }
        out += s[runStart..<utf8.endIndex]
        out += "\""
    }

    /// `s` as a JSON string literal.
    static func quoted(_ s: String) -> String {
        var out = ""
        appendQuoted(s, to: &out)
        return out
    }
}
