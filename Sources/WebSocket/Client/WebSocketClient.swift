import Foundation

/// A WebSocket client (RFC 6455) for `ws://` and `wss://` URLs.
///
/// Internally synchronized: every method may be called from any thread. Events are delivered in
/// order on the configured queue, possibly several per queue hop; `.closed` comes exactly once
/// after `connect()` and is always last. All clients share one event-loop thread.
public final class WebSocketClient: @unchecked Sendable {
    /// Connection settings.
    public struct Configuration: Sendable {
        /// A `ws://` or `wss://` URL.
        public var url: URL
        /// Extra request headers for the opening handshake.
        public var headers: [String: String]
        /// Time allowed for DNS, TCP, TLS and the opening handshake together.
        public var connectTimeout: Duration = .seconds(10)
        /// Time `close()` waits for the peer's close frame before dropping the connection.
        public var closeTimeout: Duration = .seconds(5)
        /// The largest accepted incoming message (larger → close 1009).
        public var maxMessageSize: Int = 4 << 20
        /// The most bytes that may wait to be written before sends fail with `.outboundBufferFull`.
        public var maxOutboundBytes: Int = 16 << 20
        /// An extra PEM CA file trusted in addition to the system store (for `wss://`).
        public var caFile: String? = nil

        /// Creates a configuration.
        public init(
            url: URL, headers: [String: String] = [:], connectTimeout: Duration = .seconds(10), caFile: String? = nil
        ) {
            self.url = url
            self.headers = headers
            self.connectTimeout = connectTimeout
            self.caFile = caFile
        }
    }

    private enum State {
        case idle
        case connecting(ClientConnector)
        case open(WebSocketSession)
        case closed
    }

    /// The configuration this client was created with.
    public let configuration: Configuration
    private let queue: DispatchQueue
    private let onEvents: @Sendable ([WebSocketEvent]) -> Void
    /// Flow control: with a credit, batches carry their cost to ``onCostedEvents``.
    private let credit: InboundCredit?
    private let onCostedEvents: (@Sendable ([WebSocketEvent], Int) -> Void)?
    private let loop = EventLoop.shared
    private let lock = NSLock()
    private var state: State = .idle

    /// Creates a client; nothing happens until `connect()`.
    public init(
        configuration: Configuration, queue: DispatchQueue, onEvent: @escaping @Sendable (WebSocketEvent) -> Void
    ) {
        self.configuration = configuration
        self.queue = queue
        self.onEvents = { events in
            for event in events { onEvent(event) }
        }
        self.credit = nil
        self.onCostedEvents = nil
    }

    /// Creates a client that reports events in batches: each call of `onEvents` carries, in
    /// order, what one socket read produced (one queue hop per batch). Nothing happens until
    /// `connect()`.
    public init(
        configuration: Configuration, queue: DispatchQueue, onEvents: @escaping @Sendable ([WebSocketEvent]) -> Void
    ) {
        self.configuration = configuration
        self.queue = queue
        self.onEvents = onEvents
        self.credit = nil
        self.onCostedEvents = nil
    }

    /// Creates a client with flow control: each batch comes with its cost, taken from `credit`,
    /// which `onEvents` (or whoever it hands the events to) must give back with
    /// ``InboundCredit/give(_:)`` once done with them. While the outstanding cost is at the
    /// credit's high-water mark the client does not read its socket.
    package init(
        configuration: Configuration, queue: DispatchQueue, credit: InboundCredit,
        onEvents: @escaping @Sendable ([WebSocketEvent], _ cost: Int) -> Void
    ) {
        self.configuration = configuration
        self.queue = queue
        self.onEvents = { events in onEvents(events, 0) }
        self.credit = credit
        self.onCostedEvents = onEvents
    }

    /// Starts connecting; `.opened` or `.closed` follows. Calling it again has no effect.
    public func connect() {
        lock.lock()
        guard case .idle = state else {
            lock.unlock()
            return
        }
        let sink = makeSink()
        let target: ClientConnector.Target
        switch Self.target(for: configuration.url) {
        case .failure(let error):
            state = .closed
            lock.unlock()
            loop.execute {
                sink.add(.closed(WebSocketCloseInfo(code: 1006, reason: "", initiatedLocally: false, error: error)))
                sink.flush()
            }
            return
        case .success(let t):
            target = t
        }
        let connector = ClientConnector(loop: loop, target: target, configuration: configuration, sink: sink)
        connector.onOpen = { [weak self] session in self?.opened(session) }
        state = .connecting(connector)
        lock.unlock()
        connector.begin()
    }

    private func opened(_ session: WebSocketSession) {
        lock.lock()
        if case .connecting = state { state = .open(session) }
        lock.unlock()
    }

    private func makeSink() -> EventSink {
        if let credit, let onCostedEvents { return EventSink(queue: queue, credit: credit, deliver: onCostedEvents) }
        return EventSink(queue: queue, deliver: onEvents)
    }

    private func currentSession() throws(WebSocketError) -> WebSocketSession {
        lock.lock()
        defer { lock.unlock() }
        guard case .open(let session) = state else { throw .notConnected }
        return session
    }

    /// Sends a text message. Throws `.notConnected` or `.outboundBufferFull`.
    public func send(text: String) throws(WebSocketError) {
        let session = try currentSession()
        try session.submit(FrameEncoder.encodeFrame(.text, Array(text.utf8), masked: true))
    }

    /// Sends several text messages as separate frames in one socket write.
    public func send(texts: [String]) throws(WebSocketError) {
        let session = try currentSession()
        var out: [UInt8] = []
        for text in texts {
            FrameEncoder.encode(opcode: .text, payload: text.utf8, mask: FrameEncoder.randomMask(), into: &out)
        }
        guard !out.isEmpty else { return }
        try session.submit(out)
    }

    /// Sends a binary message.
    public func send(binary: [UInt8]) throws(WebSocketError) {
        let session = try currentSession()
        try session.submit(FrameEncoder.encodeFrame(.binary, binary, masked: true))
    }

    /// Sends a ping (at most 125 bytes of payload are sent).
    public func ping(_ payload: [UInt8] = []) throws(WebSocketError) {
        let session = try currentSession()
        try session.submit(FrameEncoder.encodeFrame(.ping, Array(payload.prefix(125)), masked: true))
    }

    /// Starts the close handshake: sends a close frame with `code` and `reason`, waits up to
    /// `closeTimeout` for the peer's close frame, then drops TCP. `.closed` (initiated locally)
    /// follows, with the peer's code, or 1006 when its close frame did not arrive in time.
    public func close(code: UInt16 = 1000, reason: String = "") {
        finish(closeCode: code, reason: reason)
    }

    /// Drops TCP without a close frame; `.closed` with code 1006 (initiated locally) follows.
    public func abort() {
        finish(closeCode: nil, reason: "")
    }

    private func finish(closeCode: UInt16?, reason: String) {
        lock.lock()
        let current = state
        switch current {
        case .idle:
            state = .closed
            lock.unlock()
            let sink = makeSink()
            loop.execute {
                sink.add(.closed(WebSocketCloseInfo(code: 1006, reason: "", initiatedLocally: true)))
                sink.flush()
            }
        case .connecting(let connector):
            lock.unlock()
            loop.execute { connector.cancel(closeCode: closeCode, reason: reason) }
        case .open(let session):
            lock.unlock()
            if let code = closeCode {
                session.requestClose(code: code, reason: reason)
            } else {
                loop.execute { session.abort() }
            }
        case .closed:
            lock.unlock()
        }
    }

    /// Splits a ws/wss URL into what the connector needs.
    static func target(for url: URL) -> Result<ClientConnector.Target, WebSocketError> {
        guard let scheme = url.scheme?.lowercased(), scheme == "ws" || scheme == "wss" else {
            return .failure(.invalidURL("scheme must be ws or wss: \(url.absoluteString)"))
        }
        guard var host = url.host(percentEncoded: false), !host.isEmpty else {
            return .failure(.invalidURL("missing host: \(url.absoluteString)"))
        }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let secure = scheme == "wss"
        let defaultPort = secure ? 443 : 80
        let port = url.port ?? defaultPort
        guard (1...65535).contains(port) else { return .failure(.invalidURL("invalid port \(port)")) }
        var path = url.path(percentEncoded: true)
        if path.isEmpty { path = "/" }
        if let query = url.query(percentEncoded: true) { path += "?" + query }
        let hostPart = host.contains(":") ? "[\(host)]" : host
        let hostHeader = port == defaultPort ? hostPart : "\(hostPart):\(port)"
        return .success(
            ClientConnector.Target(host: host, port: port, secure: secure, requestTarget: path, hostHeader: hostHeader))
    }
}
