/// Secret JSON members and signature-shaped strings, in parsed values and in raw text
/// (docs: the policy in `Redaction+Policy.swift`).
extension Redaction {
    /// Member names whose values are secrets (compared without case); see ``isSecretKey(_:)``.
    package static let secretKeys: Set<String> = [
        "auth", "auth_signature", "signature", "secret", "shared_secret", "token", "access_token", "password",
        "authorization",
    ]

    /// Name endings that make a member secret (`refresh_token`, `client_secret`, …).
    static let secretKeySuffixes = ["_token", "_secret", "_password", "_signature"]

    /// Whether a JSON member's name says its value is a secret.
    package static func isSecretKey(_ key: some StringProtocol) -> Bool {
        let lower = key.lowercased()
        return secretKeys.contains(lower) || secretKeySuffixes.contains { lower.hasSuffix($0) }
    }

    /// Whether a string ends like an auth signature: exactly 64 hex digits after its last `:`.
    package static func looksLikeSignature(_ value: some StringProtocol) -> Bool {
        guard let colon = value.lastIndex(of: ":") else { return false }
        let hex = value[value.index(after: colon)...]
        return hex.utf8.count == 64 && hex.utf8.allSatisfy(isHexDigit)
    }

    /// `value` with its secrets replaced — a secret member's value (an `auth` string keeps its
    /// app key: ``redactedAuth(_:)``), a signature-shaped string's signature — or nil when it holds
    /// none (so callers keep the exact text they have).
    package static func redacted(_ value: JSONValue) -> JSONValue? {
        switch value {
        case .string(let s):
            guard looksLikeSignature(s), let colon = s.lastIndex(of: ":") else { return nil }
            return .string(String(s[...colon]) + placeholder)
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
                    let shown = secretMember(key, member)
                    if shown != member {
                        out[key] = shown
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

    /// What a secret member's value becomes.
    private static func secretMember(_ key: String, _ value: JSONValue) -> JSONValue {
        if key.lowercased() == "auth", case .string(let s) = value { return .string(redactedAuth(s)) }
        return .string(placeholder)
    }

    /// Raw text (JSON or not, plain or double-encoded) with the string value of every member whose
    /// name ``isSecretKey(_:)`` replaced — the `auth` value's app key kept — and the rest unchanged.
    static func redactSecretMembers(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "\"")) else { return text }
        let bytes = Array(text.utf8)
        var splice = ByteSplice(bytes)
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "\""), let member = secretMember(in: bytes, quoteAt: i) else {
                i += 1
                continue
            }
            let value = String(decoding: bytes[member.value], as: UTF8.self)
            splice.replace(member.value, with: member.isAuth ? redactedAuth(value) : placeholder)
            i = member.value.upperBound
        }
        return splice.text(original: text)
    }

    /// When the quote at `start` opens a secret member's name followed by `:` and a string, the
    /// byte range of that string's contents (between its quotes). A name opened by `\"` is
    /// double-encoded: its value must be too (`\"token\":\"…\"`).
    private static func secretMember(in bytes: [UInt8], quoteAt start: Int) -> (value: Range<Int>, isAuth: Bool)? {
        let escaped = start > 0 && bytes[start - 1] == UInt8(ascii: "\\")
        // The name: short, plain characters, up to its closing quote (`"` or `\"`).
        var j = start + 1
        let nameStart = j
        while j < bytes.count, j - nameStart <= 64, isNameByte(bytes[j]) { j += 1 }
        let nameEnd = j
        guard nameEnd > nameStart, let afterName = pastQuote(bytes, j, escaped: escaped) else { return nil }
        let name = bytes[nameStart..<nameEnd]
        guard isSecretName(name) else { return nil }
        j = skipSpaces(bytes, afterName)
        guard j < bytes.count, bytes[j] == UInt8(ascii: ":"),
            let valueStart = pastQuote(bytes, skipSpaces(bytes, j + 1), escaped: escaped)
        else { return nil }
        let isAuth = equalsIgnoringCase(name, authKey)
        return (valueStart..<stringValueEnd(bytes, from: valueStart, escaped: escaped), isAuth)
    }

    /// ``secretKeys`` and ``secretKeySuffixes`` as lowercase bytes, and `auth`'s.
    private static let secretKeyBytes = secretKeys.map { Array($0.lowercased().utf8) }
    private static let secretKeySuffixBytes = secretKeySuffixes.map { Array($0.lowercased().utf8) }
    private static let authKey = Array("auth".utf8)

    /// ``isSecretKey(_:)`` for a member name's bytes (ASCII letters, digits, `_`, `-`), compared
    /// byte by byte without case: no `String` made or lowercased for every quote of a text.
    static func isSecretName(_ name: ArraySlice<UInt8>) -> Bool {
        if secretKeyBytes.contains(where: { equalsIgnoringCase(name, $0) }) { return true }
        return secretKeySuffixBytes.contains { suffix in
            suffix.count <= name.count && equalsIgnoringCase(name.suffix(suffix.count), suffix)
        }
    }

    /// Whether `bytes` equal `lower` (lowercase ASCII) with ASCII capitals taken as lowercase.
    private static func equalsIgnoringCase(_ bytes: ArraySlice<UInt8>, _ lower: [UInt8]) -> Bool {
        guard bytes.count == lower.count else { return false }
        var j = 0
        for b in bytes {
            let folded = (0x41...0x5A).contains(b) ? b | 0x20 : b
            if folded != lower[j] { return false }
            j += 1
        }
        return true
    }

    /// Where a string value starting at `start` ends: at its closing quote (`"`, or `\"` when
    /// the JSON is double-encoded), or at the end of the text. Escapes are skipped in pairs
    /// (`\/`, as PHP writes a slash, or `\\` when double-encoded), so an escaped character never
    /// ends the value early and leaves secret bytes behind.
    static func stringValueEnd(_ bytes: [UInt8], from start: Int, escaped: Bool) -> Int {
        var end = start
        while end < bytes.count {
            if bytes[end] == UInt8(ascii: "\\") {
                if escaped, end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: "\"") { break }
                end += 2
            } else if !escaped, bytes[end] == UInt8(ascii: "\"") {
                break
            } else {
                end += 1
            }
        }
        return min(end, bytes.count)
    }

    /// Every `:` followed by exactly 64 hex digits (a signature's shape) becomes `:<redacted>`.
    static func redactSignatures(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard bytes.count > 64 else { return text }
        var splice = ByteSplice(bytes)
        var i = 0
        while i + 64 < bytes.count {
            guard bytes[i] == UInt8(ascii: ":") else {
                i += 1
                continue
            }
            var j = i + 1
            while j < bytes.count, j - i <= 65, isHexDigit(bytes[j]) { j += 1 }
            guard j - i - 1 == 64 else {
                i += 1
                continue
            }
            splice.replace((i + 1)..<j, with: placeholder)
            i = j
        }
        return splice.text(original: text)
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    /// Just past the quote at `j` (`\"` when `escaped`); nil when there is none.
    private static func pastQuote(_ bytes: [UInt8], _ j: Int, escaped: Bool) -> Int? {
        if escaped {
            guard j + 1 < bytes.count, bytes[j] == UInt8(ascii: "\\"), bytes[j + 1] == UInt8(ascii: "\"") else {
                return nil
            }
            return j + 2
        }
        guard j < bytes.count, bytes[j] == UInt8(ascii: "\"") else { return nil }
        return j + 1
    }

    private static func skipSpaces(_ bytes: [UInt8], _ start: Int) -> Int {
        var j = start
        while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 || bytes[j] == 0x0A || bytes[j] == 0x0D { j += 1 }
        return j
    }
}
