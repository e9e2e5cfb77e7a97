/// Why an encrypted event's `data` did not decrypt (`EncryptedPayload.decrypt`).
public enum EncryptedDataError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The data is not a well-formed payload; no key can open it.
    case malformed(EncryptedPayloadError)
    /// The payload is well-formed but did not open under the key.
    case undecryptable(DecryptionFailure)

    /// Whether fetching a fresh channel key (re-authorising) could help: only when the tag did not
    /// verify, the sign of a rotated master key. pusher-js and pusher-websocket-swift refetch the
    /// key once in that case and drop the event only when the fresh key fails too.
    public var warrantsKeyRefresh: Bool { self == .undecryptable(.authenticationFailed) }

    public var description: String {
        switch self {
        case .malformed(let error): return error.description
        case .undecryptable(let failure): return failure.description
        }
    }
}
