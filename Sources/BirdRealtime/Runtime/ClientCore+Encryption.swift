/// End-to-end encrypted channels (`private-encrypted-…`, docs/ENCRYPTION.md): the channel key
/// taken from the auth answer, events decrypted before delivery, and the re-authorise-once rule
/// (`EncryptedChannelState` decides; this extension performs). All on the client's queue; the
/// key never leaves the subscription record (never logged, reported or delivered).
extension ClientCore {
    // MARK: - Keys

    /// The channel key in `response` for the encrypted channel `name`, or the error that fails
    /// its authorization: a missing `shared_secret`, or one that is not base64 of 32 bytes.
    /// The messages never repeat the value.
    func channelKey(from response: AuthResponse, channel name: String) -> Result<EncryptionKey, RealtimeAuthError> {
        guard let secret = response.sharedSecret else {
            return .failure(
                RealtimeAuthError(
                    endpoint: channelAuthorizerName, status: 0,
                    message: "the auth response has no \(EncryptedChannel.sharedSecretKey) for encrypted channel "
                        + "\(name) (its channel key; does the server SDK have the encryption master key?)"))
        }
        do {
            return .success(try EncryptionKey(base64: secret))
        } catch {
            return .failure(
                RealtimeAuthError(
                    endpoint: channelAuthorizerName, status: 0,
                    message: "the auth response's \(EncryptedChannel.sharedSecretKey) for encrypted channel \(name) "
                        + "is not a channel key: \(error)"))
        }
    }

    /// What signs channel subscriptions, as an auth error names it.
    var channelAuthorizerName: String {
        options.authorizer == nil ? (options.authEndpoint?.absoluteString ?? "") : "authorizer"
    }

    // MARK: - Events

    /// An app or client event on a subscribed encrypted channel: decrypted and delivered, held
    /// while a fresh key is fetched, or reported.
    func receiveEncrypted(_ message: WireMessage, channel name: String) {
        let sealed = EncryptedChannelState.Sealed(
            name: message.event, text: message.data?.text ?? "", memberId: message.memberId, offset: message.offset)
        guard let actions = records[name]?.encryption?.receive(sealed) else { return }
        performEncryption(actions, channel: name)
    }

    /// Performs what the channel's `EncryptedChannelState` asked for.
    func performEncryption(_ actions: [EncryptedChannelState.Action], channel name: String) {
        for action in actions {
            switch action {
            case .deliver(let event, let plaintext):
                guard let record = records[name] else { continue }
                enqueue(
                    registry: record.channel.registry, channel: name, name: event.name,
                    payload: .decrypted(DecryptedText(plaintext: plaintext, ciphertext: event.text)),
                    memberId: event.memberId, stream: streamStamp(offset: event.offset, channel: name))
            case .report(let event, let problem):
                log(.warning, "event \(event.name) on \(name) not delivered: \(problem)")
                notify(
                    .error(
                        RealtimeError(
                            kind: .decryption, message: "event \(event.name) on \(name) was not delivered: \(problem)",
                            channel: name, event: event.name, detail: problem.description, decryption: problem)))
            case .fetchKey(let token):
                refreshKey(channel: name, token: token)
            }
        }
    }

    // MARK: - The re-authorise-once rule

    /// Fetches a fresh key for `name` with a new auth request for the current connection (the
    /// subscription stays as it is: nothing is sent on the socket).
    private func refreshKey(channel name: String, token: Int) {
        guard let record = records[name], let connectionId = machine.connectionId else {
            let error = RealtimeAuthError(endpoint: channelAuthorizerName, status: 0, message: "not connected")
            performEncryption(records[name]?.encryption?.keyRefreshFailed(token: token, error) ?? [], channel: name)
            return
        }
        let subscription = (channel: ObjectIdentifier(record.channel), token: record.token)
        log(.info, "an event on \(name) did not authenticate under the channel key; fetching a fresh key once")
        startTask { [self] in
            let result = await self.authorizeChannel(name, connectionId: connectionId)
            self.queue.async {
                self.keyRefreshFinished(
                    channel: name, subscription: subscription, token: token, connectionId: connectionId, result: result)
            }
        }
    }

    private func keyRefreshFinished(
        channel name: String, subscription: (channel: ObjectIdentifier, token: Int), token: Int,
        connectionId: String, result: Result<AuthResponse, RealtimeAuthError>
    ) {
        // A new subscription (or none, or a new channel object after unsubscribe and subscribe)
        // since the request: the refresh is void; the state was reset.
        guard !isShutDown, let record = records[name], ObjectIdentifier(record.channel) == subscription.channel,
            record.token == subscription.token, machine.connectionId == connectionId
        else { return }
        let actions: [EncryptedChannelState.Action]
        switch result.flatMap({ channelKey(from: $0, channel: name) }) {
        case .success(let key):
            log(.info, "fresh key for \(name) fetched")
            actions = records[name]?.encryption?.keyRefreshed(token: token, key: key) ?? []
        case .failure(let error):
            log(.warning, "fresh key for \(name) not fetched: \(error.message) (status \(error.status))")
            actions = records[name]?.encryption?.keyRefreshFailed(token: token, error) ?? []
        }
        performEncryption(actions, channel: name)
    }

    // MARK: - Subscription lifecycle

    /// The channel `name`'s subscription ended (connection lost, refused): its key is forgotten and
    /// events held for a refresh are reported.
    func encryptedSubscriptionEnded(_ name: String) {
        guard let actions = records[name]?.encryption?.unsubscribed(), !actions.isEmpty else { return }
        performEncryption(actions, channel: name)
    }
}
