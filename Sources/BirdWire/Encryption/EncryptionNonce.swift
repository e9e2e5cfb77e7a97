/// The 24-byte nonce of one sealed payload. Not secret, but it must never repeat under one key:
/// `random()` (libsodium's CSPRNG) is the default wherever a payload is sealed; tests inject
/// fixed nonces through `init(bytes:)`.
package struct EncryptionNonce: Sendable, Hashable, CustomStringConvertible {
    /// Size of a nonce in bytes (XSalsa20's extended nonce).
    package static let byteCount = 24

    /// The nonce's bytes.
    package let bytes: [UInt8]

    /// A nonce from its 24 bytes, or nil for any other length.
    package init?(bytes: some Collection<UInt8>) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = Array(bytes)
    }

    /// A fresh random nonce.
    package static func random() -> EncryptionNonce {
        EncryptionNonce(trusted: Sodium.randomBytes(byteCount))
    }

    /// The nonce as standard, padded base64 (the payload's `nonce` field).
    package var base64: String { Sodium.base64(bytes) }

    /// The base64 form.
    package var description: String { base64 }

    private init(trusted bytes: [UInt8]) { self.bytes = bytes }
}
