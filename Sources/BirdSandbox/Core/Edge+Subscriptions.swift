import BirdWire

extension Edge {
    // MARK: Subscribe

    func subscribe(_ connection: EdgeConnection, data: JSONObject) {
        guard let name = data["channel"]?.stringValue else {
            sendError(connection, code: nil, message: "subscribe needs a channel")
            return
        }
        if let other = Dialect.allCases.first(where: { name.hasPrefix($0.memberChannelPrefix) }) {
            // A member's reserved channel: joined at sign-in; clients (pusher-js, ours) also
            // subscribe it explicitly. Only the member it belongs to may.
            let memberId = String(name.dropFirst(other.memberChannelPrefix.count))
            guard let member = connection.member, member.id == memberId else {
                sendSubscriptionError(
                    connection, channel: String(name.prefix(Limits.maxChannelNameLength)), type: "AuthError",
                    error: "a member channel belongs to the connection signed in as that member", status: 403)
                return
            }
            join(connection, channel: dialect.memberChannel(memberId: memberId), kind: .member, presence: nil)
            return
        }
        guard Limits.isValidChannelName(name) else {
            let shown = String(name.prefix(Limits.maxChannelNameLength))
            sendSubscriptionError(
                connection, channel: shown, type: "InvalidChannel",
                error: "invalid channel name: 1–200 characters of A-Z a-z 0-9 _ - = @ , . ;", status: 400)
            return
        }
        let kind = ChannelKind(channelName: name)
        let auth = data["auth"]?.stringValue ?? ""
        let resume = dialect == .bird ? Edge.resumePosition(data) : nil
        switch kind {
        case .public, .member:
            join(connection, channel: name, kind: kind, presence: nil, resume: resume)
        case .private:
            let string = Signature.privateChannelString(connectionId: connection.id, channel: name)
            guard signatureHolds(auth, string: string, connection, channel: name) else { return }
            join(connection, channel: name, kind: kind, presence: nil, resume: resume)
        case .presence:
            guard let memberData = data[dialect.presenceDataKey]?.stringValue else {
                sendSubscriptionError(
                    connection, channel: name, type: "AuthError",
                    error: "presence subscriptions need \(dialect.presenceDataKey) (a JSON string)", status: 401)
                return
            }
            let string = Signature.presenceChannelString(
                connectionId: connection.id, channel: name, memberData: memberData)
            guard signatureHolds(auth, string: string, connection, channel: name) else { return }
            guard let identity = JSONValue.fromPayload(memberData).objectValue,
                let memberId = Edge.idText(identity[dialect.presenceIdKey]), !memberId.isEmpty
            else {
                sendSubscriptionError(
                    connection, channel: name, type: "AuthError",
                    error: "\(dialect.presenceDataKey) must be a JSON object with \(dialect.presenceIdKey)", status: 400
                )
                return
            }
            let info = identity[dialect.presenceInfoKey]
            if let info, info.description.utf8.count > Limits.maxMemberInfoBytes {
                sendSubscriptionError(
                    connection, channel: name, type: "LimitReached",
                    error: "\(dialect.presenceInfoKey) is larger than \(Limits.maxMemberInfoBytes) bytes", status: 413)
                return
            }
            join(connection, channel: name, kind: kind, presence: (memberId, info), resume: resume)
        }
    }

    /// Whether `auth` signs `string`; when it does not, the subscription is refused (401, with
    /// why, never what the right signature would be).
    private func signatureHolds(_ auth: String, string: String, _ connection: EdgeConnection, channel: String) -> Bool {
        if Signature.verify(auth: auth, appKey: configuration.appKey, secret: configuration.appSecret, string: string) {
            return true
        }
        sendSubscriptionError(connection, channel: channel, type: "AuthError", error: authProblem(auth), status: 401)
        return false
    }

    /// Why a signature failed, without revealing what the right one would be.
    private func authProblem(_ auth: String) -> String {
        if auth.isEmpty { return "missing auth signature" }
        guard let colon = auth.firstIndex(of: ":"), auth[..<colon] == configuration.appKey else {
            return "auth key does not match the app key"
        }
        return "invalid signature"
    }

    /// A member id from JSON: strings as they are, numbers as their text.
    static func idText(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let s): return s
        case .number: return value?.description
        default: return nil
        }
    }

    private func join(
        _ connection: EdgeConnection, channel name: String, kind: ChannelKind,
        presence: (id: String, info: JSONValue?)?,
        resume: (epoch: String, offset: Int)? = nil
    ) {
        let channel = channels[name] ?? ChannelState(name: name, kind: kind)
        if let presence {
            if let previous = connection.presence[name], previous != presence.id {
                // Re-subscribed under another identity: leave as the old member first.
                leave(connection, channel: name)
                return join(connection, channel: name, kind: kind, presence: presence, resume: resume)
            }
            if connection.presence[name] == nil {
                switch channel.roster.add(memberId: presence.id, info: presence.info, connection: connection.id) {
                case .full:
                    sendSubscriptionError(
                        connection, channel: name, type: "LimitReached",
                        error: "presence channel is full (\(Limits.maxPresenceMembers) members)", status: 403)
                    return
                case .added:
                    connection.presence[name] = presence.id
                    var added: JSONObject = [dialect.presenceIdKey: .string(presence.id)]
                    if let info = presence.info { added[dialect.presenceInfoKey] = info }
                    let message = WireMessage(
                        event: ProtocolEvent.memberAdded.wireName(dialect), channel: name,
                        data: .string(JSONValue.object(added).description))
                    let text = encode(message)
                    for other in channel.subscribers where other != connection.id {
                        if let peer = connections[other] { send(peer, text: text) }
                    }
                case .alreadyPresent:
                    connection.presence[name] = presence.id
                }
            }
        }
        channels[name] = channel
        let isNew = channel.add(connection.id)
        connection.channels.insert(name)
        if isNew { log("subscribe \(connection.id) \(name)") }
        let data: WirePayload =
            kind == .presence
            ? .string(JSONValue.object(["presence": channel.roster.presenceObject]).description) : .string("{}")
        sendSubscriptionSucceeded(connection, channel: name, data: data, resume: resume)
        if isNew { announceCount(channel) }
    }

    // MARK: Unsubscribe

    func unsubscribe(_ connection: EdgeConnection, channel name: String) {
        guard connection.channels.contains(name), ChannelKind(channelName: name) != .member else { return }
        log("unsubscribe \(connection.id) \(name)")
        leave(connection, channel: name)
    }

    /// Removes `connection` from `name`: roster, count, and the channel when it empties.
    func leave(_ connection: EdgeConnection, channel name: String) {
        connection.channels.remove(name)
        guard let channel = channels[name] else { return }
        channel.remove(connection.id)
        if let memberId = connection.presence.removeValue(forKey: name),
            channel.roster.remove(memberId: memberId, connection: connection.id)
        {
            let message = WireMessage(
                event: ProtocolEvent.memberRemoved.wireName(dialect), channel: name,
                data: .string(JSONValue.object([dialect.presenceIdKey: .string(memberId)]).description))
            let text = encode(message)
            for other in channel.subscribers {
                if let peer = connections[other] { send(peer, text: text) }
            }
        }
        if channel.isOccupied {
            announceCount(channel)
        } else {
            channels[name] = nil
        }
    }

    /// Sends the channel's connection count to its subscribers (when the app setting is on).
    private func announceCount(_ channel: ChannelState) {
        guard configuration.connectionCount, channel.kind != .member else { return }
        let data = JSONValue.object([dialect.connectionCountKey: .number(JSONNumber(channel.subscriptionCount))])
        let message = WireMessage(
            event: ProtocolEvent.connectionCount.wireName(dialect), channel: channel.name, data: .json(data.description)
        )
        let text = encode(message)
        for id in channel.subscribers {
            if let peer = connections[id] { send(peer, text: text) }
        }
    }
}
