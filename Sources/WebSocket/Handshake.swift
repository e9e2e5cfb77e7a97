import COpenSSL

/// Opening-handshake helpers (RFC 6455 §4): keys, the accept value, base64.
enum Handshake {
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// A fresh random 16-byte key, base64-encoded.
    static func randomKey() -> String {
        var rng = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<16 { bytes[i] = rng.next() }
        return Base64.encode(bytes)
    }

    /// `Sec-WebSocket-Accept` for `key`: base64(SHA-1(key + GUID)).
    static func acceptValue(forKey key: String) -> String {
        let input = Array((key + guid).utf8)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = input.withUnsafeBytes { raw in
            EVP_Digest(raw.baseAddress, raw.count, &digest, &length, EVP_sha1(), nil)
        }
        return Base64.encode(Array(digest[0..<Int(length)]))
    }

    /// Whether `key` is base64 of exactly 16 bytes.
    static func isValidKey(_ key: String) -> Bool {
        guard let bytes = Base64.decode(key) else { return false }
        return bytes.count == 16
    }
}

/// Standard base64 (RFC 4648) with padding.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= bytes.count {
            let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out.append(alphabet[Int(v >> 18 & 63)]); out.append(alphabet[Int(v >> 12 & 63)])
            out.append(alphabet[Int(v >> 6 & 63)]); out.append(alphabet[Int(v & 63)])
            i += 3
        }
        let rest = bytes.count - i
        if rest == 1 {
            let v = UInt32(bytes[i]) << 16
            out.append(alphabet[Int(v >> 18 & 63)]); out.append(alphabet[Int(v >> 12 & 63)])
            out.append(UInt8(ascii: "=")); out.append(UInt8(ascii: "="))
        } else if rest == 2 {
            let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out.append(alphabet[Int(v >> 18 & 63)]); out.append(alphabet[Int(v >> 12 & 63)])
            out.append(alphabet[Int(v >> 6 & 63)]); out.append(UInt8(ascii: "="))
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ s: String) -> [UInt8]? {
        let chars = Array(s.utf8)
        guard chars.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        var i = 0
        while i < chars.count {
            var v: UInt32 = 0
            var pad = 0
            for j in 0..<4 {
                let c = chars[i + j]
                let d: UInt32
                switch c {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): d = UInt32(c - UInt8(ascii: "A"))
                case UInt8(ascii: "a")...UInt8(ascii: "z"): d = UInt32(c - UInt8(ascii: "a") + 26)
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0") + 52)
                case UInt8(ascii: "+"): d = 62
                case UInt8(ascii: "/"): d = 63
                case UInt8(ascii: "=") where i + 4 == chars.count && j >= 2: d = 0; pad += 1
                default: return nil
                }
                if pad > 0 && c != UInt8(ascii: "=") { return nil }
                v = v << 6 | d
            }
            out.append(UInt8(v >> 16 & 0xFF))
            if pad < 2 { out.append(UInt8(v >> 8 & 0xFF)) }
            if pad < 1 { out.append(UInt8(v & 0xFF)) }
            i += 4
        }
        return out
    }
}
