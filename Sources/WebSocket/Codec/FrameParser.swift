/// An incremental RFC 6455 frame parser: append bytes as they arrive, then call `next()` until it
/// returns nil. Correct for any split of the byte stream; no I/O.
///
/// Frame-level rules are checked as soon as the header bytes are present: reserved bits, reserved
/// opcodes, fragmented or oversized control frames, masking by role and the size limit. After an
/// error the parser must not be used again (the connection is to be failed).
public struct FrameParser: Sendable {
    /// Which side of the connection this parser reads for.
    public enum Role: Sendable {
        /// A client: expects unmasked frames from the server.
        case client
        /// A server: requires masked frames from the client.
        case server
    }

    /// The parser's role.
    public let role: Role
    /// The largest accepted frame payload; larger frames fail with `.messageTooBig` (1009).
    public let maxFrameSize: Int

    private var buffer: [UInt8] = []
    private var index = 0

    /// Creates a parser for `role` accepting payloads up to `maxFrameSize` bytes.
    public init(role: Role, maxFrameSize: Int = 4 << 20) {
        self.role = role
        self.maxFrameSize = maxFrameSize
    }

    /// The number of buffered bytes not yet consumed by `next()`.
    public var bufferedByteCount: Int { buffer.count - index }

    /// Appends received bytes.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Appends received bytes from raw memory.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    private mutating func compact() {
        if index == buffer.count {
            if index > 0 {
                buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
                index = 0
            }
        } else if index >= 64 * 1024 && index * 2 >= buffer.count {
            buffer.removeSubrange(0..<index)
            index = 0
        }
    }

    /// The header of the frame at the read index.
    private struct Header {
        var fin: Bool
        var opcode: WebSocketOpcode
        /// Header bytes including the masking key.
        var length: Int
        var payloadLength: Int
        /// The masking key's offset from the frame start, when masked.
        var maskOffset: Int?
    }

    /// Reads and checks the header of the next frame; nil when more bytes are needed.
    private func header() throws(WebSocketProtocolError) -> Header? {
        let available = buffer.count - index
        guard available >= 2 else { return nil }
        let b0 = buffer[index]
        let b1 = buffer[index + 1]
        if b0 & 0x70 != 0 { throw .reservedBitsSet }
        guard let opcode = WebSocketOpcode(rawValue: b0 & 0x0F) else { throw .unknownOpcode(b0 & 0x0F) }
        let fin = b0 & 0x80 != 0
        let masked = b1 & 0x80 != 0
        if opcode.isControl {
            if !fin { throw .fragmentedControlFrame }
        }
        switch role {
        case .client: if masked { throw .maskedServerFrame }
        case .server: if !masked { throw .unmaskedClientFrame }
        }
        let len7 = Int(b1 & 0x7F)
        var headerLength = 2
        var length: Int
        if len7 == 126 {
            headerLength = 4
            guard available >= 4 else { return nil }
            length = Int(buffer[index + 2]) << 8 | Int(buffer[index + 3])
        } else if len7 == 127 {
            headerLength = 10
            guard available >= 10 else { return nil }
            var value: UInt64 = 0
            for i in 2..<10 { value = value << 8 | UInt64(buffer[index + i]) }
            if value & (1 << 63) != 0 { throw .invalidPayloadLength }
            length = value > UInt64(Int.max / 2) ? Int.max / 2 : Int(value)
        } else {
            length = len7
        }
        if opcode.isControl && length > 125 { throw .controlFrameTooLong(length) }
        if length > maxFrameSize { throw .messageTooBig(limit: maxFrameSize) }
        let maskOffset = headerLength
        if masked { headerLength += 4 }
        guard available >= headerLength + length else { return nil }
        return Header(
            fin: fin, opcode: opcode, length: headerLength, payloadLength: length, maskOffset: masked ? maskOffset : nil
        )
    }

    /// Returns the next complete frame, nil when more bytes are needed, or throws on a violation.
    public mutating func next() throws(WebSocketProtocolError) -> WebSocketFrame? {
        guard let h = try header() else { return nil }
        let start = index + h.length
        var payload = Array(buffer[start..<(start + h.payloadLength)])
        if let maskOffset = h.maskOffset {
            let key = maskingKey(at: index + maskOffset)
            payload.withUnsafeMutableBytes { Masking.apply(key: key, to: $0) }
        }
        index = start + h.payloadLength
        return WebSocketFrame(fin: h.fin, opcode: h.opcode, payload: payload)
    }

    /// What ``nextMessageOrFrame(maxMessageSize:)`` found.
    enum Parsed {
        /// A complete, unfragmented text message.
        case text(String)
        /// Any other frame (for the `MessageAssembler`).
        case frame(WebSocketFrame)
    }

    /// Like ``next()``, but a complete unfragmented text frame comes back as its text, made
    /// straight from the receive buffer (one copy, no intermediate payload array). Use only while
    /// no fragmented message is being assembled. The text frame's checks are the assembler's:
    /// over `maxMessageSize` → `.messageTooBig`, invalid UTF-8 → `.invalidUTF8`.
    mutating func nextMessageOrFrame(maxMessageSize: Int) throws(WebSocketProtocolError) -> Parsed? {
        guard let h = try header() else { return nil }
        guard h.fin, h.opcode == .text else {
            guard let frame = try next() else { return nil }
            return .frame(frame)
        }
        if h.payloadLength > maxMessageSize { throw .messageTooBig(limit: maxMessageSize) }
        let start = index + h.length
        let end = start + h.payloadLength
        let key = h.maskOffset.map { maskingKey(at: index + $0) }
        let text = buffer.withUnsafeMutableBufferPointer { all -> String? in
            let payload = UnsafeMutableBufferPointer(rebasing: all[start..<end])
            if let key { Masking.apply(key: key, to: UnsafeMutableRawBufferPointer(payload)) }
            return UTF8Text.make(UnsafeBufferPointer(payload))
        }
        guard let text else { throw .invalidUTF8 }
        index = end
        return .text(text)
    }

    private func maskingKey(at offset: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        (buffer[offset], buffer[offset + 1], buffer[offset + 2], buffer[offset + 3])
    }
}
