/// A `private-encrypted-` channel: end-to-end encrypted (docs/ENCRYPTION.md). Authorized like a
/// private channel; the auth endpoint's answer (or ``AuthResponse/sharedSecret`` from a custom
/// authorizer) must also carry the channel key as `shared_secret`, or the subscription fails
/// with a `bird:subscription_error` of type `AuthError` and no subscribe is sent.
///
/// Events are decrypted before any handler sees them: handlers, typed bindings, `events(named:)`
/// and `onChannelEvent` receive the plaintext (``ChannelEvent/wasDecrypted`` is true and
/// ``ChannelEvent/ciphertext`` keeps what travelled). An event that does not authenticate under
/// the key makes the client fetch a fresh key once and try again; one that still fails, or is
/// malformed, reaches `onError` as a ``RealtimeError`` of kind ``RealtimeError/Kind/decryption``
/// instead, and the channel stays subscribed. Protocol events travel in clear. Client events
/// cannot be sent (`trigger` throws ``TriggerError/Kind/encryptedChannel``).
public final class PrivateEncryptedChannel: PrivateChannel, @unchecked Sendable {}
