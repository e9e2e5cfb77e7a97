import WebSocket

/// Adapts a `WebSocketServerConnection` to the edge's ``EdgeLink``.
final class ServerLink: EdgeLink {
    let connection: WebSocketServerConnection

    init(_ connection: WebSocketServerConnection) {
        self.connection = connection
    }

    func send(text: String) { connection.send(text: text) }

    func close(code: Int, reason: String) {
        connection.close(code: UInt16(clamping: code), reason: reason)
    }

    func drop() { connection.drop() }

    func pauseReading() { connection.pauseReading() }

    func sendRaw(binary: Bool, payload: [UInt8]) {
        connection.sendFrame(opcode: binary ? .binary : .text, payload: payload)
    }
}
