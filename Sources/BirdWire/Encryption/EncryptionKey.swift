/// The 32-byte secretbox key of one end-to-end encrypted channel: what an auth endpoint returns
/// base64-encoded as `shared_secret`, derived from the app's master key and the channel name
/// (`deriveChannelKey(channel:masterKey:)`).
///
/// Key material never appears in `description`, `debugDescription`, `dump` or errors; only
/// `revealBase64()` gives it out, for the one place it belongs (an auth response).
package struct EncryptionKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// Size of a key in bytes.
    package static let byteCount = 32

    /// The key's bytes.
    let bytes: [UInt8]

    /// A key from its 32 bytes.
    package init(bytes: some Collection<UInt8>) throws(EncryptionKeyError) {
        guard bytes.count == Self.byteCount else { throw .wrongLength(byteCount: bytes.count) }
        self.bytes = Array(bytes)
    }

    /// A key from standard, padded base64 (an auth response's `shared_secret`).
    package init(base64 text: String) throws(EncryptionKeyError) {
        guard let bytes = Sodium.decodeBase64(text) else { throw .notBase64 }
        try self.init(bytes: bytes)
    }

    /// The channel key of `channel`: SHA-256 of the channel name's UTF-8 bytes followed by the
    /// master key's bytes — what the `pusher` server SDKs put in `shared_secret`.
    package static func deriveChannelKey(channel: String, masterKey: EncryptionMasterKey) -> EncryptionKey {
        EncryptionKey(trusted: Sodium.sha256(Array(channel.utf8) + masterKey.bytes))
    }

    /// The key as standard, padded base64: secret. For an auth response's `shared_secret` only.
    package func revealBase64() -> String { Sodium.base64(bytes) }

    /// Compares in constant time.
    package static func == (a: EncryptionKey, b: EncryptionKey) -> Bool {
        Sodium.constantTimeEquals(a.bytes, b.bytes)
    }

    /// `EncryptionKey(<redacted>)`.
    package var description: String { "EncryptionKey(\(Redaction.placeholder))" }
    /// `EncryptionKey(<redacted>)`.
    package var debugDescription: String { description }
    /// No children, so `dump` and mirrors show no key material.
    package var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    /// A key from bytes already known to be 32 long.
    private init(trusted bytes: [UInt8]) { self.bytes = bytes }
}
