import BirdWire
import Dispatch
import Foundation
import WebSocket

/// A local Bird Realtime edge: a real WebSocket server speaking the protocol (either dialect),
/// the HTTP API, demo auth endpoints and the control API, on one port.
///
/// Embeddable: `let sandbox = try Sandbox(configuration: .init(port: 0)); try sandbox.start()`,
/// then read ``endpoints``. All state lives on one private serial queue; every public method is
/// thread-safe and may be called from any thread.
public final class Sandbox: @unchecked Sendable {
    /// The configuration the sandbox runs with.
    public let configuration: SandboxConfiguration

    let queue = DispatchQueue(label: "bird-sandbox.edge")
    private let queueKey = DispatchSpecificKey<Bool>()
    let edge: Edge
    /// Plays `configuration.replay` (`--replay`), created on first use; nil for a normal edge.
    lazy var replayPlayer: ServerReplayer? = makeReplayPlayer(queue: queue)
    private var server: WebSocketServer?
    private var tickTimer: (any DispatchSourceTimer)?
    private var bursts: [Int: any DispatchSourceTimer] = [:]
    private var nextBurst = 0
    /// Transport connections not yet reported closed (server connection id → edge id).
    private var live: [Int: String] = [:]
    private var boundPort = 0
    private var stopped = false

    /// Creates a sandbox; nothing listens until ``start()``.
    public init(configuration: SandboxConfiguration = SandboxConfiguration()) throws(SandboxError) {
        guard (0...65535).contains(configuration.port) else { throw .invalidConfiguration("port must be 0…65535") }
        guard !configuration.appKey.isEmpty, !configuration.appSecret.isEmpty, !configuration.appId.isEmpty else {
            throw .invalidConfiguration("app id, key and secret must not be empty")
        }
        guard (configuration.tlsCertificateFile == nil) == (configuration.tlsPrivateKeyFile == nil) else {
            throw .invalidConfiguration("TLS needs both a certificate file and a private key file")
        }
        guard configuration.activityTimeout > 0 else { throw .invalidConfiguration("activity timeout must be > 0") }
        guard configuration.pongTimeout > 0 else { throw .invalidConfiguration("pong timeout must be > 0") }
        if let seconds = configuration.requireSigninSeconds, !(seconds > 0) {
            throw .invalidConfiguration("require-signin seconds must be > 0")
        }
        guard (1...65536).contains(configuration.maxHTTPConnections) else {
            throw .invalidConfiguration("maxHTTPConnections must be 1…65536")
        }
        if let problem = configuration.inboundBudget.problem { throw .invalidConfiguration(problem) }
        if let problem = configuration.history.problem { throw .invalidConfiguration(problem) }
        self.configuration = configuration
        let sink = configuration.log
        let secrets = [configuration.appSecret]
        self.edge = Edge(
            configuration: configuration, clock: { Date().timeIntervalSince1970 },
            log: { line in
                guard let sink else { return }
                // Secrets out first, then every control character a client could have put in.
                sink(LogText.sanitize(Redaction.scrub(line, secrets: secrets)))
            })
        queue.setSpecific(key: queueKey, value: true)
    }

    deinit {
        tickTimer?.cancel()
        for timer in bursts.values { timer.cancel() }
        server?.stop()
    }

    func onQueue<T>(_ body: () -> T) -> T {
        if DispatchQueue.getSpecific(key: queueKey) == true { return body() }
        return queue.sync(execute: body)
    }

    // MARK: Lifecycle

    /// Binds and starts serving. Throws when the port is taken or TLS files are unusable.
    public func start() throws(SandboxError) {
        let state = onQueue { (started: self.server != nil, stopped: self.stopped) }
        guard !state.started, !state.stopped else { throw .invalidConfiguration("a sandbox starts once") }
        var serverConfiguration = WebSocketServer.Configuration(host: configuration.host, port: configuration.port)
        serverConfiguration.tlsCertificateFile = configuration.tlsCertificateFile
        serverConfiguration.tlsPrivateKeyFile = configuration.tlsPrivateKeyFile
        serverConfiguration.maxMessageSize = 1 << 20
        serverConfiguration.maxRequestBodySize = BodyLimit.largest
        serverConfiguration.maxHTTPConnections = configuration.maxHTTPConnections
        let server = WebSocketServer(configuration: serverConfiguration, queue: queue)
        server.shouldUpgrade = { _ in nil }
        let listenHost = configuration.host
        server.onRequestHead = { head in Sandbox.screen(head: head, listenHost: listenHost) }
        server.onConnection = { [weak self] connection in self?.accept(connection) }
        server.onHTTPRequest = { [weak self] request, respond in
            guard let self else { return respond(.json(503, "{\"error\":\"sandbox stopped\"}")) }
            self.route(request, respond: respond)
        }
        do {
            try server.start()
        } catch {
            throw .cannotListen("\(configuration.host):\(configuration.port): \(error)")
        }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .milliseconds(250), repeating: .milliseconds(250))
        timer.setEventHandler { [weak self] in self?.edge.tick() }
        onQueue {
            self.server = server
            self.boundPort = server.port
            self.tickTimer = timer
        }
        timer.resume()
        edge.log("listening on \(endpoints.httpBase) (\(configuration.dialect) dialect)")
    }

    /// Closes every connection with `code` (default 4200 "edge restarting"), waits up to `grace`
    /// seconds for the close handshakes, then stops the server. Idempotent.
    public func stop(code: Int = CloseCode.edgeRestarting, reason: String = "edge restarting", grace: Double = 1) {
        // Replayed connections (`--replay`) are not the edge's: close them the same way first.
        if DispatchQueue.getSpecific(key: queueKey) != true { stopReplay(code: code, reason: reason, grace: grace) }
        let server: WebSocketServer? = onQueue {
            guard !stopped else { return nil }
            stopped = true
            tickTimer?.cancel()
            tickTimer = nil
            for timer in bursts.values { timer.cancel() }
            bursts.removeAll()
            edge.closeAll(code: code, reason: reason)
            return self.server
        }
        guard let server else { return }
        if DispatchQueue.getSpecific(key: queueKey) != true {
            let deadline = Date().addingTimeInterval(grace)
            while Date() < deadline, onQueue({ !live.isEmpty }) { usleep(10_000) }
        }
        server.stop()
    }

    /// The transport's HTTP counters (connections, refusals, body bytes in flight, slow readers);
    /// nil before ``start()``.
    public var httpStatistics: WebSocketServerStatistics? {
        onQueue { server?.statistics }
    }

    /// Where the sandbox is reached (valid after ``start()``).
    public var endpoints: SandboxEndpoints {
        let port = onQueue { boundPort }
        var host = configuration.host
        if host == "0.0.0.0" || host.isEmpty { host = "127.0.0.1" }
        if host == "::" { host = "::1" }
        let hostPart = host.contains(":") ? "[\(host)]" : host
        let tls = configuration.usesTLS
        let http = "\(tls ? "https" : "http")://\(hostPart):\(port)"
        return SandboxEndpoints(
            webSocketURL: "\(tls ? "wss" : "ws")://\(hostPart):\(port)/app/\(configuration.appKey)", httpBase: http,
            authEndpoint: "\(http)/auth", memberAuthEndpoint: "\(http)/auth/member", controlBase: "\(http)/sandbox",
            appId: configuration.appId, appKey: configuration.appKey, host: host, port: port,
            dialect: configuration.dialect)
    }

    // MARK: Transport callbacks (on the queue)

    private func accept(_ connection: WebSocketServerConnection) {
        let link = ServerLink(connection)
        let request = connection.request
        guard !stopped else {
            link.close(code: CloseCode.edgeRestarting, reason: "edge restarting")
            return
        }
        if replayAccept(connection, link: link) { return }  // --replay: segment k drives connection k
        live[connection.id] = ""
        // Capture the id, not the connection: the closure is stored in the connection, so
        // capturing it would keep every connection (socket, session, buffers) alive forever.
        let serverId = connection.id
        connection.onEvent = { [weak self] event in self?.handle(event, serverId: serverId) }
        if let id = edge.open(link: link, path: request.path, query: request.query, remote: connection.remoteAddress) {
            live[connection.id] = id
        }
    }

    private func handle(_ event: WebSocketEvent, serverId: Int) {
        guard let id = live[serverId] else { return }
        switch event {
        case .text(let text): edge.receive(text: text, from: id)
        case .binary(let bytes): edge.receiveBinary(from: id, size: bytes.count)
        case .ping(let payload), .pong(let payload): edge.receiveControlFrame(from: id, size: payload.count)
        case .opened: break
        case .closed(let info):
            live[serverId] = nil
            if !id.isEmpty { edge.connectionEnded(id: id, code: Int(info.code), reason: info.reason) }
        }
    }

    // MARK: Timed control actions (on the queue)

    func performRestart(code: Int, reason: String, downSeconds requested: Double) {
        guard !stopped, let server else { return }
        // The control API and scenario files check the range; Swift callers get it clamped.
        let downSeconds = requested.isFinite ? min(max(0, requested), ControlAPI.maxDownSeconds) : 1
        // Stop listening first, like a real edge going down: a client that reconnects at once on
        // the close code must find the port closed, not a fresh handshake.
        server.stopListening()
        edge.log("restart: not listening for \(downSeconds) s")
        edge.closeAll(code: code, reason: reason)
        queue.asyncAfter(deadline: .now() + downSeconds) { [weak self] in
            guard let self, !self.stopped else { return }
            do {
                try server.resumeListening()
                self.edge.log("restart: listening again")
            } catch {
                self.edge.log("restart: cannot listen again: \(error)")
            }
        }
    }

    func startBurst(channel: String, event: String, data: JSONValue?, count: Int, rate: Double) {
        guard count > 0, !stopped, rate >= 0, rate.isFinite else { return }
        edge.log("burst: \(count) × \(event) on \(channel) at \(rate == 0 ? "full speed" : "\(rate)/s")")
        let key = nextBurst
        nextBurst += 1
        let start = DispatchTime.now()
        var sent = 0
        // The message is encoded once for the whole burst (as `publishUnsigned` would send it),
        // and each timer tick's events go out together: queued in order, written with one
        // event-loop wake-up and one socket write per connection.
        let target = edge.deliveryChannel(channel)
        let text = edge.encode(WireMessage(event: event, channel: target, data: Edge.unsignedPayload(data)))
        let timer = DispatchSource.makeTimerSource(queue: queue)
        // At most a second between ticks: each tick works out from the time elapsed how many are
        // due, so a slow rate needs no long interval (and 1/rate of a tiny rate cannot overflow the
        // timer's nanoseconds).
        let interval = rate > 0 ? min(max(1 / rate, 0.005), 1) : 0.001
        timer.schedule(deadline: .now(), repeating: interval)
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            let due = rate > 0 ? Sandbox.due(count: count, rate: rate, since: start) : min(count, sent + 1000)
            if sent < due {
                let times = due - sent
                WebSocketServer.coalescingSends {
                    _ = self.edge.publish(encoded: text, channel: target, times: times)
                }
                sent = due
            }
            if sent >= count {
                self.bursts[key]?.cancel()
                self.bursts[key] = nil
            }
        }
        bursts[key] = timer
        timer.resume()
    }

    /// Events of a burst at `rate` per second due by now: one at the start, then one per
    /// 1/`rate` seconds, never more than `count`.
    static func due(count: Int, rate: Double, since start: DispatchTime) -> Int {
        let now = DispatchTime.now().uptimeNanoseconds
        let elapsed = Double(now >= start.uptimeNanoseconds ? now - start.uptimeNanoseconds : 0) / 1e9
        let due = elapsed * rate + 1
        guard due.isFinite, due < Double(count) else { return count }
        return Int(due)  // 1 ≤ due < count: fits
    }
}
