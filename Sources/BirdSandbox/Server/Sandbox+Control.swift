import BirdWire

/// The control calls of docs/PROTOCOL.md § Sandbox control API as Swift, for tests and tools that embed the sandbox.
/// Thread-safe; each returns after the edge acted.
extension Sandbox {
    /// Every open connection, in order of arrival.
    public func connections() -> [SandboxConnectionInfo] {
        onQueue { edge.connectionInfos() }
    }

    /// The epoch of the channels' streams (continuity, Bird dialect): new with every `Sandbox`,
    /// kept across the control API's `restart`; nil in the Pusher dialect.
    public var streamEpoch: String? {
        onQueue { edge.history?.epoch }
    }

    /// The last offset given on `channel` (0 before its first event); nil in the Pusher dialect.
    public func streamHead(channel: String) -> Int? {
        onQueue { edge.history.map { $0.channels[channel]?.head ?? 0 } }
    }

    /// Closes connection `id` with a close frame; false when there is no such connection.
    @discardableResult
    public func closeConnection(
        id: String, code: Int = CloseCode.edgeRestarting, reason: String = "closed by the sandbox"
    ) -> Bool {
        onQueue { edge.closeConnection(id: id, code: code, reason: reason) }
    }

    /// Closes every connection with `code`; returns how many were closed.
    @discardableResult
    public func closeAll(code: Int = CloseCode.edgeRestarting, reason: String = "closed by the sandbox") -> Int {
        onQueue { edge.closeAll(code: code, reason: reason) }
    }

    /// Closes connection `id`'s TCP connection without a close frame (the client sees 1006).
    @discardableResult
    public func drop(id: String) -> Bool {
        onQueue { edge.dropConnection(id: id) }
    }

    /// Stops reading and answering connection `id` (the client's pong timeout must notice).
    @discardableResult
    public func silence(id: String) -> Bool {
        onQueue { edge.silence(id: id) }
    }

    /// Closes new connections with `code` right after the upgrade, before the handshake, for
    /// `seconds` (nil: until ``acceptConnections()``).
    public func refuse(code: Int, reason: String, seconds: Double?) {
        onQueue { edge.refuse(code: code, reason: reason, seconds: seconds) }
    }

    /// Ends a refusal.
    public func acceptConnections() {
        onQueue { edge.clearRefusal() }
    }

    /// The next `count` handshakes carry no connection id.
    public func omitHandshakeId(count: Int) {
        onQueue { edge.omitHandshakeIds = max(0, count) }
    }

    /// Closes all with `code`, stops listening for `downSeconds`, then listens again on the same port.
    public func restart(code: Int = CloseCode.edgeRestarting, reason: String = "edge restarting", downSeconds: Double) {
        onQueue { performRestart(code: code, reason: reason, downSeconds: downSeconds) }
    }

    /// Makes the demo auth endpoints fail with `status` (only for channels starting with
    /// `prefix` when given; the sign-in endpoint fails only when no prefix is given).
    public func setAuthFailure(status: Int, prefix: String? = nil) {
        onQueue { edge.authFailure = (status, prefix) }
    }

    /// The demo auth endpoints work again.
    public func clearAuthFailure() {
        onQueue { edge.authFailure = nil }
    }

    /// Sends a raw text frame (`text` need not be protocol JSON) to connection `id`.
    @discardableResult
    public func send(id: String, text: String) -> Bool {
        onQueue { edge.sendRaw(id: id, binary: false, payload: Array(text.utf8)) }
    }

    /// Sends one raw frame: binary, or text whose bytes need not be valid UTF-8.
    @discardableResult
    public func send(id: String, binary: Bool, payload: [UInt8]) -> Bool {
        onQueue { edge.sendRaw(id: id, binary: binary, payload: payload) }
    }

    /// Publishes an event without signing; returns the number of connections reached. Data sent
    /// to an encrypted channel (`private-encrypted-…`) is sealed under its channel key, as
    /// `POST /sandbox/publish` does, unless `encrypt` is false; without a master key it goes as
    /// it is (the HTTP call refuses instead).
    @discardableResult
    public func publish(channel: String, event: String, data: JSONValue?) -> Int {
        publish(channel: channel, event: event, data: data, encrypt: true)
    }

    /// Publishes like ``publish(channel:event:data:)``; `encrypt` false sends data to an
    /// encrypted channel as it is (an envelope sealed elsewhere, or deliberately bad input).
    @discardableResult
    public func publish(channel: String, event: String, data: JSONValue?, encrypt: Bool) -> Int {
        onQueue {
            let sealed = (try? edge.controlPublishData(channel: channel, data: data, encrypt: encrypt)) ?? data
            return edge.publishUnsigned(channel: channel, event: event, data: sealed)
        }
    }

    /// Replaces the encryption master key with `key` (a fresh random one when nil): every
    /// encrypted channel's key changes, as when an app rotates its key, so subscribers must
    /// re-authorise to read new events (`POST /sandbox/encryption/rotate`).
    package func rotateEncryptionMasterKey(to key: EncryptionMasterKey? = nil) {
        onQueue { _ = edge.rotateEncryptionMasterKey(to: key) }
    }

    /// The key of the encrypted channel `channel` under the master key in force (what the demo
    /// auth endpoint answers as `shared_secret`), or nil without a master key. For tests and
    /// tools that play the app's backend.
    package func encryptionChannelKey(for channel: String) -> EncryptionKey? {
        onQueue { edge.channelKey(for: channel) }
    }

    /// Publishes `count` events at `rate` per second (0: as fast as possible), asynchronously.
    public func burst(channel: String, event: String, data: JSONValue?, count: Int, rate: Double) {
        onQueue { startBurst(channel: channel, event: event, data: data, count: count, rate: rate) }
    }

    /// Closes every connection signed in as `memberId` with 4009 "terminated by the app".
    @discardableResult
    public func terminate(memberId: String) -> Int {
        onQueue { edge.terminate(memberId: memberId) }
    }
}
