import Foundation

/// What a transport needs to open a socket.
public struct TransportConfiguration: Sendable, Equatable {
    /// `ws[s]://HOST[:PORT]/app/KEY?protocol=7&client=swift&version=V`.
    public var url: URL
    /// Extra request headers.
    public var headers: [String: String]
    /// Time allowed for TCP, TLS and the opening handshake.
    public var connectTimeout: Duration
    /// An extra CA certificate file (PEM).
    public var caFile: String?

    /// Creates a configuration; only the URL is required.
    public init(
        url: URL, headers: [String: String] = [:], connectTimeout: Duration = .seconds(10), caFile: String? = nil
    ) {
        self.url = url
        self.headers = headers
        self.connectTimeout = connectTimeout
        self.caFile = caFile
    }
}

/// Why a socket failed without a close frame.
public struct TransportFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// A one-line description (no secrets).
    public var message: String

    /// Creates a failure with a one-line description.
    public init(message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// How a socket ended.
public struct TransportClose: Sendable, Equatable {
    /// The close code (1006 when no close frame arrived).
    public var code: Int
    /// The close reason.
    public var reason: String
    /// Whether this side started the close (including failing the connection for a protocol violation).
    public var initiatedLocally: Bool
    /// The failure behind an abnormal end (refused, DNS, TLS, timeout, network), if any.
    public var failure: TransportFailure?

    /// Creates the record of how a socket ended.
    public init(code: Int, reason: String = "", initiatedLocally: Bool = false, failure: TransportFailure? = nil) {
        self.code = code
        self.reason = reason
        self.initiatedLocally = initiatedLocally
        self.failure = failure
    }
}

/// What a transport reports, in order, on the queue it was given. `.closed` comes once, last.
public enum TransportEvent: Sendable, Equatable {
    /// The socket is open (the WebSocket opening handshake completed).
    case opened
    /// A text message.
    case text(String)
    /// A binary message (not part of the protocol; reported as bad input).
    case binary([UInt8])
    /// A WebSocket-level ping or pong arrived (counts as activity).
    case heartbeat
    /// The socket ended.
    case closed(TransportClose)
}

/// A socket, Starscream-style: connect, send, close, abort; events come back through the
/// handler given to the ``TransportFactory``, one call per read (a batch of one or more events).
/// Every transport takes the same path into the client: there is no per-type side channel. The real one is ``WebSocketTransport``;
/// `ScriptedTransport` (BirdRealtimeTestSupport) is the in-memory one for tests.
public protocol Transport: AnyObject, Sendable {
    /// Starts opening the socket.
    func connect()
    /// Sends text messages in one write (coalescing). Throws when the socket cannot take them.
    func send(texts: [String]) throws
    /// Closes with a close frame.
    func close(code: Int, reason: String)
    /// Ends the socket without a close frame (as if the network died).
    func abort()
}

/// Makes a transport that reports its events on `queue` through `onEvents`: the events of one
/// socket read together, in order, in one call (never an empty array).
public typealias TransportFactory =
    @Sendable (
        _ configuration: TransportConfiguration,
        _ queue: DispatchQueue,
        _ onEvents: @escaping @Sendable ([TransportEvent]) -> Void
    ) -> any Transport

extension TransportConfiguration: CustomStringConvertible {
    /// The URL and the names of the extra headers; their values (tokens) are never shown.
    public var description: String {
        let names = headers.keys.sorted()
        return url.absoluteString + (names.isEmpty ? "" : " (headers: \(names.joined(separator: ", ")))")
    }
}
