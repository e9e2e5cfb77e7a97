/// A value that holds key material and never prints it: `description` and `debugDescription`
/// are its type name and `<redacted>` (`EncryptionKey(<redacted>)`), and its mirror has no
/// children, so `dump` shows none either.
package protocol RedactedValue: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {}

extension RedactedValue {
    /// `TypeName(<redacted>)`.
    package var description: String { "\(Self.self)(\(Redaction.placeholder))" }
    /// `TypeName(<redacted>)`.
    package var debugDescription: String { description }
    /// No children, so `dump` and mirrors show no key material.
    package var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

/// A 32-byte secret key (``EncryptionKey``, ``EncryptionMasterKey``): made from exactly 32 bytes
/// or their standard, padded base64, compared in constant time (the synthesised `==` compares
/// the ``KeyMaterial``), never printed
/// (``RedactedValue``). Its bytes stay inside BirdWire (``KeyMaterial``).
package protocol RedactedKey: RedactedValue, Sendable, Equatable {
    /// The key's checked bytes.
    var material: KeyMaterial { get }
    /// A key holding `material`.
    init(material: KeyMaterial)
}

extension RedactedKey {
    /// Size of a key in bytes.
    package static var byteCount: Int { KeyMaterial.byteCount }

    /// The key's bytes.
    var bytes: [UInt8] { material.bytes }

    /// A key from its 32 bytes.
    package init(bytes: some Collection<UInt8>) throws(EncryptionKeyError) {
        self.init(material: try KeyMaterial(bytes: bytes))
    }

    /// A key from standard, padded base64 (`openssl rand -base64 32`, an auth response's
    /// `shared_secret`, the `pusher` SDKs' `encryption_master_key_base64`).
    package init(base64 text: String) throws(EncryptionKeyError) {
        self.init(material: try KeyMaterial(base64: text))
    }
}
