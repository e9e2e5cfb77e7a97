import BirdWire

extension FuzzHarness {
    /// End-to-end encrypted event data: `EncryptedPayload` parsing and opening, and the key parsers.
    static let encrypted = FuzzHarness(
        name: "encrypted",
        summary: "bytes -> EncryptedPayload(parsing:) -> open(with:) under a fixed channel key, text and "
            + "seal round trips; EncryptionKey/EncryptionMasterKey(base64:)",
        entry: { data, size in
            EncryptedPayloadFuzz.run(data.fuzzBytes(count: size))
            return 0
        })
}

/// The encrypted harness. Besides "never crash", it checks what the encryption model promises,
/// trapping (a fuzzer finding) when one breaks:
/// - a parsed payload's `text` parses back to an equal payload;
/// - a payload that opens re-seals (same key and nonce) to exactly its ciphertext, and its text
///   decrypts to the same plaintext through `EncryptedPayload.decrypt`;
/// - base64 keys are canonical: a key that parses prints back as the very text it came from.
///
/// The key is the one of `Scripts/fuzz-seeds/encrypted/` (the pusher SDK's vector for channel
/// `private-encrypted-orders`), so seeded payloads reach the authenticated path.
enum EncryptedPayloadFuzz {
    static let key: EncryptionKey? = try? EncryptionKey(base64: "dKdh8WYKCKhaBvYrKaTDAzpo57WbTXY/xVjVbHX/sMI=")

    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let key else { fatalError("the harness key does not parse") }

        for limit in [EncryptedPayload.defaultMaxTextBytes, 64] {
            do {
                let payload = try EncryptedPayload(parsing: text, maxTextBytes: limit)
                guard (try? EncryptedPayload(parsing: payload.text, maxTextBytes: .max)) == payload else {
                    fatalError("payload text does not parse back: \(payload.text)")
                }
                checkOpen(payload, key: key)
            } catch {
                _ = error.description
            }
        }
        do {
            _ = try EncryptedPayload.decrypt(text, with: key)
        } catch {
            _ = (error.description, error.warrantsKeyRefresh)
        }

        if let parsed = try? EncryptionKey(base64: text), parsed.revealBase64() != text {
            fatalError("a key parsed from non-canonical base64")
        }
        if (try? EncryptionMasterKey(base64: text)) != nil, (try? EncryptionKey(base64: text)) == nil {
            fatalError("master and channel keys disagree on the same text")
        }
    }

    private static func checkOpen(_ payload: EncryptedPayload, key: EncryptionKey) {
        do {
            let plaintext = try payload.open(with: key)
            let resealed = EncryptedPayload.seal(plaintext: plaintext, key: key, nonce: payload.nonce)
            guard resealed == payload else { fatalError("re-sealing the plaintext changed the ciphertext") }
            guard (try? EncryptedPayload.decrypt(payload.text, with: key)) == plaintext else {
                fatalError("decrypt(text) disagrees with open()")
            }
        } catch {
            _ = error.description
        }
    }
}
