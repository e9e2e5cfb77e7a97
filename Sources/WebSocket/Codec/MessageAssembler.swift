/// Joins data frames into messages: reassembles fragments, validates UTF-8 of text messages as
/// the fragments arrive, enforces the message size limit and lets control frames through in the
/// middle of a fragmented message. A close frame is validated and becomes `.closed` with
/// `initiatedLocally == false`.
public struct MessageAssembler: Sendable {
    /// The largest accepted message; larger ones fail with `.messageTooBig` (1009).
    public let maxMessageSize: Int

    private var inProgress: WebSocketOpcode?
    private var buffer: [UInt8] = []
    private var validator = UTF8Validator()

    /// Creates an assembler accepting messages up to `maxMessageSize` bytes.
    public init(maxMessageSize: Int = 4 << 20) {
        self.maxMessageSize = maxMessageSize
    }

    /// Whether a fragmented message is in progress.
    public var isAssembling: Bool { inProgress != nil }

    /// Takes one frame; returns an event when a message or control frame completes.
    public mutating func push(_ frame: WebSocketFrame) throws(WebSocketProtocolError) -> WebSocketEvent? {
        switch frame.opcode {
        case .ping: return .ping(frame.payload)
        case .pong: return .pong(frame.payload)
        case .close:
            let (code, reason) = try Self.parseClosePayload(frame.payload)
            return .closed(WebSocketCloseInfo(code: code, reason: reason, initiatedLocally: false))
        case .text, .binary:
            if inProgress != nil { throw .fragmentExpected }
            if frame.payload.count > maxMessageSize { throw .messageTooBig(limit: maxMessageSize) }
            if frame.fin {
                if frame.opcode == .binary { return .binary(frame.payload) }
                guard let text = UTF8Text.make(frame.payload) else { throw .invalidUTF8 }
                return .text(text)
            }
            inProgress = frame.opcode
            validator = UTF8Validator()
            if frame.opcode == .text, !validator.feed(frame.payload) { throw .invalidUTF8 }
            buffer = frame.payload
            return nil
        case .continuation:
            guard let opcode = inProgress else { throw .unexpectedContinuation }
            if buffer.count + frame.payload.count > maxMessageSize { throw .messageTooBig(limit: maxMessageSize) }
            if opcode == .text, !validator.feed(frame.payload) { throw .invalidUTF8 }
            buffer.append(contentsOf: frame.payload)
            guard frame.fin else { return nil }
            inProgress = nil
            let message = buffer
            buffer = []
            if opcode == .binary { return .binary(message) }
            guard validator.isComplete else { throw .invalidUTF8 }
            return .text(String(decoding: message, as: UTF8.self))
        }
    }

    /// Decodes and validates a close frame's payload: empty → 1005; one byte → error; a code
    /// that may not appear on the wire → error; a reason that is not UTF-8 → `.invalidUTF8`.
    public static func parseClosePayload(_ payload: [UInt8]) throws(WebSocketProtocolError) -> (
        code: UInt16, reason: String
    ) {
        if payload.isEmpty { return (1005, "") }
        if payload.count == 1 { throw .invalidClosePayload }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        guard isValidWireCloseCode(code) else { throw .invalidCloseCode(code) }
        guard let reason = String(validating: payload[2...], as: UTF8.self) else { throw .invalidUTF8 }
        return (code, reason)
    }

    /// Whether `code` may be sent in a close frame (RFC 6455 §7.4).
    public static func isValidWireCloseCode(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1011, 1012...1014: return true
        case 3000...4999: return true
        default: return false
        }
    }
}
