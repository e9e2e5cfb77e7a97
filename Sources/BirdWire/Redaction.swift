/// Removes secrets from text that may be shown or stored: the signature half of `auth` values
/// (`"key:hex"` → `"key:<redacted>"`), encrypted channels' keys (`shared_secret`), bearer tokens
/// and the like.
package enum Redaction {
    /// The placeholder that replaces a secret.
    package static let placeholder = "<redacted>"

    /// Redacts every `"auth":"<key>:<hex>"` signature and every `"shared_secret":"<key>"` channel
    /// key (the whole value) in protocol or auth-response JSON text, including double-encoded
    /// occurrences (`\"auth\":\"…\"`) and any spacing around the colon for `shared_secret`.
    package static func redactWireText(_ text: String) -> String {
        let mentions = secretMentions(text)
        guard mentions.auth || mentions.sharedSecret else { return text }
        let signed = mentions.auth ? redactAuth(text) : text
        return mentions.sharedSecret ? redactSharedSecrets(signed) : signed
    }

    /// The `auth` half of ``redactWireText(_:)``.
    private static func redactAuth(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        let markers = ["\"auth\":\"", "\\\"auth\\\":\\\"", "\"auth\": \"", "auth_signature="]
        while let (range, marker) = firstMarker(in: rest, markers) {
            result += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            let terminators: Set<Character> =
                marker.hasPrefix("\\") ? ["\\"] : (marker == "auth_signature=" ? ["&", " ", "\""] : ["\""])
            let end = rest.firstIndex(where: { terminators.contains($0) }) ?? rest.endIndex
            let value = rest[..<end]
            if marker != "auth_signature=", let colon = value.firstIndex(of: ":") {
                result += value[...colon]
            }
            result += placeholder
            rest = rest[end...]
        }
        result += rest
        return result
    }

    /// The key whose values ``redactWireText(_:)`` removes whole: an encrypted channel's key in an
    /// auth response (`EncryptedChannel.sharedSecretKey`).
    static let sharedSecretKey = Array("shared_secret".utf8)

    /// Whether `text` contains `auth`, and whether it contains `shared_secret`, in one byte scan
    /// (the wire-tap path runs it on every message). Both words have an `h` (`aut·h`, `s·hared`):
    /// the loop compares each byte with `h` only and looks around it on a match, so it costs what
    /// a scan for one word costs.
    static func secretMentions(_ text: String) -> (auth: Bool, sharedSecret: Bool) {
        let scan = { (bytes: UnsafeBufferPointer<UInt8>) -> (auth: Bool, sharedSecret: Bool) in
            var auth = false
            var shared = false
            let count = bytes.count
            var i = 1
            while i < count {
                if bytes[i] == 0x68 {  // h
                    if !auth, i >= 3, bytes[i - 3] == 0x61, bytes[i - 2] == 0x75, bytes[i - 1] == 0x74 {  // aut
                        auth = true
                        if shared { break }
                    } else if !shared, bytes[i - 1] == 0x73, i + 12 <= count, isSharedSecret(bytes, at: i - 1) {
                        shared = true
                        if auth { break }
                    }
                }
                i += 1
            }
            return (auth, shared)
        }
        if let found = text.utf8.withContiguousStorageIfAvailable(scan) { return found }
        return Array(text.utf8).withUnsafeBufferPointer(scan)
    }

    /// Whether the 13 bytes at `start` (which must exist) spell `shared_secret`.
    private static func isSharedSecret(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        let word: StaticString = "shared_secret"
        return word.withUTF8Buffer { key in
            var j = 0
            while j < key.count {
                if bytes[start + j] != key[j] { return false }
                j += 1
            }
            return true
        }
    }

    /// Replaces the value of every `shared_secret` member whose value is a string — plain
    /// (`"shared_secret" : "…"`) or double-encoded (`\"shared_secret\":\"…\"`) — with the
    /// placeholder. A value of another type (not a key's form) is left as it is.
    static func redactSharedSecrets(_ text: String) -> String {
        let bytes = Array(text.utf8)
        let key = sharedSecretKey
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var copied = 0
        var i = 0
        while i + key.count <= bytes.count {
            guard bytes[i] == key[0], bytes[i..<(i + key.count)].elementsEqual(key) else {
                i += 1
                continue
            }
            // After the name: its closing quote (`"` or `\"`), spaces, `:`, spaces, the value's opening quote.
            var j = i + key.count
            let escaped = j < bytes.count && bytes[j] == UInt8(ascii: "\\")
            if escaped { j += 1 }
            guard j < bytes.count, bytes[j] == UInt8(ascii: "\"") else {
                i += key.count
                continue
            }
            j += 1
            j = skipSpaces(bytes, from: j)
            guard j < bytes.count, bytes[j] == UInt8(ascii: ":") else {
                i += key.count
                continue
            }
            j = skipSpaces(bytes, from: j + 1)
            if escaped {
                guard j + 1 < bytes.count, bytes[j] == UInt8(ascii: "\\"), bytes[j + 1] == UInt8(ascii: "\"") else {
                    i += key.count
                    continue
                }
                j += 2
            } else {
                guard j < bytes.count, bytes[j] == UInt8(ascii: "\"") else {
                    i += key.count
                    continue
                }
                j += 1
            }
            let end = stringValueEnd(bytes, from: j, escaped: escaped)
            out.append(contentsOf: bytes[copied..<j])
            out.append(contentsOf: placeholder.utf8)
            copied = end
            i = end
        }
        guard copied > 0 else { return text }
        out.append(contentsOf: bytes[copied...])
        return String(decoding: out, as: UTF8.self)
    }

    private static func skipSpaces(_ bytes: [UInt8], from start: Int) -> Int {
        var j = start
        while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 || bytes[j] == 0x0A || bytes[j] == 0x0D { j += 1 }
        return j
    }

    /// Whether `text` contains `auth` anywhere: a byte scan, since Foundation's `contains` costs
    /// tens of thousands of instructions per message on the wire-tap path.
    static func mentionsAuth(_ text: String) -> Bool {
        let scan = { (bytes: UnsafeBufferPointer<UInt8>) -> Bool in
            guard bytes.count >= 4 else { return false }
            var i = 0
            let end = bytes.count - 3
            while i < end {
                if bytes[i] == UInt8(ascii: "a") && bytes[i + 1] == UInt8(ascii: "u")
                    && bytes[i + 2] == UInt8(ascii: "t")
                    && bytes[i + 3] == UInt8(ascii: "h")
                {
                    return true
                }
                i += 1
            }
            return false
        }
        if let found = text.utf8.withContiguousStorageIfAvailable(scan) { return found }
        return Array(text.utf8).withUnsafeBufferPointer(scan)
    }

    private static func firstMarker(in text: Substring, _ markers: [String]) -> (Range<Substring.Index>, String)? {
        var best: (Range<Substring.Index>, String)?
        for m in markers {
            if let r = text.firstRange(of: m), best == nil || r.lowerBound < best!.0.lowerBound {
                best = (r, m)
            }
        }
        return best
    }
}
