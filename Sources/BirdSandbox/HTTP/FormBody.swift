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

    static func unescape(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "%"), i + 2 < bytes.count, let h = hex(bytes[i + 1]), let l = hex(bytes[i + 2]) {
                out.append(h << 4 | l)
                i += 3
            } else {
                out.append(b == UInt8(ascii: "+") ? UInt8(ascii: " ") : b)
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
