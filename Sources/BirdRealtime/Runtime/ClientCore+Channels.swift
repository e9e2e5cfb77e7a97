import Foundation

/// Subscribe, unsubscribe, authorization, timeouts, re-subscription (docs/PROTOCOL.md § Channels across reconnects).
extension ClientCore {
    // MARK: - From any thread

    func subscribe(_ name: String, resumingFrom position: StreamPosition? = nil) -> Channel {
        let (channel, created) = channelTable.withLock { table -> (Channel, Bool) in
            if let existing = table[name] { return (existing, false) }
            let channel: Channel
            switch ChannelKind(channelName: name) {
            case .presence: channel = PresenceChannel(name: name, core: self, resumingFrom: position)
            case .private where ChannelKind.isEncrypted(channelName: name):
                channel = PrivateEncryptedChannel(name: name, core: self, resumingFrom: position)
            case .private: channel = PrivateChannel(name: name, core: self, resumingFrom: position)
            case .public, .member: channel = Channel(name: name, core: self, resumingFrom: position)
            }
            table[name] = channel
            return (channel, true)
        }
        if created {
            queue.async { self.activate(channel) }
        }
        return channel
    }

    func unsubscribe(_ name: String) {
        guard let channel = channelTable.withLock({ $0.removeValue(forKey: name) }) else { return }
        channel.reset()
        queue.async { self.deactivate(channel) }
    }

    // MARK: - On the queue

    private func activate(_ channel: Channel) {
        guard !isShutDown, channelTable.withLock({ $0[channel.name] === channel }) else { return }
        records[channel.name] = SubscriptionRecord(channel: channel)
        if let id = machine.connectionId {
            var batch: [String] = []
            beginSubscribe(channel.name, connectionId: id, batch: &batch)
            send(batch)
        }
    }

    private func deactivate(_ channel: Channel) {
        guard let record = records[channel.name], record.channel === channel else { return }
        stopSubscribeTimeout(channel.name)
        records[channel.name] = nil
        channel.reset()
        switch record.phase {
        case .pending, .subscribed, .timedOut:
            log(.info, "unsubscribing \(channel.name)")
            send([
                WireMessage(
                    event: ProtocolEvent.unsubscribe.wireName(dialect),
                    value: ["channel": .string(channel.name)]
                ).encode()
            ])
        case .idle, .authorizing:
            break
        }
    }

    /// Subscribes every channel on a new connection; public channels' frames go in one write.
    func resubscribeAll(connectionId: String) {
        var batch: [String] = []
        for name in records.keys.sorted() {
            beginSubscribe(name, connectionId: connectionId, batch: &batch)
        }
        send(batch)
    }

    /// Starts one subscription: directly for public channels (frame appended to `batch`), through
    /// the authorizer for private and presence ones.
    func beginSubscribe(_ name: String, connectionId: String, batch: inout [String]) {
        guard var record = records[name] else { return }
        stopSubscribeTimeout(name)
        record.token += 1
        record.myId = nil
        let token = record.token
        let channel = record.channel
        guard Limits.isValidChannelName(name) else {
            failLocally(
                name, record, phase: .idle,
                error: [
                    "type": "InvalidChannelName",
                    "error": .string("channel names are 1–200 characters of A-Z a-z 0-9 _ - = @ , . ;"),
                    "status": 0,
                ])
            return
        }
        if channel.kind.requiresAuthorization {
            record.phase = .authorizing
            records[name] = record
            startTask { [self] in
                let result = await self.authorizeChannel(name, connectionId: connectionId)
                self.queue.async {
                    self.authorizationFinished(name, token: token, connectionId: connectionId, result: result)
                }
            }
        } else {
            record.phase = .pending
            records[name] = record
            batch.append(subscribeFrame(name, auth: nil, memberData: nil))
            armSubscribeTimeout(name, token: token)
        }
    }

    private func authorizationFinished(
        _ name: String, token: Int, connectionId: String,
        result: Result<AuthResponse, RealtimeAuthError>
    ) {
        guard !isShutDown, var record = records[name], record.token == token, record.phase == .authorizing,
            machine.connectionId == connectionId
        else { return }
        let channel = record.channel
        let response: AuthResponse
        switch result {
        case .success(let value):
            response = value
        case .failure(let error):
            authorizationFailed(name, error)
            return
        }
        var memberData: String?
        if channel.kind == .presence {
            guard let data = response.memberData else {
                authorizationFailed(
                    name,
                    RealtimeAuthError(
                        endpoint: options.authorizer == nil
                            ? (options.authEndpoint?.absoluteString ?? "") : "authorizer",
                        status: 0,
                        message: "the auth response has no \(dialect.presenceDataKey) for presence channel \(name)"))
                return
            }
            memberData = data
            let id = JSONValue.fromPayload(data)[dialect.presenceIdKey]
            record.myId = id.map { $0.stringValue ?? $0.description }
        }
        var keyActions: [EncryptedChannelState.Action] = []
        if channel.isEncrypted {
            // No key, no subscription: the channel's events could not be read (ClientCore+Encryption).
            switch channelKey(from: response, channel: name) {
            case .success(let key): keyActions = record.encryption?.subscribed(key: key) ?? []
            case .failure(let error):
                authorizationFailed(name, error)
                return
            }
        }
        record.phase = .pending
        records[name] = record
        send([subscribeFrame(name, auth: response.auth, memberData: memberData)])
        armSubscribeTimeout(name, token: token)
        performEncryption(keyActions, channel: name)
    }

    private func authorizationFailed(_ name: String, _ error: RealtimeAuthError) {
        guard let record = records[name] else { return }
        failLocally(
            name, record, phase: .idle,
            warning: "authorization of \(name) failed: \(error.message) (status \(error.status))",
            error: [
                "type": "AuthError", "error": .string(error.message), "status": JSONValue(error.status),
                "endpoint": .string(error.endpoint),
            ])
    }

    /// A subscription failed on this side (bad name, authorizer, timeout): `record` takes `phase`,
    /// `warning` is logged, and the channel's handlers get a `subscription_error` carrying `error`.
    private func failLocally(
        _ name: String, _ record: SubscriptionRecord, phase: SubscriptionRecord.Phase, warning: String? = nil,
        error: JSONObject
    ) {
        var record = record
        record.phase = phase
        records[name] = record
        if let warning { log(.warning, warning) }
        deliver(
            registry: record.channel.registry, channel: name, name: BirdProtocol.Event.subscriptionError,
            value: .object(error))
    }

    func subscribeFrame(_ name: String, auth: String?, memberData: String?) -> String {
        var data: JSONObject = ["channel": .string(name)]
        if let auth { data["auth"] = .string(auth) }
        if let memberData { data[dialect.presenceDataKey] = .string(memberData) }
        addResumePosition(to: &data, channel: name)
        return WireMessage(event: ProtocolEvent.subscribe.wireName(dialect), value: .object(data)).encode()
    }

    // MARK: - Subscribe timeouts (one timer for all: SubscribeTimeouts.swift)

    private func armSubscribeTimeout(_ name: String, token: Int) {
        performSubscribeTimer(
            subscribeTimeouts.start(
                name, token: token, now: environment.clock.uptime, timeout: options.subscribeTimeout))
    }

    /// `name` no longer waits for the answer to its subscribe: its timeout is dropped.
    func stopSubscribeTimeout(_ name: String) {
        performSubscribeTimer(subscribeTimeouts.stop(name))
    }

    private func performSubscribeTimer(_ action: SubscribeTimeouts.TimerAction?) {
        switch action {
        case .arm(let after)?:
            arm(.subscribe, after: after) { core in core.subscribeTimerFired() }
        case .cancel?:
            cancelTimer(.subscribe)
        case nil:
            break
        }
    }

    private func subscribeTimerFired() {
        let (due, next) = subscribeTimeouts.timerFired(now: environment.clock.uptime)
        performSubscribeTimer(next)
        for item in due { subscribeTimedOut(item.channel, token: item.token) }
    }

    private func subscribeTimedOut(_ name: String, token: Int) {
        guard !isShutDown, let record = records[name], record.token == token, record.phase == .pending else { return }
        failLocally(
            name, record, phase: .timedOut,
            warning: "no answer to the subscription of \(name) within \(options.subscribeTimeout)",
            error: [
                "type": "Timeout",
                "error": .string(
                    "no answer to the subscription within \(options.subscribeTimeout); retried on the next connection"),
                "status": 0,
            ])
    }

    /// A subscription was refused (wire error naming the channel): not subscribed, retried next connection.
    func subscriptionFailed(_ name: String) {
        guard var record = records[name] else { return }
        switch record.phase {
        case .pending, .authorizing, .timedOut:
            stopSubscribeTimeout(name)
            record.token += 1
            record.phase = .idle
            records[name] = record
            record.channel.reset()
            encryptedSubscriptionEnded(name)
        case .idle, .subscribed:
            break
        }
    }

    /// The connection is gone: every subscription and the identity are void.
    func connectionLost() {
        performSubscribeTimer(subscribeTimeouts.stopAll())
        for name in Array(records.keys) {
            guard var record = records[name] else { continue }
            record.token += 1
            record.phase = .idle
            record.myId = nil
            records[name] = record
            record.channel.reset()
            if record.channel.isEncrypted { encryptedSubscriptionEnded(name) }
        }
        signinConnectionLost()
    }
}
