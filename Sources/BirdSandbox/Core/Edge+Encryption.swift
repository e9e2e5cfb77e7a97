import BirdWire

/// End-to-end encrypted channels on the sandbox (docs/ENCRYPTION.md): the edge relays sealed
/// data untouched and never decrypts; with a master key it also plays the app's backend for
/// demos and tests — channel keys for the demo auth endpoint, sealing for the control API's
/// publish — and rotates the key on request.
extension Edge {
    /// What the HTTP API answers for one event sent to several channels when one is encrypted:
    /// each channel needs its own sealing (the official SDKs refuse such a trigger with this text).
    static let multiChannelEncryptedError = "You cannot trigger to multiple channels when using encrypted channels"

    /// The key of the encrypted channel `channel` under the master key in force, if there is one.
    func channelKey(for channel: String) -> EncryptionKey? {
        encryptionMasterKey?.channelKey(for: channel)
    }

    /// The `data` a control publish (or burst) sends to `channel`: for an encrypted channel and
    /// `encrypt`, its text as an unsigned publish would send it (``unsignedPayload(_:)``), sealed
    /// under the channel key with a fresh nonce (the `{"nonce","ciphertext"}` envelope, as a
    /// string); otherwise `data` unchanged.
    func controlPublishData(channel: String, data: JSONValue?, encrypt: Bool) throws(ControlFieldError) -> JSONValue? {
        let target = deliveryChannel(channel)
        guard encrypt, ChannelKind.isEncrypted(channelName: target) else { return data }
        guard let key = channelKey(for: target) else {
            throw ControlFieldError(
                message: "\(target) is an encrypted channel and the sandbox has no encryption master key "
                    + "(start it with --encryption-master-key, or send \"encrypted\": false to publish data as it is)")
        }
        let plaintext = Edge.unsignedPayload(data).text
        return .string(EncryptedPayload.seal(plaintext: plaintext, key: key).text)
    }

    /// Replaces the master key (a fresh random one unless given): every channel key changes, so
    /// subscribers' keys no longer open new events until they re-authorise. Returns whether a key
    /// was in force before.
    @discardableResult
    func rotateEncryptionMasterKey(to key: EncryptionMasterKey?) -> Bool {
        let had = encryptionMasterKey != nil
        encryptionMasterKey = key ?? .random()
        log("encryption: master key \(had ? "rotated" : "set"); every channel key changed")
        return had
    }
}
