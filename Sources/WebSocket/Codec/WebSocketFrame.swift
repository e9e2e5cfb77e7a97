/// A WebSocket frame opcode (RFC 6455 §5.2). Reserved opcodes are rejected by the parser.
public enum WebSocketOpcode: UInt8, Sendable {
    /// A continuation fragment of a data message.
    case continuation = 0
    /// The first (or only) frame of a UTF-8 text message.
    case text = 1
    /// The first (or only) frame of a binary message.
    case binary = 2
    /// A close frame (optional 2-byte code and UTF-8 reason).
    case close = 8
    /// A ping; the peer answers with a pong carrying the same payload.
    case ping = 9
    /// A pong, in answer to a ping or unsolicited.
    case pong = 10

    /// Whether this is a control opcode (close, ping, pong).
    public var isControl: Bool { rawValue & 0x8 != 0 }
}

/// One decoded WebSocket frame with its payload already unmasked.
public struct WebSocketFrame: Sendable, Equatable {
    /// Whether this is the final fragment of a message.
    public var fin: Bool
    /// The frame's opcode.
    public var opcode: WebSocketOpcode
    /// The (unmasked) application payload.
    public var payload: [UInt8]

    /// Creates a frame.
    public init(fin: Bool, opcode: WebSocketOpcode, payload: [UInt8]) {
        self.fin = fin
        self.opcode = opcode
        self.payload = payload
    }
}
