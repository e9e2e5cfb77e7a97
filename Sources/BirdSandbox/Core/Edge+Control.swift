import BirdWire

/// The state-only control calls (docs/PROTOCOL.md § Sandbox control API); restart and burst need timers and live in
/// ``Sandbox``.
extension Edge {
    /// Closes connection `id` with a close frame; false when there is no such connection.
    func closeConnection(id: String, code: Int, reason: String) -> Bool {
        guard let connection = connections[id] else { return false }
        close(connection, code: code, reason: reason)
        return true
    }

    /// Closes every connection with `code`; returns how many.
    @discardableResult
    func closeAll(code: Int, reason: String) -> Int {
        let all = connectionOrder.compactMap { connections[$0] }
        for connection in all { close(connection, code: code, reason: reason) }
        return all.count
    }

    /// Drops connection `id` without a close frame.
    func dropConnection(id: String) -> Bool {
        guard let connection = connections[id] else { return false }
        drop(connection)
        return true
    }

    /// Stops reading and answering connection `id` (it stays open; nothing is sent to it).
    func silence(id: String) -> Bool {
        guard let connection = connections[id] else { return false }
        log("silencing \(id)")
        connection.silenced = true
        connection.link.pauseReading()
        return true
    }

    /// Refuses new connections with `code` for `seconds` (nil: until ``clearRefusal()``).
    func refuse(code: Int, reason: String, seconds: Double?) {
        refusal = (code, reason, seconds.map { clock() + $0 })
        log("refusing new connections with \(code) \(reason)" + (seconds.map { " for \($0) s" } ?? ""))
    }

    /// Accepts new connections again.
    func clearRefusal() {
        refusal = nil
    }

    /// Sends a raw frame to connection `id` (for bad-input tests).
    func sendRaw(id: String, binary: Bool, payload: [UInt8]) -> Bool {
        guard let connection = connections[id] else { return false }
        log("raw \(binary ? "binary" : "text") frame of \(payload.count) bytes to \(id)")
        connection.link.sendRaw(binary: binary, payload: payload)
        return true
    }

    /// Publishes without signing: a string `data` is sent as it is, any other JSON as its text
    /// (a JSON string, as the HTTP API would). Returns the number of connections reached.
    @discardableResult
    func publishUnsigned(channel: String, event: String, data: JSONValue?) -> Int {
        publishUnsigned(channel: channel, event: event, payload: Edge.unsignedPayload(data))
    }

    /// Publishes an already-built payload (a burst builds it once for all its events).
    @discardableResult
    func publishUnsigned(channel: String, event: String, payload: WirePayload) -> Int {
        publish(channel: deliveryChannel(channel), event: event, data: payload)
    }

    /// The payload of an unsigned publish: data sent as a JSON string, as the HTTP API does.
    static func unsignedPayload(_ data: JSONValue?) -> WirePayload {
        switch data {
        case .string(let s)?: return .string(s)
        case nil, .null?: return .string("{}")
        case let other?: return .string(other.description)
        }
    }
}
