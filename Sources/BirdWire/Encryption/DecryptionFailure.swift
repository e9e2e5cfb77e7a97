/// Why a well-formed encrypted payload did not open.
public enum DecryptionFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The Poly1305 tag did not verify: the payload was sealed under another key (the master key
    /// may have rotated), or altered on the way. The one failure a fresh key can cure.
    case authenticationFailed
    /// The tag verified but the plaintext is not UTF-8 text (events carry text).
    case plaintextNotUTF8

    public var description: String {
        switch self {
        case .authenticationFailed:
            return "encrypted payload did not authenticate under the channel key (wrong key or altered data)"
        case .plaintextNotUTF8:
            return "decrypted payload is not UTF-8 text"
        }
    }
}
