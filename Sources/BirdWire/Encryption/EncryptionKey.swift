/// The 32-byte secretbox key of one end-to-end encrypted channel: what an auth endpoint returns
/// base64-encoded as `shared_secret`, derived from the app's master key and the channel name
/// (`deriveChannelKey(channel:masterKey:)`).
///
/// Key material never appears in `description`, `debugDescription`, `dump` or errors; only
/// `revealBase64()` gives it out, for the one place it belongs (an auth response).
package struct EncryptionKey: RedactedKey {
    /// The key's checked bytes.
    package let material: KeyMaterial

    /// A key holding `material`.
    package init(material: KeyMaterial) { self.material = material }

    /// The channel key of `channel`: SHA-256 of the channel name's UTF-8 bytes followed by the
    /// master key's bytes — what the `pusher` server SDKs put in `shared_secret`.
    package static func deriveChannelKey(channel: String, masterKey: EncryptionMasterKey) -> EncryptionKey {
        EncryptionKey(material: KeyMaterial(trusted: Sodium.sha256(Array(channel.utf8) + masterKey.bytes)))
    }

    /// The key as standard, padded base64: secret. For an auth response's `shared_secret` only.
    package func revealBase64() -> String { Sodium.base64(bytes) }
}
