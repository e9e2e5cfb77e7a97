import BirdRealtime
import Foundation

/// An in-memory transport factory for tests: every socket the client opens becomes a
/// ``ScriptedConnection`` that records what the client sends and lets the test play the server.
///
/// ```swift
/// let transport = ScriptedTransport()
/// let clock = ManualClock()
/// let bird = BirdRealtime(options: options, environment: transport.environment(clock: clock))
/// await bird.settle()
/// transport.last?.handshake(connectionId: "1.1")
/// ```
public final class ScriptedTransport: @unchecked Sendable {
    private let state = TestLock<[ScriptedConnection]>([])

    public init() {}

    /// The factory to put in a `RealtimeEnvironment`.
    public var factory: TransportFactory {
        { [self] configuration, queue, onEvents in
            let connection = ScriptedConnection(configuration: configuration, queue: queue, onEvents: onEvents)
            state.withLock { $0.append(connection) }
            return connection
        }
    }

    /// An environment with this transport, `clock`, and `http` for auth endpoints (by default
    /// every request fails as refused).
    public func environment(clock: ManualClock, http: ScriptedHTTP = ScriptedHTTP()) -> RealtimeEnvironment {
        RealtimeEnvironment(clock: clock, makeTransport: factory, http: http.performer)
    }

    /// Every socket opened so far, oldest first.
    public var connections: [ScriptedConnection] { state.withLock { $0 } }

    /// The most recent socket.
    public var last: ScriptedConnection? { state.withLock { $0.last } }

    /// How many sockets were opened.
    public var count: Int { state.withLock { $0.count } }
}

/// One scripted socket. The `receive…`, `open`, `handshake` and close methods deliver events to
/// the client synchronously on its queue (never call them from that queue).
public final class ScriptedConnection: Transport, @unchecked Sendable {
    private struct State {
        var connectCalled = false
        var writes: [[String]] = []
        var closedWith: (code: Int, reason: String)?
        var aborted = false
        var sendFailure: (any Error)?
    }

    /// What the client asked for (URL, CA file…).
    public let configuration: TransportConfiguration
    private let queue: DispatchQueue
    private let onEvents: @Sendable ([TransportEvent]) -> Void
    private let state = TestLock(State())

    init(
        configuration: TransportConfiguration, queue: DispatchQueue,
        onEvents: @escaping @Sendable ([TransportEvent]) -> Void
    ) {
        self.configuration = configuration
        self.queue = queue
        self.onEvents = onEvents
    }

    // MARK: - Transport (called by the client)

    public func connect() {
        state.withLock { $0.connectCalled = true }
    }

    public func send(texts: [String]) throws {
        try state.withLock { s in
            if let failure = s.sendFailure { throw failure }
            s.writes.append(texts)
        }
    }

    public func close(code: Int, reason: String) {
        state.withLock { s in
            if s.closedWith == nil { s.closedWith = (code, reason) }
        }
    }

    public func abort() {
        state.withLock { $0.aborted = true }
    }

    // MARK: - What the client did

    /// Whether the client called `connect()`.
    public var connectCalled: Bool { state.withLock { $0.connectCalled } }
    /// Every message sent, in order.
    public var sent: [String] { state.withLock { $0.writes.flatMap { $0 } } }
    /// Every socket write (a write may carry several messages).
    public var writes: [[String]] { state.withLock { $0.writes } }
    /// The sent messages, decoded.
    package var sentMessages: [WireMessage] { sent.compactMap { try? WireMessage.decode($0) } }
    /// The sent messages whose event is `event`.
    package func sent(event: String) -> [WireMessage] { sentMessages.filter { $0.event == event } }
    /// The close code and reason the client closed with, if it did.
    public var closedWith: (code: Int, reason: String)? { state.withLock { $0.closedWith } }
    /// Whether the client aborted the socket (no close frame).
    public var aborted: Bool { state.withLock { $0.aborted } }
    /// Whether the client closed or aborted the socket.
    public var isClosedByClient: Bool { state.withLock { $0.closedWith != nil || $0.aborted } }

    /// Makes later sends throw `error` (nil: sends succeed again).
    public func failSends(with error: (any Error)?) {
        state.withLock { $0.sendFailure = error }
    }

    // MARK: - Playing the server

    /// Delivers any transport event (as a read of one event).
    public func deliver(_ event: TransportEvent) {
        deliver(batch: [event])
    }

    /// Delivers several events as one socket read, the way the real transport reports them.
    public func deliver(batch events: [TransportEvent]) {
        guard !events.isEmpty else { return }
        queue.sync { onEvents(events) }
    }

    /// The server sent several text messages that arrived in one read.
    public func receive(batch texts: [String]) {
        deliver(batch: texts.map(TransportEvent.text))
    }

    /// The socket opened.
    public func open() {
        deliver(.opened)
    }

    /// The server sent a text message.
    public func receive(_ text: String) {
        deliver(.text(text))
    }

    /// The server sent a message with this event, channel and data (`data` sent as a JSON
    /// string when `doubleEncoded`, as the JSON itself otherwise).
    public func receive(
        event: String, channel: String? = nil, data: JSONValue? = nil, doubleEncoded: Bool = true,
        memberId: String? = nil, memberIdKey: String = "member_id"
    ) {
        var message =
            data.map { WireMessage(event: event, channel: channel, value: $0, doubleEncoded: doubleEncoded) }
            ?? WireMessage(event: event, channel: channel)
        message.memberId = memberId
        receive(message.encode(memberIdKey: memberIdKey))
    }

    /// The server sent a binary message.
    public func receive(binary: [UInt8]) {
        deliver(.binary(binary))
    }

    /// Opens the socket (when not yet open) and sends the handshake.
    public func handshake(
        connectionId: String? = "123.456", activityTimeout: Int? = 120, dialect: Dialect = .bird,
        open: Bool = true
    ) {
        if open { self.open() }
        var data = JSONObject()
        if let connectionId { data[dialect.connectionIdKey] = .string(connectionId) }
        if let activityTimeout { data["activity_timeout"] = .number(JSONNumber(activityTimeout)) }
        receive(event: ProtocolEvent.connectionEstablished.wireName(dialect), data: .object(data), doubleEncoded: true)
    }

    /// The server closed the socket with a close frame.
    public func serverClose(code: Int, reason: String = "") {
        deliver(.closed(TransportClose(code: code, reason: reason, initiatedLocally: false)))
    }

    /// The network failed (1006, no close frame), with a failure message.
    public func networkFailure(_ message: String = "connection reset by peer") {
        deliver(
            .closed(
                TransportClose(
                    code: 1006, reason: "", initiatedLocally: false, failure: TransportFailure(message: message))))
    }

    /// The client's transport failed the connection for a server protocol violation (1002, 1007, 1009).
    public func protocolViolation(code: Int, reason: String = "protocol violation") {
        deliver(.closed(TransportClose(code: code, reason: reason, initiatedLocally: true)))
    }
}

/// Auth endpoint requests answered by a closure, and recorded.
public final class ScriptedHTTP: @unchecked Sendable {
    private let requestsLock = TestLock<[AuthHTTPRequest]>([])
    private let responder: TestLock<@Sendable (AuthHTTPRequest) async throws -> AuthHTTPResponse>

    /// A scripted endpoint answering with `respond` (by default: connection refused).
    public init(
        _ respond: @escaping @Sendable (AuthHTTPRequest) async throws -> AuthHTTPResponse = { _ in
            throw TransportFailure(message: "connection refused")
        }
    ) {
        responder = TestLock(respond)
    }

    /// Replaces the responder.
    public func respond(_ respond: @escaping @Sendable (AuthHTTPRequest) async throws -> AuthHTTPResponse) {
        responder.withLock { $0 = respond }
    }

    /// Every request so far.
    public var requests: [AuthHTTPRequest] { requestsLock.withLock { $0 } }

    /// The performer to put in a `RealtimeEnvironment`.
    public var performer: AuthHTTPPerformer {
        { [self] request in
            requestsLock.withLock { $0.append(request) }
            let respond = responder.snapshot
            return try await respond(request)
        }
    }
}
