/// Why an event on an end-to-end encrypted channel (`private-encrypted-…`) was reported instead
/// of delivered: ``RealtimeError/decryption`` of a ``RealtimeError/Kind/decryption`` error.
/// The channel stays subscribed whatever the problem; later events are handled as usual.
public enum DecryptionProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The payload did not decrypt. `.malformed(_)`: it is not a `{"nonce","ciphertext"}`
    /// envelope of the right sizes (no key could open it; no fresh key was fetched).
    /// `.undecryptable(.authenticationFailed)`: it did not authenticate under the channel key,
    /// nor under the fresh key fetched once for it (the re-authorise-once rule).
    /// `.undecryptable(.plaintextNotUTF8)`: authentic, but not text.
    case data(EncryptedDataError)
    /// The event needed a fresh key and fetching one failed (the auth endpoint or authorizer
    /// refused, or answered without a usable `shared_secret`).
    case keyRefreshFailed(RealtimeAuthError)
    /// The client held no key for the channel (an event for a channel not subscribed on this
    /// connection).
    case noKey
    /// The connection ended while a fresh key was fetched for the event.
    case connectionLost
    /// Too many events were already waiting for a fresh key (`events` events or `bytes` bytes).
    case backlogFull(events: Int, bytes: Int)

    public var description: String {
        switch self {
        case .data(let error):
            if error.warrantsKeyRefresh { return "\(error); a fresh channel key did not open it either" }
            return error.description
        case .keyRefreshFailed(let error):
            return
                "it did not authenticate under the channel key and a fresh key could not be fetched: \(error.message)"
        case .noKey:
            return "no channel key is held (the channel is not subscribed on this connection)"
        case .connectionLost:
            return "the connection ended while a fresh channel key was fetched"
        case .backlogFull(let events, let bytes):
            return "more than \(events) events (or \(bytes) bytes) were waiting for a fresh channel key"
        }
    }
}
