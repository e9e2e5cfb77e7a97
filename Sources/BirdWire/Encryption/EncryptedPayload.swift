/// The `data` of an event on an end-to-end encrypted channel: JSON text
/// `{"nonce": "<base64 of 24 bytes>", "ciphertext": "<base64>"}`, the plaintext sealed with
/// NaCl's `secretbox` (XSalsa20-Poly1305) under the channel's key. `ciphertext` holds the
/// 16-byte Poly1305 tag followed by the encrypted bytes — the layout of libsodium's
/// `crypto_secretbox_easy`, PyNaCl's `SecretBox.encrypt(…).ciphertext` and tweetnacl.
package struct EncryptedPayload: Sendable, Equatable {
    /// Size of the Poly1305 tag at the start of every ciphertext.
    package static let macByteCount = 16

    /// The default limit on the payload text `init(parsing:)` accepts: 256 KiB. Well above what
    /// any edge delivers (Pusher and the sandbox cap an event's data at 10 KiB, soketi at 100 KB
    /// by default; the `pusher` SDK encrypts up to 30 KiB of plaintext, about 41 KB sealed), so a
    /// legitimate event is never refused, while a hostile payload is refused before it is parsed.
    package static let defaultMaxTextBytes = 256 * 1024

    /// The payload's nonce.
    package let nonce: EncryptionNonce
    /// The Poly1305 tag followed by the encrypted bytes (at least `macByteCount` bytes).
    package let ciphertext: [UInt8]

    /// Parses an event's `data` text. Members other than `nonce` and `ciphertext` are ignored;
    /// text longer than `maxTextBytes` (UTF-8) is refused before it is parsed.
    package init(parsing text: String, maxTextBytes: Int = EncryptedPayload.defaultMaxTextBytes)
        throws(EncryptedPayloadError)
    {
        let count = text.utf8.count
        guard count <= maxTextBytes else { throw .tooLarge(byteCount: count, limit: maxTextBytes) }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: text)
        } catch {
            throw .notJSON(error)
        }
        guard value.objectValue != nil else { throw .notAnObject }
        let nonceText = try Self.stringField(.nonce, of: value)
        let ciphertextText = try Self.stringField(.ciphertext, of: value)

        guard let nonceBytes = Sodium.decodeBase64(nonceText) else { throw .notBase64(.nonce) }
        guard let nonce = EncryptionNonce(bytes: nonceBytes) else {
            throw .wrongNonceLength(byteCount: nonceBytes.count)
        }
        guard let sealed = Sodium.decodeBase64(ciphertextText) else { throw .notBase64(.ciphertext) }
        guard sealed.count >= Self.macByteCount else { throw .ciphertextTooShort(byteCount: sealed.count) }
        self.init(nonce: nonce, ciphertext: sealed)
    }

    /// Seals `plaintext` (its UTF-8 bytes) under `key` with `nonce` — a fresh random one unless
    /// given. Never reuse a nonce under the same key.
    package static func seal(plaintext: String, key: EncryptionKey, nonce: EncryptionNonce = .random())
        -> EncryptedPayload
    {
        EncryptedPayload(
            nonce: nonce, ciphertext: Sodium.secretboxSeal(Array(plaintext.utf8), nonce: nonce.bytes, key: key.bytes))
    }

    /// The plaintext, when the payload authenticates under `key` and is UTF-8 text.
    package func open(with key: EncryptionKey) throws(DecryptionFailure) -> String {
        guard let bytes = Sodium.secretboxOpen(ciphertext, nonce: nonce.bytes, key: key.bytes) else {
            throw .authenticationFailed
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .plaintextNotUTF8 }
        return text
    }

    /// Parses `text` and opens it with `key`: an encrypted event's `data` to its plaintext.
    package static func decrypt(
        _ text: String, with key: EncryptionKey, maxTextBytes: Int = EncryptedPayload.defaultMaxTextBytes
    ) throws(EncryptedDataError) -> String {
        let payload: EncryptedPayload
        do {
            payload = try EncryptedPayload(parsing: text, maxTextBytes: maxTextBytes)
        } catch {
            throw .malformed(error)
        }
        do {
            return try payload.open(with: key)
        } catch {
            throw .undecryptable(error)
        }
    }

    /// The payload as an event's `data` text: `{"nonce":"…","ciphertext":"…"}`.
    package var text: String {
        "{\"nonce\":\"\(nonce.base64)\",\"ciphertext\":\"\(Sodium.base64(ciphertext))\"}"
    }

    private init(nonce: EncryptionNonce, ciphertext: [UInt8]) {
        self.nonce = nonce
        self.ciphertext = ciphertext
    }

    private static func stringField(_ field: EncryptedPayloadError.Field, of value: JSONValue)
        throws(EncryptedPayloadError) -> String
    {
        guard let member = value[field.rawValue] else { throw .missingField(field) }
        guard let string = member.stringValue else { throw .fieldNotString(field) }
        return string
    }
}
