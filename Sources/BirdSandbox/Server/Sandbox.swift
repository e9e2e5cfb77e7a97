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

    private let queue = DispatchQueue(label: "bird-sandbox.edge")
    private let queueKey = DispatchSpecificKey<Bool>()
    let edge: Edge
    /// Plays `configuration.replay` (`--replay`), created on first use; nil for a normal edge.
    lazy var replayPlayer: ReplayPlayer? = makeReplayPlayer(queue: queue)
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
        self.configuration = configuration
        let sink = configuration.log
        let secrets = [configuration.appSecret]
        self.edge = Edge(
            configuration: configuration, clock: { Date().timeIntervalSince1970 },
            log: { line in
                guard let sink else { return }
                sink(Redaction.redact(Redaction.redactWireText(line), secrets: secrets))
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
        serverConfiguration.maxRequestBodySize = 16 << 20
        let server = WebSocketServer(configuration: serverConfiguration, queue: queue)
        server.shouldUpgrade = { _ in nil }
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
        case .binary: edge.receiveBinary(from: id)
        case .ping, .pong: edge.receiveControlFrame(from: id)
        case .opened: break
        case .closed(let info):
            live[serverId] = nil
            if !id.isEmpty { edge.connectionEnded(id: id, code: Int(info.code), reason: info.reason) }
        }
    }

    private func route(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) {
        let path = request.path
        if request.method == "OPTIONS" {
            return respond(Sandbox.preflight)
        }
        if path == "/sandbox" || path.hasPrefix("/sandbox/") {
            guard Sandbox.isLoopback(request.remoteAddress) else {
                return respond(.json(403, "{\"error\":\"the control API answers loopback callers only\"}"))
            }
            let control = ControlAPI(
                edge: edge,
                restart: { [weak self] code, reason, down in
                    self?.performRestart(code: code, reason: reason, downSeconds: down)
                },
                burst: { [weak self] channel, event, data, count, rate in
                    self?.startBurst(channel: channel, event: event, data: data, count: count, rate: rate)
                })
            let outcome = control.handle(request)
            respond(outcome.response)
            if let after = outcome.afterResponse { queue.async(execute: after) }
            return
        }
        if path == "/auth" || path == "/auth/member" {
            guard Sandbox.isLoopback(request.remoteAddress) else {
                return respond(.json(403, "{\"error\":\"the demo auth endpoints answer loopback callers only\"}"))
            }
            guard request.method == "POST" else { return respond(.json(405, "{\"error\":\"use POST\"}")) }
            return respond(path == "/auth" ? edge.handleChannelAuth(request) : edge.handleMemberAuth(request))
        }
        if path.hasPrefix("/apps/") || path.hasPrefix("/users/") {
            let response = edge.handleAPI(request)
            if response.status != 200 { edge.log("api: \(request.method) \(path) → \(response.status)") }
            return respond(response)
        }
        if path == "/" && request.method == "GET" {
            return respond(.json(200, endpoints.jsonLine))
        }
        respond(.json(404, "{\"error\":\"not found\"}"))
    }

    private static let preflight = HTTPResponse(
        status: 204,
        headers: [
            "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
            "Access-Control-Allow-Headers": "Content-Type, Authorization",
        ])

    /// Whether a peer address (`host:port`, `[v6]:port`) is a loopback address.
    static func isLoopback(_ remote: String) -> Bool {
        var host = remote
        if host.hasPrefix("[") {
            host = String(host.dropFirst().prefix { $0 != "]" })
        } else if let colon = host.lastIndex(of: ":"), host.filter({ $0 == ":" }).count == 1 {
            host = String(host[..<colon])
        }
        if host.hasPrefix("::ffff:") { host = String(host.dropFirst(7)) }
        return host == "::1" || host.hasPrefix("127.") || host == "localhost"
    }

    // MARK: Timed control actions (on the queue)

    func performRestart(code: Int, reason: String, downSeconds: Double) {
        guard !stopped, let server else { return }
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
        let start = Date()
        var sent = 0
        // The message is encoded once for the whole burst (as `publishUnsigned` would send it),
        // and each timer tick's events go out together: queued in order, written with one
        // event-loop wake-up and one socket write per connection.
        let target = edge.deliveryChannel(channel)
        let text = edge.encode(WireMessage(event: event, channel: target, data: Edge.unsignedPayload(data)))
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let interval = rate > 0 ? max(1 / rate, 0.005) : 0.001
        timer.schedule(deadline: .now(), repeating: interval)
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            let due =
                rate > 0
                ? Int(min(Double(count), Date().timeIntervalSince(start) * rate + 1)) : min(count, sent + 1000)
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
}
