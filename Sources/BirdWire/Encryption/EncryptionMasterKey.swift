/// The app's 32-byte encryption master key, from which every encrypted channel's key is derived.
/// Only the server side holds it (the app's backend, the sandbox); clients never see it.
///
/// Key material never appears in `description`, `debugDescription`, `dump` or errors.
package struct EncryptionMasterKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// Size of a master key in bytes.
    package static let byteCount = 32

    /// The key's bytes.
    let bytes: [UInt8]

    /// A master key from its 32 bytes.
    package init(bytes: some Collection<UInt8>) throws(EncryptionKeyError) {
        guard bytes.count == Self.byteCount else { throw .wrongLength(byteCount: bytes.count) }
        self.bytes = Array(bytes)
    }

    /// A master key from standard, padded base64, the form the `pusher` SDKs take
    /// (`encryption_master_key_base64`), e.g. the output of `openssl rand -base64 32`.
    package init(base64 text: String) throws(EncryptionKeyError) {
        guard let bytes = Sodium.decodeBase64(text) else { throw .notBase64 }
        try self.init(bytes: bytes)
    }

    /// A fresh random master key (libsodium's CSPRNG).
    package static func random() -> EncryptionMasterKey {
        EncryptionMasterKey(trusted: Sodium.randomBytes(byteCount))
    }

    /// The key of the encrypted channel `channel` (`EncryptionKey.deriveChannelKey`).
    package func channelKey(for channel: String) -> EncryptionKey {
        EncryptionKey.deriveChannelKey(channel: channel, masterKey: self)
    }

    /// Compares in constant time.
    package static func == (a: EncryptionMasterKey, b: EncryptionMasterKey) -> Bool {
        Sodium.constantTimeEquals(a.bytes, b.bytes)
    }

    /// `EncryptionMasterKey(<redacted>)`.
    package var description: String { "EncryptionMasterKey(\(Redaction.placeholder))" }
    /// `EncryptionMasterKey(<redacted>)`.
    package var debugDescription: String { description }
    /// No children, so `dump` and mirrors show no key material.
    package var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    private init(trusted bytes: [UInt8]) { self.bytes = bytes }
}
