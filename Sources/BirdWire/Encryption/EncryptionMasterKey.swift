/// The app's 32-byte encryption master key, from which every encrypted channel's key is derived.
/// Only the server side holds it (the app's backend, the sandbox); clients never see it. Made
/// from 32 bytes or their base64 (`openssl rand -base64 32`).
///
/// Key material never appears in `description`, `debugDescription`, `dump` or errors.
package struct EncryptionMasterKey: RedactedKey {
    /// The key's checked bytes.
    package let material: KeyMaterial

    /// A master key holding `material`.
    package init(material: KeyMaterial) { self.material = material }

    /// A fresh random master key (libsodium's CSPRNG).
    package static func random() -> EncryptionMasterKey {
        EncryptionMasterKey(material: KeyMaterial(trusted: Sodium.randomBytes(KeyMaterial.byteCount)))
    }

    /// The key of the encrypted channel `channel` (`EncryptionKey.deriveChannelKey`).
    package func channelKey(for channel: String) -> EncryptionKey {
        EncryptionKey.deriveChannelKey(channel: channel, masterKey: self)
    }
}
