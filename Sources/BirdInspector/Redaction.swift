// Secrets never reach the screen: auth values, signatures and tokens are replaced before display.

import BirdWire

/// Redaction of secrets in text shown by the inspector.
public enum Redaction {
    /// What a redacted value shows as.
    public static let placeholder = "«redacted»"

    /// Object keys whose values are always redacted.
    public static let secretKeys: Set<String> = [
        "auth", "auth_signature", "signature", "secret", "token", "access_token", "password", "authorization",
    ]

    /// Whether a JSON object key names a secret.
    public static func isSecretKey(_ key: String) -> Bool { secretKeys.contains(key.lowercased()) }

    /// Whether a string value looks like an auth signature (`<key>:<64 hex digits>`).
    public static func looksSecret(_ value: String) -> Bool {
        guard let colon = value.lastIndex(of: ":") else { return false }
        let hex = value[value.index(after: colon)...]
        return hex.count == 64 && hex.allSatisfy(\.isHexDigit)
    }

    /// `value` with its secrets replaced by the placeholder — every value under a secret key, every
    /// string shaped like a signature — or nil when it holds none (so callers keep the exact text).
    public static func redacted(_ value: JSONValue) -> JSONValue? {
        switch value {
        case .string(let s):
            return looksSecret(s) ? .string(placeholder) : nil
        case .array(let items):
            var changed = false
            let out = items.map { item -> JSONValue in
                guard let r = redacted(item) else { return item }
                changed = true
                return r
            }
            return changed ? .array(out) : nil
        case .object(let object):
            var out = object
            var changed = false
            for (key, member) in object {
                if isSecretKey(key) {
                    if member != .string(placeholder) {
                        out[key] = .string(placeholder)
                        changed = true
                    }
                } else if let r = redacted(member) {
                    out[key] = r
                    changed = true
                }
            }
            return changed ? .object(out) : nil
        case .null, .bool, .number:
            return nil
        }
    }

    /// Raw (possibly invalid JSON) text with signatures and `"auth": "…"`-style values replaced.
    public static func scrub(_ text: String) -> String {
        var chars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < chars.count {
            // A quoted secret key followed by a quoted value: keep the key, redact the value.
            if chars[i] == "\"", let (keyEnd, key) = quoted(chars, from: i), isSecretKey(key) {
                var j = keyEnd
                while j < chars.count, chars[j] == " " { j += 1 }
                if j < chars.count, chars[j] == ":" {
                    j += 1
                    while j < chars.count, chars[j] == " " { j += 1 }
                    if j < chars.count, chars[j] == "\"", let (valueEnd, _) = quoted(chars, from: j) {
                        out.append(contentsOf: chars[i..<keyEnd])
                        out.append(contentsOf: ":\"\(placeholder)\"".unicodeScalars)
                        i = valueEnd
                        continue
                    }
                }
            }
            // 64 hex digits after a colon: a signature.
            if chars[i] == ":", i + 64 < chars.count, hexRun(chars, from: i + 1) == 64 {
                out.append(":")
                out.append(contentsOf: placeholder.unicodeScalars)
                i += 65
                continue
            }
            out.append(chars[i])
            i += 1
        }
        chars.removeAll()
        return String(out)
    }

    /// Text with only full signatures (`:` then 64 hex digits) replaced; everything else kept.
    public static func scrubSignatures(_ text: String) -> String {
        let chars = Array(text.unicodeScalars)
        guard chars.count > 64 else { return text }
        var out = String.UnicodeScalarView()
        var i = 0
        var changed = false
        while i < chars.count {
            if chars[i] == ":", i + 64 < chars.count, hexRun(chars, from: i + 1) == 64 {
                out.append(":")
                out.append(contentsOf: placeholder.unicodeScalars)
                i += 65
                changed = true
                continue
            }
            out.append(chars[i])
            i += 1
        }
        return changed ? String(out) : text
    }

    private static func quoted(_ chars: [Unicode.Scalar], from start: Int) -> (Int, String)? {
        var j = start + 1
        var s = String.UnicodeScalarView()
        while j < chars.count {
            if chars[j] == "\\" { j += 2; continue }
            if chars[j] == "\"" { return (j + 1, String(s)) }
            s.append(chars[j])
            j += 1
        }
        return nil
    }

    private static func hexRun(_ chars: [Unicode.Scalar], from start: Int) -> Int {
        var j = start
        while j < chars.count, j - start <= 64, Character(chars[j]).isHexDigit { j += 1 }
        return j - start
    }
}
