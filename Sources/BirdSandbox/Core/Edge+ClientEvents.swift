import BirdWire

extension Edge {
    /// A `client-` event: checked against docs/PROTOCOL.md § Limits, then passed to the channel's other subscribers.
    func handleClientEvent(_ message: WireMessage, from connection: EdgeConnection) {
        if let problem = clientEventProblem(message, from: connection) {
            log("client event rejected \(connection.id): \(problem)")
            sendError(connection, code: 4301, message: problem)
            return
        }
        guard let name = message.channel, let channel = channels[name] else { return }
        let sender = channel.kind == .presence ? connection.presence[name] : nil
        let outbound = WireMessage(event: message.event, channel: name, data: message.data, memberId: sender)
        let text = encode(outbound)
        for id in channel.subscribers where id != connection.id {
            if let peer = connections[id] { send(peer, text: text) }
        }
    }

    /// Why a client event is refused, or nil when it may pass.
    func clientEventProblem(_ message: WireMessage, from connection: EdgeConnection) -> String? {
        guard configuration.clientEvents else { return "client events are not enabled for this app" }
        guard let name = message.channel else { return "client events need a channel" }
        guard ChannelKind(channelName: name).allowsClientEvents else {
            return "client events are only allowed on private and presence channels"
        }
        guard ChannelKind.allowsClientEvents(channelName: name) else {
            return "client events are not allowed on encrypted channels"
        }
        guard connection.channels.contains(name) else { return "not subscribed to \(String(name.prefix(200)))" }
        guard message.event.utf8.count <= Limits.maxEventNameLength else {
            return "event name is longer than \(Limits.maxEventNameLength) characters"
        }
        guard (message.data?.text.utf8.count ?? 0) <= Limits.maxPayloadBytes else {
            return "event data is larger than \(Limits.maxPayloadBytes) bytes"
        }
        guard connection.rateLimiter.allow(now: clock()) else {
            return "rate limit: more than \(Limits.clientEventsPerSecond) client events per second"
        }
        return nil
    }
}
