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
}
