import Foundation

/// Why a connection changed state.
public enum StateChangeCause: Sendable, Equatable, CustomStringConvertible {
    /// The automatic first connect after `init`.
    case start
    /// The app called `connect()`.
    case connectCalled
    /// The server's handshake arrived with a connection id.
    case handshake
    /// A scheduled retry fired (attempt number, from 0).
    case retry(attempt: Int)
    /// The server closed the socket with this code and reason.
    case serverClose(code: Int, reason: String)
    /// No pong arrived within the pong timeout; the client closed with 4201.
    case pongTimeout
    /// The network failed (refused, unreachable, DNS, TLS, timeout, connection lost, or an open
    /// socket got no handshake in time).
    case networkError(String)
    /// The server violated the WebSocket protocol; the client closed with this code.
    case protocolViolation(code: Int, reason: String)
    /// The handshake carried no connection id; the client closed with 1002.
    case handshakeWithoutId
    /// The app called `disconnect()`.
    case disconnectCalled
    /// The app called `dropConnection()` (the socket closed without a close frame).
    case dropped
    /// The app called `signout()`; the client reconnects without an identity.
    case signout
    /// The options cannot be used (for example `allowInsecure` with a remote host).
    case configuration(String)
    /// The host has no usable network (no default route through an interface that is up): the
    /// client is `unavailable` and waits for the network instead of retrying. Carries the path's
    /// description (`no default route`).
    case networkUnavailable(String)
    /// The network came back: the client connects at once with its backoff reset. Carries the
    /// path's description (`default via eth0 (IPv4)`).
    case networkRestored(String)
    /// The network path changed (new addresses or default route) while a retry was pending: the
    /// client connects at once with its backoff reset. Carries the path's description.
    case networkChanged(String)
    /// The endpoint provider (or the handshake headers provider) did not answer in time, threw,
    /// or answered something the security rules refuse: the backoff path. Carries the reason
    /// (`endpoint provider did not answer within 10 s`).
    case endpointUnavailable(String)

    public var description: String {
        switch self {
        case .start: return "start"
        case .connectCalled: return "connect() called"
        case .handshake: return "handshake"
        case .retry(let attempt): return "retry (attempt \(attempt))"
        case .serverClose(let code, let reason):
            return reason.isEmpty
                ? "closed by server: \(code) \(CloseCode.meaning(code))" : "closed by server: \(code) \(reason)"
        case .pongTimeout: return "pong timeout (4201)"
        case .networkError(let message): return "network error: \(message)"
        case .protocolViolation(let code, let reason): return "protocol violation (\(code)): \(reason)"
        case .handshakeWithoutId: return "handshake without connection id"
        case .disconnectCalled: return "disconnect() called"
        case .dropped: return "connection dropped"
        case .signout: return "signout() called"
        case .configuration(let message): return "configuration error: \(message)"
        case .networkUnavailable(let path): return "no network: \(path)"
        case .networkRestored(let path): return "network back: \(path)"
        case .networkChanged(let path): return "network changed: \(path)"
        case .endpointUnavailable(let reason): return "endpoint unavailable: \(reason)"
        }
    }

    /// The close code involved, when there is one.
    public var closeCode: Int? {
        switch self {
        case .serverClose(let code, _), .protocolViolation(let code, _): return code
        case .pongTimeout: return CloseCode.pongTimeout
        case .handshakeWithoutId: return 1002
        case .dropped: return 1006
        default: return nil
        }
    }
}

/// One state transition, with its cause.
public struct StateChange: Sendable, Equatable, CustomStringConvertible {
    /// The state before.
    public var previous: ConnectionState
    /// The state after.
    public var current: ConnectionState
    /// What caused the transition.
    public var cause: StateChangeCause
    /// The connection id, when `current` is `.connected`.
    public var connectionId: String?
    /// The activity timeout in force on the new connection, when `current` is `.connected`:
    /// the smaller of `Options.activityTimeout` and the handshake's `activity_timeout`.
    public var activityTimeout: Duration?

    /// Creates a transition record (tests and tools; the client makes its own).
    public init(
        previous: ConnectionState, current: ConnectionState, cause: StateChangeCause, connectionId: String? = nil,
        activityTimeout: Duration? = nil
    ) {
        self.previous = previous
        self.current = current
        self.cause = cause
        self.connectionId = connectionId
        self.activityTimeout = activityTimeout
    }

    public var description: String { "\(previous) → \(current) (\(cause))" }
}

/// A scheduled reconnect attempt (`connecting_in`).
public struct RetrySchedule: Sendable, Equatable {
    /// How long until the attempt.
    public var delay: Duration
    /// The attempt number, from 0 (attempt n waits up to min(30 s, 1 s · 2ⁿ)).
    public var attempt: Int
    /// Why the connection was lost.
    public var cause: StateChangeCause
    /// When the attempt will be made (wall clock of the client's clock).
    public var at: Date
}
