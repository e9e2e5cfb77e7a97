import Foundation

/// An HTTP request to an auth endpoint.
public struct AuthHTTPRequest: Sendable, Equatable {
    /// `POST`.
    public var method: String
    /// The endpoint.
    public var url: URL
    /// Headers: `content-type`, `authHeaders`, the provider's headers.
    public var headers: [String: String]
    /// The body (JSON or form, by dialect).
    public var body: [UInt8]
    /// Time allowed for the whole request.
    public var timeout: Duration
    /// An extra CA certificate file (PEM).
    public var caFile: String?

    /// Creates a request from its parts.
    public init(method: String, url: URL, headers: [String: String], body: [UInt8], timeout: Duration, caFile: String?)
    {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.caFile = caFile
    }

    /// The body as text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// An auth endpoint's answer.
public struct AuthHTTPResponse: Sendable, Equatable {
    /// The HTTP status.
    public var status: Int
    /// The body.
    public var body: [UInt8]

    /// A response with a byte body.
    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }

    /// A response with a text body.
    public init(status: Int, text: String) {
        self.init(status: status, body: Array(text.utf8))
    }
}

/// Performs an auth endpoint request.
public typealias AuthHTTPPerformer = @Sendable (AuthHTTPRequest) async throws -> AuthHTTPResponse

/// The client's outside world: time, sockets and HTTP. ``live`` is the real one; tests pass a
/// `ManualClock` and a `ScriptedTransport` (BirdRealtimeTestSupport) to
/// ``BirdRealtime/init(options:environment:)``.
public struct RealtimeEnvironment: Sendable {
    /// Time and timers.
    public var clock: any RealtimeClock
    /// Opens sockets.
    public var makeTransport: TransportFactory
    /// Performs auth endpoint requests.
    public var http: AuthHTTPPerformer

    /// Creates an environment from its three parts.
    public init(clock: any RealtimeClock, makeTransport: @escaping TransportFactory, http: @escaping AuthHTTPPerformer)
    {
        self.clock = clock
        self.makeTransport = makeTransport
        self.http = http
    }

    /// The real world: system clock, ``WebSocketTransport``, the WebSocket module's HTTP client.
    public static var live: RealtimeEnvironment {
        RealtimeEnvironment(
            clock: SystemRealtimeClock(), makeTransport: WebSocketTransport.factory,
            http: WebSocketTransport.performHTTP)
    }
}
