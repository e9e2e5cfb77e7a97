// A small JSON reader and printer over raw text, for the event log's one-line data and the
// detail view's pretty-printed JSON. Numbers keep their source spelling; secrets are redacted.

/// A parsed JSON value; numbers keep their original text.
public indirect enum JSONNode: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONNode])
    case object([JSONMember])
}

/// One member of a JSON object, in source order.
public struct JSONMember: Sendable, Equatable {
    /// The key.
    public var key: String
    /// The value.
    public var value: JSONNode
}

/// Parsing, pretty-printing and compact printing of JSON text, with secrets redacted.
public enum JSONText {
    /// Deepest nesting accepted; deeper input counts as invalid (no stack overflow on hostile data).
    public static let maxDepth = 128

    /// Parses JSON text (one value, surrounding whitespace allowed); `nil` when invalid.
    public static func parse(_ text: String) -> JSONNode? {
        var reader = Reader(bytes: Array(text.utf8))
        guard let value = try? reader.value(depth: 0) else { return nil }
        reader.skipSpace()
        return reader.atEnd ? value : nil
    }

    /// Whether `text` is one valid JSON value.
    public static func isValid(_ text: String) -> Bool { parse(text) != nil }

    /// Pretty-printed lines (two-space indent) with secrets redacted. A string holding JSON
    /// (double encoding) is shown decoded. Invalid JSON comes back raw (redacted), `valid` false.
    public static func pretty(_ text: String) -> (lines: [String], valid: Bool) {
        guard let node = parse(text) else {
            return (Redaction.scrub(text).split(separator: "\n", omittingEmptySubsequences: false).map(String.init), false)
        }
        var out: [String] = []
        var line = ""
        write(unwrapped(node), indent: 0, pretty: true, line: &line, out: &out, secretKey: false)
        out.append(line)
        return (out, true)
    }

    /// One-line form with secrets redacted (a string holding JSON is shown decoded unless
    /// `unwrapStrings` is false); invalid JSON comes back raw with line breaks shown as ⏎.
    public static func compact(_ text: String, unwrapStrings: Bool = true) -> String {
        guard let node = parse(text) else {
            return Redaction.scrub(text).replacingNewlines()
        }
        var out: [String] = []
        var line = ""
        write(unwrapStrings ? unwrapped(node) : node, indent: 0, pretty: false, line: &line, out: &out, secretKey: false)
        return line
    }

    /// One-line text of a parsed value (secrets redacted, strings holding JSON left as strings).
    static func compact(_ node: JSONNode) -> String {
        var out: [String] = []
        var line = ""
        write(node, indent: 0, pretty: false, line: &line, out: &out, secretKey: false)
        return line
    }

    /// The members of a JSON object text with the UTF-8 byte range of each raw value, in source
    /// order; nil when `text` is not one JSON object. Lets a caller replace one value and keep
    /// every other byte (a replayed recording line differs from the file only in `ts`).
    static func memberRanges(_ text: String) -> [(key: String, value: Range<Int>)]? {
        var reader = Reader(bytes: Array(text.utf8))
        reader.skipSpace()
        guard reader.i < reader.bytes.count, reader.bytes[reader.i] == UInt8(ascii: "{") else { return nil }
        reader.i += 1
        var members: [(key: String, value: Range<Int>)] = []
        do {
            reader.skipSpace()
            if reader.i < reader.bytes.count, reader.bytes[reader.i] == UInt8(ascii: "}") {
                reader.i += 1
            } else {
                while true {
                    reader.skipSpace()
                    guard reader.i < reader.bytes.count, reader.bytes[reader.i] == UInt8(ascii: "\"") else { return nil }
                    let key = try reader.string()
                    reader.skipSpace()
                    guard reader.i < reader.bytes.count, reader.bytes[reader.i] == UInt8(ascii: ":") else { return nil }
                    reader.i += 1
                    reader.skipSpace()
                    let start = reader.i
                    _ = try reader.value(depth: 1)
                    members.append((key, start..<reader.i))
                    reader.skipSpace()
                    guard reader.i < reader.bytes.count else { return nil }
                    if reader.bytes[reader.i] == UInt8(ascii: ",") { reader.i += 1; continue }
                    if reader.bytes[reader.i] == UInt8(ascii: "}") { reader.i += 1; break }
                    return nil
                }
            }
        } catch {
            return nil
        }
        reader.skipSpace()
        return reader.atEnd ? members : nil
    }

    /// Encodes a Swift string as a JSON string literal.
    public static func quote(_ s: String) -> String {
        var r = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": r += "\\\""
            case "\\": r += "\\\\"
            case "\n": r += "\\n"
            case "\r": r += "\\r"
            case "\t": r += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    r += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    r.unicodeScalars.append(scalar)
                }
            }
        }
        return r + "\""
    }

    // MARK: - Printing

    private static func unwrapped(_ node: JSONNode) -> JSONNode {
        if case .string(let inner) = node, let decoded = parse(inner) {
            switch decoded {
            case .object, .array: return decoded
            default: break
            }
        }
        return node
    }

    private static func write(_ node: JSONNode, indent: Int, pretty: Bool, line: inout String, out: inout [String], secretKey: Bool) {
        if secretKey {
            line += "\"\(Redaction.placeholder)\""
            return
        }
        switch node {
        case .null: line += "null"
        case .bool(let b): line += b ? "true" : "false"
        case .number(let n): line += n
        case .string(let s): line += quote(Redaction.looksSecret(s) ? Redaction.placeholder : s)
        case .array(let items):
            if items.isEmpty {
                line += "[]"
                return
            }
            line += "["
            for (i, item) in items.enumerated() {
                if pretty {
                    out.append(line)
                    line = String(repeating: " ", count: (indent + 1) * 2)
                }
                write(item, indent: indent + 1, pretty: pretty, line: &line, out: &out, secretKey: false)
                if i < items.count - 1 { line += "," }
            }
            if pretty {
                out.append(line)
                line = String(repeating: " ", count: indent * 2)
            }
            line += "]"
        case .object(let members):
            if members.isEmpty {
                line += "{}"
                return
            }
            line += "{"
            for (i, member) in members.enumerated() {
                if pretty {
                    out.append(line)
                    line = String(repeating: " ", count: (indent + 1) * 2)
                }
                line += quote(member.key) + (pretty ? ": " : ":")
                write(member.value, indent: indent + 1, pretty: pretty, line: &line, out: &out,
                      secretKey: Redaction.isSecretKey(member.key))
                if i < members.count - 1 { line += "," }
            }
            if pretty {
                out.append(line)
                line = String(repeating: " ", count: indent * 2)
            }
            line += "}"
        }
    }

    // MARK: - Reading

    private struct Invalid: Error {}

    private struct Reader {
        let bytes: [UInt8]
        var i = 0

        var atEnd: Bool { i >= bytes.count }

        mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        }

        mutating func value(depth: Int) throws -> JSONNode {
            guard depth < JSONText.maxDepth else { throw Invalid() }
            skipSpace()
            guard i < bytes.count else { throw Invalid() }
            switch bytes[i] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default: return .number(try number())
            }
        }

        mutating func literal(_ word: String) throws {
            for b in word.utf8 {
                guard i < bytes.count, bytes[i] == b else { throw Invalid() }
                i += 1
            }
        }

        mutating func object(depth: Int) throws -> JSONNode {
            i += 1
            var members: [JSONMember] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
                i += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw Invalid() }
                let key = try string()
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw Invalid() }
                i += 1
                members.append(JSONMember(key: key, value: try value(depth: depth + 1)))
                skipSpace()
                guard i < bytes.count else { throw Invalid() }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                throw Invalid()
            }
        }

        mutating func array(depth: Int) throws -> JSONNode {
            i += 1
            var items: [JSONNode] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
                i += 1
                return .array(items)
            }
            while true {
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard i < bytes.count else { throw Invalid() }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                throw Invalid()
            }
        }

        mutating func number() throws -> String {
            let start = i
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { throw Invalid() }
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                i += 1
                guard digits() > 0 else { throw Invalid() }
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                i += 1
                if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
                guard digits() > 0 else { throw Invalid() }
            }
            return String(decoding: bytes[start..<i], as: UTF8.self)
        }

        mutating func digits() -> Int {
            let start = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            return i - start
        }

        mutating func hex4() throws -> UInt32 {
            guard i + 4 <= bytes.count else { throw Invalid() }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let b = bytes[i]
                let d: UInt32
                switch b {
                case 0x30...0x39: d = UInt32(b - 0x30)
                case 0x41...0x46: d = UInt32(b - 0x41 + 10)
                case 0x61...0x66: d = UInt32(b - 0x61 + 10)
                default: throw Invalid()
                }
                v = v * 16 + d
                i += 1
            }
            return v
        }

        mutating func string() throws -> String {
            i += 1
            var scalars = String.UnicodeScalarView()
            var runStart = i
            var raw: [UInt8] = []
            func flush(_ r: inout [UInt8], _ from: Int, _ to: Int) {
                if to > from { r.append(contentsOf: bytes[from..<to]) }
            }
            while true {
                guard i < bytes.count else { throw Invalid() }
                let b = bytes[i]
                if b == UInt8(ascii: "\"") {
                    flush(&raw, runStart, i)
                    i += 1
                    scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
                    return String(scalars)
                }
                if b < 0x20 { throw Invalid() }
                if b == UInt8(ascii: "\\") {
                    flush(&raw, runStart, i)
                    scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
                    raw.removeAll(keepingCapacity: true)
                    i += 1
                    guard i < bytes.count else { throw Invalid() }
                    let e = bytes[i]
                    i += 1
                    switch e {
                    case UInt8(ascii: "\""): scalars.append("\"")
                    case UInt8(ascii: "\\"): scalars.append("\\")
                    case UInt8(ascii: "/"): scalars.append("/")
                    case UInt8(ascii: "b"): scalars.append("\u{08}")
                    case UInt8(ascii: "f"): scalars.append("\u{0C}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"):
                        var v = try hex4()
                        if v >= 0xD800, v < 0xDC00, i + 6 <= bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") {
                            i += 2
                            let low = try hex4()
                            if low >= 0xDC00, low < 0xE000 {
                                v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
                            } else {
                                v = 0xFFFD
                            }
                        }
                        scalars.append(Unicode.Scalar(v) ?? "\u{FFFD}")
                    default: throw Invalid()
                    }
                    runStart = i
                    continue
                }
                i += 1
            }
        }
    }
}

extension String {
    /// The string with line breaks shown as `⏎` and tabs as spaces (for one-line display).
    func replacingNewlines() -> String {
        var out = String.UnicodeScalarView()
        for s in unicodeScalars {
            switch s {
            case "\n": out.append("⏎")
            case "\r": continue
            case "\t": out.append(" ")
            default: out.append(s)
            }
        }
        return String(out)
    }
}
