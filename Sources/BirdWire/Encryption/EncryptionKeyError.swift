/// Why bytes or text are not an encryption key. Never carries the input (it may be a key).
package enum EncryptionKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text is not standard, padded base64 (RFC 4648 §4).
    case notBase64
    /// The key decodes to `byteCount` bytes instead of 32.
    case wrongLength(byteCount: Int)

    package var description: String {
        switch self {
        case .notBase64:
            return "encryption key is not standard base64 (A–Z a–z 0–9 + /, padded with =)"
        case .wrongLength(let count):
            return "encryption key is \(count) bytes; it must be \(EncryptionKey.byteCount)"
        }
    }
}
