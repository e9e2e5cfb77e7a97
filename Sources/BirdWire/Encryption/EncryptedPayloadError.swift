/// Why an event's `data` is not a well-formed encrypted payload (`{"nonce": …, "ciphertext": …}`).
/// Such an event cannot be decrypted with any key; fetching a fresh key would not help.
public enum EncryptedPayloadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The two fields of a payload.
    public enum Field: String, Sendable, Equatable, CustomStringConvertible {
        /// `nonce`: base64 of 24 bytes.
        case nonce
        /// `ciphertext`: base64 of the Poly1305 tag followed by the encrypted bytes.
        case ciphertext

        public var description: String { rawValue }
    }

    /// The text is longer than the limit it was parsed with (checked before anything else).
    case tooLarge(byteCount: Int, limit: Int)
    /// The text is not JSON.
    case notJSON(JSONParseError)
    /// The JSON is not an object.
    case notAnObject
    /// The object has no such member.
    case missingField(Field)
    /// The member is not a JSON string.
    case fieldNotString(Field)
    /// The member is not standard, padded base64.
    case notBase64(Field)
    /// The nonce decodes to `byteCount` bytes instead of 24.
    case wrongNonceLength(byteCount: Int)
    /// The ciphertext decodes to `byteCount` bytes, fewer than the 16-byte tag.
    case ciphertextTooShort(byteCount: Int)

    public var description: String {
        switch self {
        case .tooLarge(let count, let limit):
            return "encrypted payload is \(count) bytes, over the limit of \(limit)"
        case .notJSON(let error):
            return "encrypted payload is not JSON (\(error))"
        case .notAnObject:
            return "encrypted payload is not a JSON object with nonce and ciphertext"
        case .missingField(let field):
            return "encrypted payload has no \"\(field)\""
        case .fieldNotString(let field):
            return "encrypted payload's \"\(field)\" is not a string"
        case .notBase64(let field):
            return "encrypted payload's \"\(field)\" is not standard base64"
        case .wrongNonceLength(let count):
            return "encrypted payload's nonce is \(count) bytes; it must be \(EncryptionNonce.byteCount)"
        case .ciphertextTooShort(let count):
            let tag = EncryptedPayload.macByteCount
            return "encrypted payload's ciphertext is \(count) bytes, shorter than its \(tag)-byte tag"
        }
    }
}
