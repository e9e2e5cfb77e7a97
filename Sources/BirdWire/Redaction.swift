/// Removes secrets from text that may be shown or stored: the signature half of `auth` values
/// (`"key:hex"` → `"key:<redacted>"`), bearer tokens and the like.
public enum Redaction {
    /// The placeholder that replaces a secret.
    public static let placeholder = "<redacted>"

    /// Redacts every `"auth":"<key>:<hex>"` signature in protocol or auth-response JSON text,
    /// including double-encoded occurrences (`\"auth\":\"…\"`).
    public static func redactWireText(_ text: String) -> String {
        guard mentionsAuth(text) else { return text }
        var result = ""
        var rest = Substring(text)
        let markers = ["\"auth\":\"", "\\\"auth\\\":\\\"", "\"auth\": \"", "auth_signature="]
        while let (range, marker) = firstMarker(in: rest, markers) {
            result += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            let terminators: Set<Character> = marker.hasPrefix("\\") ? ["\\"] : (marker == "auth_signature=" ? ["&", " ", "\""] : ["\""])
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

    /// Whether `text` contains `auth` anywhere: a byte scan, since Foundation's `contains` costs
    /// tens of thousands of instructions per message on the wire-tap path.
    static func mentionsAuth(_ text: String) -> Bool {
        let scan = { (bytes: UnsafeBufferPointer<UInt8>) -> Bool in
            guard bytes.count >= 4 else { return false }
            var i = 0
            let end = bytes.count - 3
            while i < end {
                if bytes[i] == UInt8(ascii: "a") && bytes[i + 1] == UInt8(ascii: "u") && bytes[i + 2] == UInt8(ascii: "t")
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
