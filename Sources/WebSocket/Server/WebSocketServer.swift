import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A WebSocket server (RFC 6455) that also answers plain HTTP requests on the same port.
///
/// One epoll event-loop thread serves every connection (non-blocking sockets, per-connection
/// write queues); callbacks run on the given serial queue, in order per connection. Optional TLS
/// from PEM certificate and key files.
public final class WebSocketServer: @unchecked Sendable {
    /// Server settings.
    public struct Configuration: Sendable {
        /// The address to bind (a name or a numeric IPv4/IPv6 address).
        public var host = "127.0.0.1"
        /// The port to bind; 0 picks an ephemeral port (see `port`).
        public var port = 0
        /// A PEM certificate chain; with `tlsPrivateKeyFile`, the server speaks TLS (`wss://`).
        public var tlsCertificateFile: String?
        /// The PEM private key for `tlsCertificateFile`.
        public var tlsPrivateKeyFile: String?
        /// The largest accepted incoming message (larger → close 1009).
        public var maxMessageSize = 4 << 20
        /// The largest accepted HTTP request body on any route (larger → 413, answered from the
        /// head before the body is read). ``WebSocketServer/onRequestHead`` sets smaller limits per route.
        public var maxRequestBodySize = 1 << 20
        /// Request body bytes all connections together may hold while they are read and handled
        /// (reserved from each head's Content-Length); a request that would go over is answered 503
        /// from its head and its connection closed.
        public var maxBufferedRequestBytes = 64 << 20
        /// HTTP connections (accepted, not yet upgraded to WebSocket) open at once. At the cap the
        /// server stops accepting: new connections wait in the kernel's listen backlog (4096) until
        /// one of these is upgraded or closed, so a storm of upgrades is delayed, never refused.
        public var maxHTTPConnections = 1024
        /// Response bytes that may wait unwritten on one HTTP connection; a connection over this
        /// when its next response is ready is closed (a peer that sends requests but never reads).
        public var maxHTTPOutboundBytes = 1 << 20
        /// Bytes that may wait to be written to one connection before it is dropped as too slow.
        public var maxOutboundBytes = 16 << 20
        /// Bytes of one WebSocket connection handed to the queue whose messages it has not handled
        /// yet; beyond it, bytes wait (at most one read) and the connection is not read until half
        /// of them are handled. A peer that floods the server is served only as fast as its
        /// messages are handled, so it cannot starve the others.
        public var maxInboundBytesInFlight = 64 << 10
        /// Time a close handshake waits for the peer's close frame.
        public var closeTimeout: Duration = .seconds(5)

        /// Creates a configuration.
        public init(host: String = "127.0.0.1", port: Int = 0) {
            self.host = host
            self.port = port
        }
    }

    /// The configuration the server was created with.
    public let configuration: Configuration
    private let queue: DispatchQueue
    private let lock = NSLock()
    private var loop: EventLoop?
    private var tlsContext: TLSContext?
    private var boundPort = 0
    private var stopped = false
    private var nextID = 1
    private var callbacks = Callbacks()
    private let counters = ServerCounters()

    private let state = LoopState()

    /// What the event loop tracks (loop thread only). Kept apart from the server object so that
    /// loop tasks never need to retain the server (which may be stopping from `deinit`).
    private final class LoopState: @unchecked Sendable {
        var listener: Listener?
        var httpConnections: [Int: ServerHTTPConnection] = [:]
        var sessions: [Int: WebSocketSession] = [:]

        func closeAll() {
            listener?.close()
            listener = nil
            let sessions = self.sessions
            let http = self.httpConnections
            self.sessions.removeAll()
            httpConnections.removeAll()
            for session in sessions.values { session.abort() }
            for connection in http.values { connection.shutDown() }
        }
    }

    private struct Callbacks {
        var shouldUpgrade: (@Sendable (HTTPRequest) -> HTTPResponse?)?
        var onConnection: (@Sendable (WebSocketServerConnection) -> Void)?
        var onHTTPRequest: (@Sendable (HTTPRequest, @escaping @Sendable (HTTPResponse) -> Void) -> Void)?
        var onRequestHead: (@Sendable (HTTPRequest) -> RequestHeadDecision)?
    }

    /// Creates a server; nothing happens until `start()`.
    public init(configuration: Configuration, queue: DispatchQueue) {
        self.configuration = configuration
        self.queue = queue
    }

    /// Called for a valid upgrade request before accepting: return nil to accept, or a response
    /// to refuse.
    public var shouldUpgrade: (@Sendable (HTTPRequest) -> HTTPResponse?)? {
        get { withLock { callbacks.shouldUpgrade } }
        set { withLock { callbacks.shouldUpgrade = newValue } }
    }

    /// A new WebSocket connection (handshake done). Set `connection.onEvent` here; no event of
    /// that connection is delivered before this returns.
    public var onConnection: (@Sendable (WebSocketServerConnection) -> Void)? {
        get { withLock { callbacks.onConnection } }
        set { withLock { callbacks.onConnection = newValue } }
    }

    /// A plain HTTP request on the same port; call the responder exactly once, from any thread,
    /// possibly later. Without a handler, requests get 404.
    public var onHTTPRequest: (@Sendable (HTTPRequest, @escaping @Sendable (HTTPResponse) -> Void) -> Void)? {
        get { withLock { callbacks.onHTTPRequest } }
        set { withLock { callbacks.onHTTPRequest = newValue } }
    }

    /// Decides, from a request's head alone (method, target, headers, peer; the body is empty), how
    /// large its body may be or how to answer it without reading the body. Runs on the event-loop
    /// thread for every request, upgrades included, so it must be quick and must not block.
    /// Without it every request may carry up to `maxRequestBodySize`.
    public var onRequestHead: (@Sendable (HTTPRequest) -> RequestHeadDecision)? {
        get { withLock { callbacks.onRequestHead } }
        set { withLock { callbacks.onRequestHead = newValue } }
    }

    /// The HTTP side's counters: open connections, refusals, body bytes in flight, slow readers.
    public var statistics: WebSocketServerStatistics { counters.snapshot }

    /// The bound port (after `start()`).
    public var port: Int { withLock { boundPort } }

    private func withLock<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    // MARK: Lifecycle

    /// Binds, listens and starts the event-loop thread. Raises the open-files soft limit.
    public func start() throws(WebSocketError) {
        lock.lock()
        guard loop == nil else {
            lock.unlock()
            return
        }
        lock.unlock()
        Posix.raiseFileLimit()
        if let cert = configuration.tlsCertificateFile {
            guard let key = configuration.tlsPrivateKeyFile else {
                throw .tls(host: configuration.host, reason: "tlsPrivateKeyFile is required with tlsCertificateFile")
            }
            switch TLSContext.server(certificateFile: cert, privateKeyFile: key) {
            case .success(let ctx): tlsContext = ctx
            case .failure(let error): throw error
            }
        }
        let (fd, port) = try Self.bindListener(host: configuration.host, port: configuration.port)
        let loop = EventLoop(name: "WebSocketServer:\(port)")
        lock.lock()
        self.loop = loop
        boundPort = port
        lock.unlock()
        loop.executeAndWait { self.installListener(fd: fd, loop: loop) }
    }

    /// Closes the listening socket only; open connections stay.
    public func stopListening() {
        guard let loop = withLock({ loop }) else { return }
        let state = self.state
        loop.executeAndWait {
            state.listener?.close()
            state.listener = nil
        }
    }

    /// Listens again on the same port (after `stopListening()`).
    public func resumeListening() throws(WebSocketError) {
        guard let loop = withLock({ loop }), !withLock({ stopped }) else { throw .notConnected }
        var alreadyListening = false
        let state = self.state
        loop.executeAndWait { alreadyListening = state.listener != nil }
        if alreadyListening { return }
        let (fd, _) = try Self.bindListener(host: configuration.host, port: port)
        loop.executeAndWait { self.installListener(fd: fd, loop: loop) }
    }

    /// Closes the listener and every connection (TCP close; each WebSocket connection reports
    /// `.closed` with 1006), then ends the event-loop thread.
    public func stop() {
        lock.lock()
        guard let loop, !stopped else {
            lock.unlock()
            return
        }
        stopped = true
        lock.unlock()
        let state = self.state
        loop.executeAndWait { state.closeAll() }
        loop.stop()
    }

    deinit {
        stop()
    }

    // MARK: Listening (loop thread)

    private static func bindListener(host: String, port: Int) throws(WebSocketError) -> (Int32, Int) {
        let addresses: [SocketAddress]
        switch SocketAddress.resolve(host: host, port: port, passive: true) {
        case .success(let a): addresses = a
        case .failure(let e): throw e
        }
        var lastError = "no address"
        for address in addresses {
            let fd = socket(
                address.family,
                Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else {
                lastError = Posix.errorString()
                continue
            }
            var one: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            var storage = address.storage
            let bound = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, address.length) }
            }
            guard bound == 0, listen(fd, 4096) == 0 else {
                lastError = Posix.errorString()
                Glibc.close(fd)
                continue
            }
            var actual = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            _ = withUnsafeMutablePointer(to: &actual) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            return (fd, SocketAddress(storage: actual, length: length).port)
        }
        throw .network("cannot listen on \(host):\(port): \(lastError)")
    }

    private func installListener(fd: Int32, loop: EventLoop) {
        let state = self.state
        let cap = max(1, configuration.maxHTTPConnections)
        let listener = Listener(
            fd: fd, loop: loop,
            canAccept: { [weak state] in
                (state?.httpConnections.count ?? 0) < cap
            }
        ) { [weak self] fd in
            if let self { self.accepted(fd) } else { close(fd) }
        }
        let counters = self.counters
        listener.onPause = { counters.update { $0.acceptPausesAtCap += 1 } }
        state.listener = listener
        listener.start()
    }

    private func accepted(_ fd: Int32) {
        guard let loop = withLock({ loop }) else { return }
        Posix.setNoDelay(fd)
        let id = withLock { () -> Int in
            defer { nextID += 1 }
            return nextID
        }
        let peer = Posix.peerAddress(fd)
        let channel = SocketChannel(loop: loop, acceptedFD: fd, peer: peer, tlsContext: tlsContext, delegate: nil)
        let limits = ServerHTTPConnection.Limits(
            maxRequestBodySize: configuration.maxRequestBodySize,
            maxBufferedRequestBytes: configuration.maxBufferedRequestBytes,
            maxOutboundBytes: configuration.maxHTTPOutboundBytes)
        let connection = ServerHTTPConnection(
            id: id, channel: channel, remoteAddress: peer, server: self, limits: limits, counters: counters)
        let counters = self.counters
        connection.onDone = { [weak state] in
            counters.update { $0.httpConnections -= 1 }
            guard let state else { return }
            state.httpConnections[id] = nil
            if let listener = state.listener, listener.pausedAtCap { listener.resume() }
        }
        channel.delegate = connection
        state.httpConnections[id] = connection
        counters.update { s in
            s.httpConnections += 1
            s.peakHTTPConnections = max(s.peakHTTPConnections, s.httpConnections)
        }
        connection.armIdleTimer()
        channel.start()
    }

    // MARK: Requests (loop thread)

    /// The `onRequestHead` decision for a head (loop thread).
    func decide(head request: HTTPRequest) -> RequestHeadDecision {
        guard let decide = withLock({ callbacks.onRequestHead }) else {
            return .readBody(maxBodyBytes: configuration.maxRequestBodySize)
        }
        return decide(request)
    }

    func handleHTTP(request: HTTPRequest, respond: @escaping (HTTPResponse) -> Void) {
        guard let loop = withLock({ loop }) else { return }
        let handler = onHTTPRequest
        let once = OnceFlag()
        let respondBox = UncheckedBox(respond)
        let responder: @Sendable (HTTPResponse) -> Void = { response in
            guard once.claim() else { return }
            loop.execute { respondBox.value(response) }
        }
        let unchecked = UncheckedBox(responder)
        queue.async {
            if let handler {
                handler(request, unchecked.value)
            } else {
                unchecked.value(.text(404, "not found\n"))
            }
        }
    }

    func handleUpgrade(request: HTTPRequest, from http: ServerHTTPConnection, leftover: [UInt8]) {
        guard let loop = withLock({ loop }) else { return }
        let callbacks = withLock { self.callbacks }
        let box = UncheckedBox(http)
        let configuration = self.configuration
        let state = self.state
        let queue = self.queue
        let counters = self.counters
        let stoppedFlag: @Sendable () -> Bool = { [weak self] in self?.stoppedFlag ?? true }
        queue.async {
            if let refusal = callbacks.shouldUpgrade?(request) {
                loop.execute { box.value.refuseUpgrade(refusal) }
                return
            }
            let http = box.value
            let connection = WebSocketServerConnection(
                id: http.id, request: request, loop: loop,
                makeSession: { sink in
                    WebSocketSession(
                        loop: loop, channel: http.channel, isClient: false,
                        maxMessageSize: configuration.maxMessageSize,
                        maxOutboundBytes: configuration.maxOutboundBytes,
                        closeTimeout: configuration.closeTimeout, sink: sink)
                }, queue: queue)
            let session = connection.session
            let flow = InboundFlow(
                session: session, queue: queue, limit: configuration.maxInboundBytesInFlight, counters: counters)
            connection.flow = flow
            let key = request.headers["Sec-WebSocket-Key"]?.trimmingCharacters(in: .whitespaces) ?? ""
            let accept = HTTPResponse(
                status: 101,
                headers: HTTPHeaders([
                    ("Upgrade", "websocket"), ("Connection", "Upgrade"),
                    ("Sec-WebSocket-Accept", Handshake.acceptValue(forKey: key)),
                ]))
            loop.execute {
                guard http.channel.phase == .active else {
                    http.channel.close()
                    session.abort(error: .notConnected)
                    return
                }
                if stoppedFlag() {
                    http.channel.close()
                    session.abort()
                    return
                }
                http.channel.write(accept.serialized(keepAlive: true))
                http.upgraded()
                let id = http.id
                state.sessions[id] = session
                session.onTerminated = { [weak state] in state?.sessions[id] = nil }
                session.start(leftover: leftover)
                flow.attach()
            }
            callbacks.onConnection?(connection)
        }
    }

    private var stoppedFlag: Bool { withLock { stopped } }
}
