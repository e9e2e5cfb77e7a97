import WebSocket

/// Decoding of `application/x-www-form-urlencoded` bodies (the pusher dialect's auth requests).
enum FormBody {
    /// The fields of a form body, percent-decoded with `+` as space. Invalid escapes stay literal.
    static func decode(_ bytes: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let kv = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let rawName = kv.first else { continue }
            let name = unescape(Array(rawName))
            let value = kv.count > 1 ? unescape(Array(kv[1])) : ""
            if fields[name] == nil { fields[name] = value }
        }
        return fields
    }

    /// `bytes` percent-decoded with `+` as a space (WebSocket's `PercentCoding`, as for request
    /// targets).
    static func unescape(_ bytes: [UInt8]) -> String { PercentCoding.decode(bytes: bytes, plusAsSpace: true) }
}
