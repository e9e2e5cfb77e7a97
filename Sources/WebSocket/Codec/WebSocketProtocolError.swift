/// A violation of RFC 6455 by the peer. Each maps to the close code to send (`closeCode`).
public enum WebSocketProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// RSV1, RSV2 or RSV3 was set although no extension was negotiated.
    case reservedBitsSet
    /// An opcode reserved by RFC 6455 (3–7, 11–15).
    case unknownOpcode(UInt8)
    /// A control frame without the FIN bit.
    case fragmentedControlFrame
    /// A control frame whose payload exceeds 125 bytes.
    case controlFrameTooLong(Int)
    /// A server received a frame that was not masked.
    case unmaskedClientFrame
    /// A client received a frame that was masked.
    case maskedServerFrame
    /// A 64-bit payload length with the most significant bit set.
    case invalidPayloadLength
    /// A continuation frame arrived while no fragmented message was in progress.
    case unexpectedContinuation
    /// A new text or binary frame arrived in the middle of a fragmented message.
    case fragmentExpected
    /// A text message (or a close reason) is not valid UTF-8.
    case invalidUTF8
    /// A frame or message is larger than the configured limit.
    case messageTooBig(limit: Int)
    /// A close frame with a 1-byte payload.
    case invalidClosePayload
    /// A close frame carrying a code that may not be sent on the wire.
    case invalidCloseCode(UInt16)

    /// The close code to send when failing the connection for this error: 1007 for invalid
    /// UTF-8, 1009 for oversized messages, 1002 for everything else.
    public var closeCode: UInt16 {
        switch self {
        case .invalidUTF8: return 1007
        case .messageTooBig: return 1009
        default: return 1002
        }
    }

    /// A short human-readable reason, also used as the close reason sent to the peer.
    public var description: String {
        switch self {
        case .reservedBitsSet: return "reserved bits set"
        case .unknownOpcode(let op): return "unknown opcode \(op)"
        case .fragmentedControlFrame: return "fragmented control frame"
        case .controlFrameTooLong(let n): return "control frame too long (\(n) bytes)"
        case .unmaskedClientFrame: return "unmasked client frame"
        case .maskedServerFrame: return "masked server frame"
        case .invalidPayloadLength: return "invalid payload length"
        case .unexpectedContinuation: return "unexpected continuation frame"
        case .fragmentExpected: return "continuation frame expected"
        case .invalidUTF8: return "invalid UTF-8"
        case .messageTooBig(let limit): return "message too big (limit \(limit) bytes)"
        case .invalidClosePayload: return "invalid close payload"
        case .invalidCloseCode(let code): return "invalid close code \(code)"
        }
    }
}
