/// Routing of inbound protocol messages (docs/PROTOCOL.md § Server-to-client events, § Errors).
extension ClientCore {
    func handleText(_ text: String) {
        if wantsWire { tap(.inbound, text) }
        // `data` stays in the frame: app events hand it to their handlers as it is, unescaped
        // and parsed only if a handler reads it (WireEnvelope.swift).
        let envelope: WireEnvelope
        do {
            envelope = try WireEnvelope.decode(text)
        } catch {
            perform(machine.inbound(now: arrivalTime))
            reportBadInput(error, text: text)
            return
        }
        perform(machine.inbound(now: arrivalTime))
        route(envelope)
    }

    private func reportBadInput(_ error: WireDecodeError, text: String) {
        let kind: RealtimeError.Kind
        switch error {
        case .invalidJSON: kind = .invalidJSON
        case .notAnObject: kind = .notAnObject
        case .missingEvent, .invalidField: kind = .missingField
        }
        reportError(RealtimeError(kind: kind, message: "ignored a message: \(error) — \(Self.preview(text))"))
    }

    /// The first characters of a message, redacted, for error messages.
    static func preview(_ text: String) -> String {
        let limit = 120
        let redacted = Redaction.redactWireText(text.count > limit * 4 ? String(text.prefix(limit * 4)) : text)
        return redacted.count > limit ? String(redacted.prefix(limit)) + "…" : redacted
    }

    private func route(_ envelope: consuming WireEnvelope) {
        // Every protocol event's wire name is in the reserved namespace: app events (most of the
        // traffic) skip the table lookup. The envelope's fields are read in place (no copy of the
        // whole message on the way).
        let reserved = ProtocolEvent.isReserved(envelope.head.event, dialect: dialect)
        if reserved {
            routeProtocolEvent(envelope)
            return
        }
        guard let channelName = envelope.head.channel else {
            reportError(
                RealtimeError(
                    kind: .missingField, message: "ignored event \(envelope.head.event): it names no channel"))
            return
        }
        let registry: HandlerRegistry
        var stream: StreamStamp?
        // The record is looked up by index and only its channel read (no copy of the whole record).
        if let channel = routedChannel(channelName) {
            // Continuity (ClientCore+Continuity): a duplicate of an event already delivered stops here.
            if let offset = envelope.head.offset {
                guard let stamp = admit(offset: offset, channel: channelName) else { return }
                stream = stamp
            }
            // End-to-end encrypted channels decrypt first (ClientCore+Encryption); one lookup either way.
            if channel.isEncrypted {
                receiveEncrypted(envelope.message, channel: channelName)
                return
            }
            registry = channel.registry
        } else if let memberChannel = signin.memberChannel, memberChannel == channelName {
            registry = memberEvents.registry
        } else {
            log(.warning, "ignored event \(envelope.head.event) for \(channelName): not subscribed")
            return
        }
        let payload: Deliverer.Event.Payload
        if let data = envelope.data { payload = .frame(envelope.frame, data) } else { payload = .wire(nil) }
        enqueue(
            registry: registry, channel: channelName, name: envelope.head.event, payload: payload,
            memberId: envelope.head.memberId, stream: stream)
    }

    /// Handles a message whose event name is in the reserved namespace.
    private func routeProtocolEvent(_ envelope: WireEnvelope) {
        guard let event = ProtocolEvent(wireName: envelope.head.event, dialect: dialect) else {
            reportError(
                RealtimeError(kind: .unknownEvent, message: "ignored unknown protocol event \(envelope.head.event)"))
            return
        }
        // Protocol events read their `data` now.
        let message = envelope.message
        switch event {
        case .connectionEstablished: handleHandshake(message)
        case .error: handleWireError(message)
        case .ping: send([WireMessage(event: ProtocolEvent.pong.wireName(dialect), value: [:]).encode()])
        case .pong: pongReceived()
        case .subscriptionSucceeded: handleSubscriptionSucceeded(message)
        case .subscriptionError: handleSubscriptionError(message)
        case .memberAdded: handleMemberAdded(message)
        case .memberRemoved: handleMemberRemoved(message)
        case .connectionCount: handleConnectionCount(message)
        case .signinSuccess: handleSigninSuccess(message)
        case .subscribe, .unsubscribe, .signin:
            reportError(
                RealtimeError(
                    kind: .unknownEvent,
                    message: "ignored \(message.event): a client-to-server event sent by the server"))
        }
    }

    /// The channel of the record named `name`, remembered for the next event while the records
    /// do not change; nil when the client holds no such record.
    private func routedChannel(_ name: String) -> Channel? {
        if let memo = routeMemo, memo.name == name { return memo.channel }
        guard let index = records.index(forKey: name) else { return nil }
        let channel = records.values[index].channel
        routeMemo = (name, channel)
        return channel
    }

    // MARK: - Delivery

    /// The handlers of a channel the client holds (including the member channel).
    func registry(forChannel name: String) -> HandlerRegistry? {
        if let record = records[name] { return record.channel.registry }
        if let memberChannel = signin.memberChannel, memberChannel == name { return memberEvents.registry }
        return nil
    }

    /// Delivers an event whose payload is parsed only when someone listens (on the delivery queue).
    func deliver(
        registry: HandlerRegistry, channel: String, name: String, payload: WirePayload?, memberId: String?,
        stream: StreamStamp? = nil
    ) {
        enqueue(
            registry: registry, channel: channel, name: name, payload: .wire(payload), memberId: memberId,
            stream: stream)
    }

    /// Delivers an event with a payload already built.
    func deliver(
        registry: HandlerRegistry, channel: String, name: String, value: JSONValue?, stream: StreamStamp? = nil
    ) {
        enqueue(registry: registry, channel: channel, name: name, payload: .value(value), memberId: nil, stream: stream)
    }

    func enqueue(
        registry: HandlerRegistry, channel: String, name: String, payload: Deliverer.Event.Payload, memberId: String?,
        stream: StreamStamp? = nil
    ) {
        let global = !eventObservers.isEmpty
        guard global || registry.hasHandlers(for: name) else { return }
        enqueueDelivery(
            .event(
                Deliverer.Event(
                    registry: registry, observers: global ? eventObservers : nil, channel: channel, name: name,
                    payload: payload, memberId: memberId, stream: stream)))
    }

    // MARK: - Handshake and errors

    private func handleHandshake(_ message: WireMessage) {
        let object = message.data?.object
        let idValue = object?[dialect.connectionIdKey]
        var id = idValue?.stringValue
        if id == nil, let number = idValue?.numberValue { id = number.text }
        let timeout = object?["activity_timeout"]?.doubleValue
        if let id, !id.isEmpty {
            log(.info, "handshake: connection \(id)\(timeout.map { ", activity timeout \($0) s" } ?? "")")
        }
        perform(machine.handshake(connectionId: id, activityTimeoutSeconds: timeout, now: environment.clock.uptime))
    }

    private func handleWireError(_ message: WireMessage) {
        let value = message.data?.value
        let code = value?["code"]?.intValue
        let text =
            value?["message"]?.stringValue ?? value?.stringValue ?? message.data?.text ?? "error without a message"
        if let channelName = message.channel {
            if signin.memberChannel == channelName {
                reportSigninError(RealtimeError(kind: .serverError, code: code, message: text))
                return
            }
            guard let registry = registry(forChannel: channelName) else {
                log(.warning, "error for \(channelName), which is not subscribed: \(text)")
                return
            }
            subscriptionFailed(channelName)
            var payload: JSONObject = ["type": "ServerError", "error": .string(text), "status": 0]
            if let code { payload["code"] = JSONValue(code) }
            deliver(
                registry: registry, channel: channelName, name: BirdProtocol.Event.subscriptionError,
                value: .object(payload))
            return
        }
        reportError(RealtimeError(kind: .serverError, code: code, message: text))
    }

    // MARK: - Subscriptions

    private func handleSubscriptionSucceeded(_ message: WireMessage) {
        guard let name = message.channel else {
            reportError(RealtimeError(kind: .missingField, message: "ignored \(message.event): it names no channel"))
            return
        }
        if name == signin.memberChannel {
            log(.info, "member channel \(name) subscribed")
            return
        }
        guard var record = records[name] else {
            log(.debug, "late \(message.event) for \(name), which was unsubscribed")
            return
        }
        stopSubscribeTimeout(name)
        record.phase = .subscribed
        records[name] = record
        let channel = record.channel
        let continuity = subscriptionContinued(message, channel: name)
        if channel.kind == .presence {
            let presence = message.data?.value["presence"]
            // The roster in the order the server sent it; ids without info are null.
            var roster = presence?["hash"]?.objectValue ?? JSONObject()
            if let ids = presence?["ids"]?.arrayValue {
                for id in ids {
                    let key = id.stringValue ?? id.description
                    if roster[key] == nil { roster[key] = .null }
                }
            }
            let members = roster.dictionary
            let myId = record.myId
            channel.state.withLock { s in
                s.subscribed = true
                s.members = members
                s.myId = myId
                s.continuity = continuity.continuity
            }
            log(.info, "subscribed \(name) (\(members.count) members, \(continuity.continuity?.description ?? "-"))")
            var payload: JSONObject = ["members": .object(roster), "count": JSONValue(roster.count)]
            if let myId { payload["my_id"] = .string(myId) }
            deliver(
                registry: channel.registry, channel: name, name: BirdProtocol.Event.subscriptionSucceeded,
                value: .object(payload), stream: continuity)
        } else {
            channel.state.withLock { s in
                s.subscribed = true
                s.continuity = continuity.continuity
            }
            log(.info, "subscribed \(name) (\(continuity.continuity?.description ?? "-"))")
            deliver(
                registry: channel.registry, channel: name, name: BirdProtocol.Event.subscriptionSucceeded,
                payload: message.data, memberId: nil, stream: continuity)
        }
    }

    private func handleSubscriptionError(_ message: WireMessage) {
        guard let name = message.channel else {
            let text = message.data?.value["error"]?.stringValue ?? message.data?.text ?? "subscription error"
            reportError(RealtimeError(kind: .serverError, message: text))
            return
        }
        if name == signin.memberChannel {
            let text = message.data?.value["error"]?.stringValue ?? "member channel subscription refused"
            reportSigninError(RealtimeError(kind: .serverError, message: text))
            return
        }
        guard let registry = registry(forChannel: name) else {
            log(.debug, "\(message.event) for \(name), which was unsubscribed")
            return
        }
        subscriptionFailed(name)
        log(.warning, "subscription to \(name) refused: \(message.data.map { Self.preview($0.text) } ?? "")")
        deliver(
            registry: registry, channel: name, name: BirdProtocol.Event.subscriptionError, payload: message.data,
            memberId: nil)
    }

    // MARK: - Presence

    private func presenceMember(_ message: WireMessage) -> (channel: Channel, id: String, info: JSONValue?)? {
        guard let name = message.channel else {
            reportError(RealtimeError(kind: .missingField, message: "ignored \(message.event): it names no channel"))
            return nil
        }
        guard let record = records[name], record.channel.kind == .presence else {
            log(.debug, "ignored \(message.event) for \(name): not a subscribed presence channel")
            return nil
        }
        let value = message.data?.value
        let idValue = value?[dialect.presenceIdKey]
        guard let idValue, idValue != .null else {
            reportError(
                RealtimeError(
                    kind: .missingField,
                    message: "ignored \(message.event) on \(name): no \(dialect.presenceIdKey)"))
            return nil
        }
        return (record.channel, idValue.stringValue ?? idValue.description, value?[dialect.presenceInfoKey])
    }

    private func handleMemberAdded(_ message: WireMessage) {
        guard let (channel, id, info) = presenceMember(message) else { return }
        let added = channel.state.withLock { s -> Bool in
            let isNew = s.members[id] == nil
            s.members[id] = info ?? .null
            return isNew
        }
        guard added else { return }
        var payload: JSONObject = ["member_id": .string(id)]
        if let info { payload["member_info"] = info }
        deliver(
            registry: channel.registry, channel: channel.name, name: BirdProtocol.Event.memberAdded,
            value: .object(payload))
    }

    private func handleMemberRemoved(_ message: WireMessage) {
        guard let (channel, id, _) = presenceMember(message) else { return }
        let removed = channel.state.withLock { s in s.members.removeValue(forKey: id) }
        guard let removed else { return }
        var payload: JSONObject = ["member_id": .string(id)]
        if removed != .null { payload["member_info"] = removed }
        deliver(
            registry: channel.registry, channel: channel.name, name: BirdProtocol.Event.memberRemoved,
            value: .object(payload))
    }

    private func handleConnectionCount(_ message: WireMessage) {
        guard let name = message.channel else {
            reportError(RealtimeError(kind: .missingField, message: "ignored \(message.event): it names no channel"))
            return
        }
        guard let registry = registry(forChannel: name) else { return }
        let value = message.data?.value
        guard
            let count = value?[dialect.connectionCountKey] ?? value?["connection_count"] ?? value?["subscription_count"]
        else {
            reportError(
                RealtimeError(
                    kind: .missingField,
                    message: "ignored \(message.event) on \(name): no \(dialect.connectionCountKey)"))
            return
        }
        deliver(
            registry: registry, channel: name, name: BirdProtocol.Event.connectionCount,
            value: ["connection_count": count])
    }
}
