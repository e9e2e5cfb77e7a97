// Event data as the inspector shows and writes it: from the exact text received, through
// BirdWire's lossless JSON model (numbers keep their digits, members their order), secrets redacted.

import BirdWire

/// Event data (and member info) as text for the log, the detail view and JSON lines.
public enum PayloadText {
    /// Whether `text` is one JSON value (BirdWire's strict parser).
    public static func isJSON(_ text: String) -> Bool { (try? JSONValue(parsing: text)) != nil }

    /// The JSON text that embeds `text` as a value in a JSON line: the text itself, byte for byte,
    /// when it is valid JSON (its raw CR and LF, which JSON allows only as whitespace, become
    /// spaces so the line stays one line); when a secret had to be redacted, the redacted value's
    /// compact text (members in order, numbers as sent); anything that is not JSON as a JSON
    /// string of the (redacted) text.
    public static func embedded(_ text: String) -> String {
        guard let value = try? JSONValue(parsing: text) else { return Redaction.scrub(text, urls: .keep).jsonQuoted }
        if mayHoldSecret(text), let redacted = Redaction.redacted(value) { return redacted.description }
        return oneLineWhitespace(text)
    }

    /// One line for the event log: compact JSON (members in order, numbers as sent; a string that
    /// holds a JSON object or array is shown decoded), secrets redacted; text that is not JSON
    /// comes back raw (redacted) with line breaks shown as ⏎.
    public static func oneLine(_ text: String) -> String {
        guard let value = try? JSONValue(parsing: text) else {
            return Redaction.scrub(text, urls: .keep).replacingNewlines()
        }
        let shown = unwrapped(value)
        guard mayHoldSecret(text) else { return shown.description }
        return (Redaction.redacted(shown) ?? shown).description
    }

    /// Pretty-printed lines (two-space indent, members in order, numbers as sent; a string holding
    /// an object or array shown decoded), secrets redacted. Text that is not JSON comes back raw
    /// (redacted), one line per line, with `valid` false.
    public static func pretty(_ text: String) -> (lines: [String], valid: Bool) {
        guard let value = try? JSONValue(parsing: text) else { return (rawLines(text), false) }
        let shown = unwrapped(value)
        return (lines((Redaction.redacted(shown) ?? shown).prettyDescription), true)
    }

    /// The text exactly as received, one line per line, with secrets redacted (the detail view's
    /// raw mode).
    public static func rawLines(_ text: String) -> [String] {
        lines(Redaction.scrub(text, urls: .keep))
    }

    /// Whether the JSON `text` (or a JSON text inside one of its strings) may hold what
    /// `Redaction.redacted` replaces: a word of the policy's secret member names
    /// (`Redaction.secretKeys`, without case; the secret name endings `_token`, `_secret`,
    /// `_password`, `_signature` hold one too), a run of 64 hex digits (a signature's shape) or a
    /// `\u` escape (which could spell either). False: nothing in it is redacted, so the walk over
    /// the parsed value (for every event written or shown) is skipped. A byte scan, no copies.
    static func mayHoldSecret(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var hexRun = 0
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                if b == UInt8(ascii: "\\"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "u") { return true }
                let isHex =
                    (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
                    || (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "f"))
                hexRun = isHex ? hexRun + 1 : 0
                if hexRun >= 64 { return true }
                let lower = b | 0x20
                if lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "z") {
                    for word in secretWords where word[0] == lower && i + word.count <= bytes.count {
                        var j = 1
                        while j < word.count, bytes[i + j] | 0x20 == word[j] { j += 1 }
                        if j == word.count { return true }
                    }
                }
                i += 1
            }
            return false
        }
    }

    /// The policy's secret member names that hold no shorter one (`auth`, `token`, …), lowercased
    /// bytes: a name holding none of these is not secret.
    private static let secretWords: [[UInt8]] = {
        let names = Redaction.secretKeys.map { $0.lowercased() }
        return names.filter { name in !names.contains { $0 != name && name.contains($0) } }.sorted().map {
            Array($0.utf8)
        }
    }()

    /// A string holding a JSON object or array (double encoding) becomes that value.
    static func unwrapped(_ value: JSONValue) -> JSONValue {
        if case .string(let inner) = value, let decoded = try? JSONValue(parsing: inner) {
            switch decoded {
            case .object, .array: return decoded
            default: break
            }
        }
        return value
    }

    /// Valid JSON text with its raw CR and LF bytes (whitespace, in valid JSON) replaced by spaces.
    static func oneLineWhitespace(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return text }
        return String(decoding: text.utf8.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }, as: UTF8.self)
    }

    private static func lines(_ text: String) -> [String] {
        // Split on the byte: "\r\n" is one Character, so a Character split would miss it.
        text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 0x0D ? line.dropLast() : line[...], as: UTF8.self)
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
