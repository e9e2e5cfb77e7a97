import CSodium

/// The libsodium calls the encryption types make: initialisation once, base64, SHA-256, random
/// bytes, the secretbox. Internal; the public surface is `EncryptionKey`, `EncryptionNonce` and
/// `EncryptedPayload`.
enum Sodium {
    /// Runs `sodium_init()` exactly once, on first use, from any thread: a `static let` is
    /// initialised under `swift_once`, and `sodium_init()` is itself thread-safe. It only selects
    /// the fastest implementations and seeds the random source; should it ever fail (its lock
    /// failing), every function below still works with the portable implementations.
    static let initialized: Bool = sodium_init() >= 0

    /// Secretbox key size (`crypto_secretbox_KEYBYTES`).
    static let keyBytes = 32
    /// Secretbox nonce size (`crypto_secretbox_NONCEBYTES`).
    static let nonceBytes = 24
    /// Poly1305 tag size that prefixes every ciphertext (`crypto_secretbox_MACBYTES`).
    static let macBytes = 16

    // MARK: - Base64 (standard alphabet, padded)

    /// Standard base64 with padding (RFC 4648 §4), what PyNaCl/`pusher`, tweetnacl and
    /// pusher-websocket-swift use.
    static func base64(_ bytes: [UInt8]) -> String {
        _ = initialized
        if bytes.isEmpty { return "" }
        let variant = sodium_base64_VARIANT_ORIGINAL
        let capacity = sodium_base64_encoded_len(bytes.count, variant)  // with the NUL
        var out = [CChar](repeating: 0, count: capacity)
        let ok = out.withUnsafeMutableBufferPointer { o in
            bytes.withUnsafeBufferPointer { b in
                guard let o = o.baseAddress, let b = b.baseAddress else { return false }
                return sodium_bin2base64(o, capacity, b, bytes.count, variant) != nil
            }
        }
        guard ok else { return "" }
        let length = out.firstIndex(of: 0) ?? out.count
        return String(decoding: out[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The bytes of standard, padded, canonical base64 text, or nil for anything else (other
    /// alphabets, missing or extra padding, whitespace, non-zero trailing bits, trailing bytes).
    static func decodeBase64(_ text: String) -> [UInt8]? {
        _ = initialized
        let count = text.utf8.count
        if count == 0 { return [] }
        // libsodium 1.0.18 reads bytes 0x80–0xFF as alphabet characters (its constant-time table
        // assumes ASCII; found by the fuzzer), so only the alphabet and padding go past here.
        guard text.utf8.allSatisfy(isBase64Byte) else { return nil }
        // Room for the decoded bytes: 3 per 4 characters, rounded up (count is far from Int.max:
        // it is the length of a string in memory).
        var out = [UInt8](repeating: 0, count: count / 4 * 3 + 3)
        let capacity = out.count
        var length = 0
        // withCString hands libsodium the string's UTF-8 bytes; it checks padding and trailing
        // bits, and b64_end nil makes it refuse input it did not consume entirely.
        let status = text.withCString { chars in
            out.withUnsafeMutableBufferPointer { o -> Int32 in
                guard let o = o.baseAddress else { return -1 }
                return sodium_base642bin(o, capacity, chars, count, nil, &length, nil, sodium_base64_VARIANT_ORIGINAL)
            }
        }
        guard status == 0, length >= 0, length <= capacity else { return nil }
        return Array(out.prefix(length))
    }

    /// Whether `byte` is in the standard alphabet or is the padding `=`.
    private static func isBase64Byte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }

    // MARK: - Hash, random, secretbox

    /// SHA-256 of `bytes`.
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        _ = initialized
        var out = [UInt8](repeating: 0, count: 32)
        // A one-byte stand-in gives empty input an address; its length stays 0.
        let input = bytes.isEmpty ? [0] : bytes
        out.withUnsafeMutableBufferPointer { o in
            input.withUnsafeBufferPointer { b in
                guard let o = o.baseAddress, let b = b.baseAddress else { return }
                _ = crypto_hash_sha256(o, b, UInt64(bytes.count))
            }
        }
        return out
    }

    /// `count` bytes from libsodium's CSPRNG (the kernel's `getrandom`).
    static func randomBytes(_ count: Int) -> [UInt8] {
        _ = initialized
        var out = [UInt8](repeating: 0, count: count)
        out.withUnsafeMutableBytes { o in
            guard let base = o.baseAddress else { return }
            randombytes_buf(base, o.count)
        }
        return out
    }

    /// XSalsa20-Poly1305 of `plaintext`: MAC ‖ ciphertext (`crypto_secretbox_easy`).
    /// `key` and `nonce` must have the secretbox sizes (the callers' types guarantee it).
    static func secretboxSeal(_ plaintext: [UInt8], nonce: [UInt8], key: [UInt8]) -> [UInt8] {
        _ = initialized
        var out = [UInt8](repeating: 0, count: plaintext.count + macBytes)
        // A one-byte stand-in gives an empty plaintext an address; its length stays 0.
        let message = plaintext.isEmpty ? [0] : plaintext
        out.withUnsafeMutableBufferPointer { o in
            message.withUnsafeBufferPointer { m in
                nonce.withUnsafeBufferPointer { n in
                    key.withUnsafeBufferPointer { k in
                        guard let o = o.baseAddress, let m = m.baseAddress, let n = n.baseAddress,
                            let k = k.baseAddress
                        else { return }
                        _ = crypto_secretbox_easy(o, m, UInt64(plaintext.count), n, k)
                    }
                }
            }
        }
        return out
    }

    /// The plaintext of MAC ‖ ciphertext, or nil when the tag does not verify (wrong key, wrong
    /// nonce, altered bytes) or the input is shorter than a tag.
    static func secretboxOpen(_ sealed: [UInt8], nonce: [UInt8], key: [UInt8]) -> [UInt8]? {
        _ = initialized
        guard sealed.count >= macBytes, nonce.count == nonceBytes, key.count == keyBytes else { return nil }
        // One spare byte so the buffer has an address even for an empty plaintext.
        var out = [UInt8](repeating: 0, count: sealed.count - macBytes + 1)
        let status = out.withUnsafeMutableBufferPointer { o in
            sealed.withUnsafeBufferPointer { c in
                nonce.withUnsafeBufferPointer { n in
                    key.withUnsafeBufferPointer { k -> Int32 in
                        guard let o = o.baseAddress, let c = c.baseAddress, let n = n.baseAddress,
                            let k = k.baseAddress
                        else { return -1 }
                        return crypto_secretbox_open_easy(o, c, UInt64(sealed.count), n, k)
                    }
                }
            }
        }
        guard status == 0 else { return nil }
        out.removeLast()
        return out
    }

    /// Compares two byte arrays in time that depends only on their length (`sodium_memcmp`).
    static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                guard let x = x.baseAddress, let y = y.baseAddress else { return a.isEmpty }
                return sodium_memcmp(x, y, a.count) == 0
            }
        }
    }
}
