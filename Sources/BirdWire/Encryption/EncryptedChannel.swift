/// Wire facts of end-to-end encrypted channels (`private-encrypted-…`, see
/// `ChannelKind.isEncrypted(channelName:)`) beyond the payload itself.
package enum EncryptedChannel {
    /// The auth response member carrying the channel key, standard base64 of 32 bytes
    /// (`EncryptionKey(base64:)`), beside `auth`.
    package static let sharedSecretKey = "shared_secret"

    /// Whether an event named `eventName` (its wire name) on an encrypted channel carries sealed
    /// data: every event except the protocol's own (`pusher:`/`pusher_internal:`, or
    /// `bird:`/`bird_internal:`), which the edge sends in clear.
    package static func carriesEncryptedData(eventName: String, dialect: Dialect) -> Bool {
        !ProtocolEvent.isReserved(eventName, dialect: dialect)
    }
}
