/// 32 secret bytes, checked on the way in and compared in constant time: what ``EncryptionKey``
/// and ``EncryptionMasterKey`` hold. Its bytes and initialisers are BirdWire's
/// own, and it prints as `KeyMaterial(<redacted>)`.
package struct KeyMaterial: Sendable, Equatable, RedactedValue {
    /// Size of a key in bytes.
    static let byteCount = 32

    /// The key's bytes.
    let bytes: [UInt8]

    /// Key material from exactly 32 bytes.
    init(bytes: some Collection<UInt8>) throws(EncryptionKeyError) {
        guard bytes.count == Self.byteCount else { throw .wrongLength(byteCount: bytes.count) }
        self.bytes = Array(bytes)
    }

    /// Key material from standard, padded base64 of 32 bytes.
    init(base64 text: String) throws(EncryptionKeyError) {
        guard let bytes = Sodium.decodeBase64(text) else { throw .notBase64 }
        try self.init(bytes: bytes)
    }

    /// Bytes already known to be 32 long (a hash, the CSPRNG's output).
    init(trusted bytes: [UInt8]) { self.bytes = bytes }

    /// Compares in constant time.
    package static func == (a: KeyMaterial, b: KeyMaterial) -> Bool { Sodium.constantTimeEquals(a.bytes, b.bytes) }
}
