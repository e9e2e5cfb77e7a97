import BirdWire

/// The session logic of the sandbox edge: connections, channels, presence, client events,
/// sign-in, liveness and the state the control API changes.
///
/// Plain Swift, no sockets, no timers, not thread-safe: it lives on the sandbox's one serial
/// queue. Time comes from `clock` (unix seconds) and the owner calls ``tick()`` periodically,
/// so tests drive it with a manual clock and fake links.
final class Edge {
    let configuration: SandboxConfiguration
    var dialect: Dialect { configuration.dialect }
    let clock: () -> Double
    let log: (String) -> Void

    private(set) var connections: [String: EdgeConnection] = [:]
    /// Connection ids in order of arrival (for stable listings).
    private(set) var connectionOrder: [String] = []
    var channels: [String: ChannelState] = [:]

    // MARK: Control state

    /// New connections are closed right after the upgrade while this is set.
    var refusal: (code: Int, reason: String, until: Double?)?
    /// The next this-many handshakes carry no connection id.
    var omitHandshakeIds = 0
    /// The demo auth endpoints fail with this status (for channels with the prefix).
    var authFailure: (status: Int, prefix: String?)?
    /// The encryption master key in force (the configuration's, until rotated; Edge+Encryption).
    var encryptionMasterKey: EncryptionMasterKey?
    /// The channels' streams for continuity (Edge+Continuity); nil in the Pusher dialect.
    var history: StreamHistory?

    init(
        configuration: SandboxConfiguration, clock: @escaping () -> Double, epoch: String = Edge.newEpoch(),
        log: @escaping (String) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.clock = clock
        self.log = log
        self.encryptionMasterKey = configuration.encryptionMasterKey
        if configuration.dialect == .bird {
            history = StreamHistory(epoch: epoch, limits: configuration.history)
        }
    }

    // MARK: Opening

    /// A WebSocket was upgraded at `path?query`. Sends the handshake (or closes with the
    /// refusal code) and returns the connection id when the connection stays open.
    @discardableResult
    func open(link: any EdgeLink, path: String, query: [(name: String, value: String)], remote: String) -> String? {
        let now = clock()
        if let refusal, let until = refusal.until, now >= until { self.refusal = nil }
        if let refusal {
            log("refused \(remote): \(refusal.code) \(refusal.reason)")
            link.close(code: refusal.code, reason: refusal.reason)
            return nil
        }
        if let (code, reason) = Edge.pathProblem(path: path, query: query, appKey: configuration.appKey) {
            log("refused \(remote) \(Redaction.redact(path, secrets: [configuration.appSecret])): \(code) \(reason)")
            link.close(code: code, reason: reason)
            return nil
        }
        let id = newConnectionId()
        let connection = EdgeConnection(
            id: id, link: link, remote: remote, now: now, budget: configuration.inboundBudget)
        if let seconds = configuration.requireSigninSeconds { connection.signinDeadline = now + seconds }
        connections[id] = connection
        connectionOrder.append(id)
        var handshake: JSONObject = ["activity_timeout": .number(JSONNumber(configuration.activityTimeout))]
        if omitHandshakeIds > 0 {
            omitHandshakeIds -= 1
            log("open \(id) from \(remote) (handshake without id, as asked)")
        } else {
            handshake[dialect.connectionIdKey] = .string(id)
            log("open \(id) from \(remote)")
        }
        send(connection, .connectionEstablished, data: .string(JSONValue.object(handshake).description))
        return id
    }

    /// The close code and reason for a bad `/app/{key}?protocol=N` request, or nil when it is good.
    static func pathProblem(path: String, query: [(name: String, value: String)], appKey: String) -> (Int, String)? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0] == "app" else { return (4005, "path not found") }
        guard parts[1] == appKey else { return (4001, "app does not exist") }
        guard let version = query.first(where: { $0.name == "protocol" })?.value, !version.isEmpty else {
            return (4008, "no protocol version supplied")
        }
        guard let number = Int(version) else { return (4006, "invalid version string format") }
        guard BirdProtocol.acceptedVersions.contains(number) else { return (4007, "unsupported protocol version") }
        return nil
    }

    private func newConnectionId() -> String {
        while true {
            let id = "\(UInt32.random(in: 100_000...999_999_999)).\(UInt32.random(in: 100_000...999_999_999))"
            if connections[id] == nil { return id }
        }
    }

    // MARK: Closing

    /// The transport reports the connection ended (either side). Cleans up its subscriptions.
    func connectionEnded(id: String, code: Int, reason: String) {
        guard let connection = connections[id] else { return }
        log("close \(id): \(code)\(reason.isEmpty ? "" : " \(reason)")")
        remove(connection)
    }

    /// Closes a connection with a close frame and forgets it at once (others see it leave now).
    func close(_ connection: EdgeConnection, code: Int, reason: String) {
        log("closing \(connection.id): \(code) \(reason)")
        remove(connection)
        connection.link.close(code: code, reason: reason)
    }

    /// Closes a connection that went over its ``InboundBudget`` with 1008 and stops reading it:
    /// what it still sends is never parsed or queued for the edge.
    func closeFlood(_ connection: EdgeConnection, reason: String) {
        close(connection, code: InboundBudget.closeCode, reason: reason)
        connection.link.pauseReading()
    }

    /// Closes the TCP connection without a close frame and forgets it.
    func drop(_ connection: EdgeConnection) {
        log("dropping \(connection.id) (no close frame)")
        remove(connection)
        connection.link.drop()
    }

    private func remove(_ connection: EdgeConnection) {
        guard connections.removeValue(forKey: connection.id) != nil else { return }
        connectionOrder.removeAll { $0 == connection.id }
        for channel in connection.channels.sorted() {
            leave(connection, channel: channel)
        }
    }

    // MARK: Liveness and timers

    /// Runs the time-based rules: pings after the activity timeout, 4201 when no pong came,
    /// 4009 when sign-in is required and was not done, the end of a refusal window.
    func tick() {
        let now = clock()
        if let refusal, let until = refusal.until, now >= until { self.refusal = nil }
        history?.expire(now: now)
        for id in connectionOrder {
            guard let connection = connections[id], !connection.silenced else { continue }
            if let deadline = connection.signinDeadline, now >= deadline {
                close(connection, code: CloseCode.unauthorized, reason: "sign-in required")
                continue
            }
            if let pinged = connection.pingSentAt {
                if now - pinged >= configuration.pongTimeout {
                    close(connection, code: CloseCode.pongTimeout, reason: "pong not received")
                }
            } else if now - connection.lastInbound >= Double(configuration.activityTimeout) {
                connection.pingSentAt = now
                send(connection, .ping, data: .json("{}"))
            }
        }
    }

    // MARK: Sending

    func send(_ connection: EdgeConnection, _ event: ProtocolEvent, channel: String? = nil, data: WirePayload?) {
        send(connection, WireMessage(event: event.wireName(dialect), channel: channel, data: data))
    }

    func send(_ connection: EdgeConnection, _ message: WireMessage) {
        send(connection, text: encode(message))
    }

    /// Sends already-encoded text (fan-outs encode once for every recipient).
    func send(_ connection: EdgeConnection, text: String) {
        guard !connection.silenced else { return }
        connection.link.send(text: text)
    }

    /// The message as wire text in this dialect.
    func encode(_ message: WireMessage) -> String {
        message.encode(memberIdKey: dialect.presenceIdKey)
    }

    /// Sends `bird:error` `{"code", "message"}` (data as an object, which pysher requires).
    /// Every error answer counts against the connection's error budget: over it, the connection
    /// is closed as a flood instead (``closeFlood(_:reason:)``).
    func sendError(_ connection: EdgeConnection, code: Int?, message: String) {
        guard connections[connection.id] === connection else { return }
        if let flood = connection.meter.admitError(now: clock()) {
            closeFlood(connection, reason: flood)
            return
        }
        let object: JSONValue = ["code": code.map { .number(JSONNumber($0)) } ?? .null, "message": .string(message)]
        send(connection, .error, data: .json(object.description))
    }

    /// Sends `bird:subscription_error` for `channel`.
    func sendSubscriptionError(_ connection: EdgeConnection, channel: String, type: String, error: String, status: Int)
    {
        let object: JSONValue = ["type": .string(type), "error": .string(error), "status": .number(JSONNumber(status))]
        log("subscription error \(connection.id) \(channel): \(type) \(status) \(error)")
        send(connection, .subscriptionError, channel: channel, data: .json(object.description))
    }

    /// The connection with `id`, if open.
    func connection(_ id: String) -> EdgeConnection? { connections[id] }

    /// Snapshots of every open connection, in order of arrival.
    func connectionInfos() -> [SandboxConnectionInfo] {
        connectionOrder.compactMap { connections[$0] }.map { c in
            SandboxConnectionInfo(
                id: c.id, memberId: c.member?.id, channels: c.channels.sorted(), remote: c.remote,
                connectedAt: c.connectedAt, silenced: c.silenced)
        }
    }
}
