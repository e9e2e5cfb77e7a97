import BirdWire

extension Edge {
    /// A text message arrived from connection `id`.
    func receive(text: String, from id: String) {
        guard let connection = admit(from: id, bytes: text.utf8.count) else { return }
        connection.lastInbound = clock()
        connection.pingSentAt = nil
        let message: WireMessage
        do {
            message = try WireMessage.decode(text)
        } catch {
            sendError(connection, code: nil, message: "invalid message: \(error)")
            return
        }
        if let event = ProtocolEvent(wireName: message.event, dialect: dialect) {
            handleProtocol(event, message, from: connection)
        } else if message.event.hasPrefix(Limits.clientEventPrefix) {
            handleClientEvent(message, from: connection)
        } else if ProtocolEvent.isReserved(message.event, dialect: dialect) {
            sendError(connection, code: nil, message: "unknown protocol event \(String(message.event.prefix(200)))")
        } else {
            sendError(connection, code: 4301, message: "events from clients must start with client-")
        }
    }

    /// A binary message of `size` bytes arrived from connection `id`: the protocol is text only.
    func receiveBinary(from id: String, size: Int = 0) {
        guard let connection = admit(from: id, bytes: size) else { return }
        connection.lastInbound = clock()
        connection.pingSentAt = nil
        sendError(connection, code: nil, message: "binary messages are not part of the protocol")
    }

    /// A WebSocket-level ping or pong of `size` payload bytes arrived: the connection is alive.
    func receiveControlFrame(from id: String, size: Int = 0) {
        guard let connection = admit(from: id, bytes: size) else { return }
        connection.lastInbound = clock()
        connection.pingSentAt = nil
    }

    /// The open, unsilenced connection `id` when one more message of `bytes` fits its inbound
    /// budget; nil otherwise (a connection over budget is closed with 1008).
    private func admit(from id: String, bytes: Int) -> EdgeConnection? {
        guard let connection = connections[id], !connection.silenced else { return nil }
        if let flood = connection.meter.admit(bytes: bytes, now: clock()) {
            closeFlood(connection, reason: flood)
            return nil
        }
        return connection
    }

    private func handleProtocol(_ event: ProtocolEvent, _ message: WireMessage, from connection: EdgeConnection) {
        switch event {
        case .ping:
            send(connection, .pong, data: .json("{}"))
        case .pong:
            break  // liveness already refreshed
        case .subscribe:
            subscribe(connection, data: message.data?.object ?? JSONObject())
        case .unsubscribe:
            if let channel = message.data?.object?["channel"]?.stringValue {
                unsubscribe(connection, channel: channel)
            } else {
                sendError(connection, code: nil, message: "unsubscribe needs a channel")
            }
        case .signin:
            signin(connection, data: message.data?.object ?? JSONObject())
        default:
            sendError(connection, code: nil, message: "clients may not send \(message.event)")
        }
    }
}
