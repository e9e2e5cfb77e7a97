/// How a connection ended.
public struct WebSocketCloseInfo: Sendable, Equatable {
    /// The close code: the peer's code when its close frame arrived (1005 when it carried none),
    /// the code we failed the connection with on a protocol violation, or 1006 when no close
    /// frame arrived (TCP dropped, connect failure, abort, close timeout).
    public var code: UInt16
    /// The close reason (UTF-8), possibly empty.
    public var reason: String
    /// Whether this side started the close (close(), abort(), drop(), or failing on a violation).
    public var initiatedLocally: Bool
    /// The error behind an abnormal end, if any.
    public var error: WebSocketError?

    /// Creates a close description.
    public init(code: UInt16, reason: String, initiatedLocally: Bool, error: WebSocketError? = nil) {
        self.code = code
        self.reason = reason
        self.initiatedLocally = initiatedLocally
        self.error = error
    }
}

/// What a WebSocket connection reports, in order. `.closed` comes exactly once and is always last.
public enum WebSocketEvent: Sendable, Equatable {
    /// The opening handshake completed.
    case opened
    /// A complete text message.
    case text(String)
    /// A complete binary message.
    case binary([UInt8])
    /// A ping from the peer (already answered with a pong).
    case ping([UInt8])
    /// A pong from the peer.
    case pong([UInt8])
    /// The connection ended.
    case closed(WebSocketCloseInfo)
}
