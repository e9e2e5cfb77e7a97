import BirdWire

extension Edge {
    /// `bird:signin` `{"auth","member_data"}` (pusher: `user_data`): verifies the signature,
    /// answers `signin_success` and subscribes the connection to the member's reserved channel.
    func signin(_ connection: EdgeConnection, data: JSONObject) {
        let auth = data["auth"]?.stringValue ?? ""
        guard let identityText = data[dialect.signinDataKey]?.stringValue else {
            signinFailed(connection, "sign-in needs \(dialect.signinDataKey) (a JSON string)")
            return
        }
        let string = Signature.signinString(connectionId: connection.id, memberData: identityText, dialect: dialect)
        guard
            Signature.verify(auth: auth, appKey: configuration.appKey, secret: configuration.appSecret, string: string)
        else {
            signinFailed(connection, "sign-in failed: invalid signature")
            return
        }
        guard let identity = JSONValue.fromPayload(identityText).objectValue,
            let memberId = Edge.idText(identity[dialect.signinIdKey]), !memberId.isEmpty,
            Limits.isValidChannelName(memberId)
        else {
            signinFailed(connection, "sign-in failed: \(dialect.signinDataKey) needs a valid \(dialect.signinIdKey)")
            return
        }
        if let previous = connection.member, previous.id != memberId {
            leave(connection, channel: dialect.memberChannel(memberId: previous.id))
        }
        connection.member = (memberId, identityText)
        connection.signinDeadline = nil
        log("signin \(connection.id) as \(memberId)")
        send(
            connection, .signinSuccess,
            data: .json(JSONValue.object([dialect.signinDataKey: .string(identityText)]).description))
        let channelName = dialect.memberChannel(memberId: memberId)
        let channel = channels[channelName] ?? ChannelState(name: channelName, kind: .member)
        channels[channelName] = channel
        channel.add(connection.id)
        connection.channels.insert(channelName)
    }

    private func signinFailed(_ connection: EdgeConnection, _ message: String) {
        log("signin rejected \(connection.id): \(message)")
        sendError(connection, code: CloseCode.unauthorized, message: message)
    }

    /// Closes every connection signed in as `memberId` with 4009 "terminated by the app".
    /// Returns how many were closed.
    @discardableResult
    func terminate(memberId: String) -> Int {
        let targets = connectionOrder.compactMap { connections[$0] }.filter { $0.member?.id == memberId }
        for connection in targets {
            close(connection, code: CloseCode.unauthorized, reason: "terminated by the app")
        }
        return targets.count
    }
}
