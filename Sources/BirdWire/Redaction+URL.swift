/// URLs, headers and `Bearer` tokens (the policy is in `Redaction+Policy.swift`).
extension Redaction {
    /// An endpoint as recorded and reported: scheme, host, port and path — no user info, query
    /// string or fragment (demo endpoints and some apps put identities or tokens there) — and
    /// nothing in the path shaped like a secret.
    package static func endpoint(_ url: String) -> String {
        var text = Substring(url)
        if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = text[..<cut] }
        if let scheme = text.range(of: "://") {
            let authorityStart = scheme.upperBound
            let authorityEnd = text[authorityStart...].firstIndex(of: "/") ?? text.endIndex
            if let at = text[authorityStart..<authorityEnd].lastIndex(of: "@") {
                text = text[..<authorityStart] + text[text.index(after: at)...]
            }
        }
        return scrub(String(text))
    }

    /// An endpoint as the doctor shows it: the user-info password and the values of secret-looking
    /// query parameters (``isSecretParameter(name:value:)``) replaced, the fragment dropped; the
    /// rest kept, since a query may be what is wrong.
    package static func diagnosticEndpoint(_ url: String) -> String {
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
                shown = String(base[..<authority.index(after: colon)]) + placeholder + String(base[at...])
            }
        }
        guard let query else { return shown }
        return shown + "?" + redactQuery(query)
    }

    /// The values ``diagnosticEndpoint(_:)`` hides (the user-info password, secret-looking query
    /// values, also percent-decoded), for a last pass over a whole report with ``redact(_:secrets:)``.
    package static func endpointSecrets(_ url: String) -> [String] {
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
                if let (name, value) = queryPair(item), isSecretParameter(name: name, value: value) {
                    out.append(value)
                    out.append(percentDecoded(value) ?? value)
                }
            }
        }
        return out
    }

    /// Whether a query parameter carries a secret: its name says so as a header's would
    /// (``redactHeader(name:value:)``) or names a session, signature, password or JWT.
    package static func isSecretParameter(name: String, value: String) -> Bool {
        let lower = name.lowercased()
        return isSecretHeaderName(name) || ["session", "sig", "password", "jwt"].contains { lower.contains($0) }
    }

    /// A header value safe to show: the value of a header whose name says it is secret
    /// (`Authorization`, `Cookie`, or a name containing `token`, `secret`, `key` or `auth`) is
    /// replaced, a scheme word before a space (`Bearer`) kept.
    package static func redactHeader(name: String, value: String) -> String {
        isSecretHeaderName(name) ? redactedHeaderValue(value) : value
    }

    /// `Name: <redacted>` for output whatever the name (`Authorization: Bearer <redacted>`: a
    /// scheme word is kept): for headers a user gave, whose every value is treated as a secret.
    package static func headerLine(name: String, value: String) -> String {
        "\(name): \(redactedHeaderValue(value))"
    }

    private static func isSecretHeaderName(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower == "authorization" || lower == "cookie" || lower.contains("token") || lower.contains("secret")
            || lower.contains("key") || lower.contains("auth")
    }

    private static func redactedHeaderValue(_ value: String) -> String {
        if let space = value.firstIndex(of: " ") { return String(value[...space]) + placeholder }
        return placeholder
    }

    /// `Bearer <token>` → `Bearer <redacted>` (any case); the token runs to a space, `"` or `,`.
    static func redactBearerTokens(_ text: String) -> String {
        let marker = Array("bearer ".utf8)
        let bytes = Array(text.utf8)
        guard bytes.count > marker.count else { return text }
        var splice = ByteSplice(bytes)
        var i = 0
        while i + marker.count <= bytes.count {
            guard matchesIgnoringCase(bytes, at: i, marker) else {
                i += 1
                continue
            }
            let tokenStart = i + marker.count
            var j = tokenStart
            while j < bytes.count, !isSpace(bytes[j]), bytes[j] != UInt8(ascii: "\""), bytes[j] != UInt8(ascii: ",") {
                j += 1
            }
            if j > tokenStart { splice.replace(tokenStart..<j, with: placeholder) }
            i = j
        }
        return splice.text(original: text)
    }

    /// The URLs in free text (a word containing `://`; words end at whitespace, `)` and `"`): the
    /// user-info password replaced, and the query string dropped or its secret values replaced.
    static func redactURLs(_ text: String, _ rule: URLPolicy) -> String {
        guard rule != .keep, text.contains("://") else { return text }
        var out = ""
        var word = Substring()
        var rest = Substring(text)
        while !rest.isEmpty {
            let end = rest.firstIndex(where: { $0.isWhitespace || $0 == ")" || $0 == "\"" }) ?? rest.endIndex
            word = rest[..<end]
            out += word.contains("://") ? redactURL(word, rule) : String(word)
            guard end < rest.endIndex else { break }
            out.append(rest[end])
            rest = rest[rest.index(after: end)...]
        }
        return out
    }

    /// One URL-bearing word of free text.
    private static func redactURL(_ word: Substring, _ rule: URLPolicy) -> String {
        guard let scheme = word.range(of: "://") else { return String(word) }
        var base = word
        var query: Substring?
        if let mark = word[scheme.upperBound...].firstIndex(of: "?") {
            base = word[..<mark]
            query = word[word.index(after: mark)...]
        }
        var shown = String(base)
        let authority = base[scheme.upperBound...].prefix { $0 != "/" }
        if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
            shown = String(base[..<authority.index(after: colon)]) + placeholder + String(base[at...])
        }
        guard let query else { return shown }
        return rule == .redactSecretQueryValues ? shown + "?" + redactQuery(query) : shown
    }

    /// `a=1&token=x` → `a=1&token=<redacted>`.
    private static func redactQuery(_ query: Substring) -> String {
        query.split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
            guard let (name, value) = queryPair(item) else { return String(item) }
            return isSecretParameter(name: name, value: value) ? "\(name)=\(placeholder)" : String(item)
        }.joined(separator: "&")
    }

    private static func queryPair(_ item: Substring) -> (String, String)? {
        guard let equals = item.firstIndex(of: "=") else { return nil }
        return (String(item[..<equals]), String(item[item.index(after: equals)...]))
    }

    /// `%41` → `A`; nil when an escape is not two hex digits or the bytes are not UTF-8.
    private static func percentDecoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard utf8.count >= 2, let high = hexValue(utf8[utf8.startIndex]),
                let low = hexValue(utf8[utf8.startIndex + 1])
            else { return nil }
            bytes.append(high << 4 | low)
            utf8 = utf8.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }

    private static func matchesIgnoringCase(_ bytes: [UInt8], at start: Int, _ lowercase: [UInt8]) -> Bool {
        for (offset, wanted) in lowercase.enumerated() {
            let byte = bytes[start + offset]
            let lowered = (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
            if lowered != wanted { return false }
        }
        return true
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
