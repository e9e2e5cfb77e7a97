// A plain JSON string quoting, for tests that compare the package's fast one against it.

/// `text` as a JSON string literal, the plain way: RFC 8259's short escapes for `"`, `\`, newline,
/// return, tab, backspace and form feed, `\u00xx` (lowercase hex) for the other control
/// characters, every other scalar (DEL, U+2028/U+2029, any non-ASCII) as it is.
public func referenceQuoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case "\u{08}": out += "\\b"
        case "\u{0C}": out += "\\f"
        case "\u{00}"..."\u{1F}":
            let hex = String(scalar.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}
