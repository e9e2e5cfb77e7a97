/// Why ``BirdRealtime/ping(timeout:)`` returned no round-trip time.
public enum PingError: BirdRealtimeError, Equatable {
    /// The client was not `connected` when asked.
    case notConnected
    /// No pong arrived within the timeout given.
    case timedOut(after: Duration)
    /// The connection ended (or the client was released) before the pong arrived.
    case connectionClosed

    public var message: String {
        switch self {
        case .notConnected: return "not connected: no ping sent"
        case .timedOut(let after): return "no pong within \(after)"
        case .connectionClosed: return "the connection ended before the pong arrived"
        }
    }
}
