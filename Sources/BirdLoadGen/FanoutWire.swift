import WebSocket

/// One load-generator connection at the WebSocket level, as a value: the opening handshake, then
/// frames in (the shared `FrameParser`), masked frames out (the shared `FrameEncoder`). Lean on
/// purpose: a fixed `Sec-WebSocket-Key` (this is a test tool talking to our own edge), no TLS,
/// pings answered, a close frame ends it.
public struct FanoutWire: Sendable {
    /// What the driver must do after an input.
    public enum Action: Sendable, Equatable {
        /// The handshake succeeded.
        case opened
        /// A whole text message arrived.
        case text([UInt8])
        /// Write these bytes.
        case write([UInt8])
        /// The connection is over (a close frame, a bad handshake or a protocol error).
        case closed(String)
    }

    /// The fixed handshake key and the accept value RFC 6455 derives from it (its own example).
    static let key = "dGhlIHNhbXBsZSBub25jZQ=="
    static let accept: [UInt8] = Array("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=".utf8)

    private var handshaking = true
    private var head: [UInt8] = []
    private var parser = FrameParser(role: .client, maxFrameSize: 1 << 20)
    private var assembler = MessageAssembler(maxMessageSize: 1 << 20)
    private var closed = false

    /// A connection before its handshake.
    public init() {}

    /// The upgrade request for `path` (with its query) on `host:port`.
    public static func upgradeRequest(host: String, port: Int, path: String) -> [UInt8] {
        Array(
            ("GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8)
    }

    /// A masked text frame holding `text`.
    public static func textFrame(_ text: String) -> [UInt8] {
        FrameEncoder.encode(opcode: .text, payload: text.utf8, mask: FrameEncoder.randomMask())
    }

    /// Feeds received bytes.
    public mutating func input(_ bytes: UnsafeRawBufferPointer) -> [Action] {
        guard !closed else { return [] }
        var actions: [Action] = []
        if handshaking {
            head.append(contentsOf: bytes)
            guard let end = Self.headEnd(head) else {
                if head.count > 16 * 1024 { return close("handshake answer too long", into: &actions) }
                return []
            }
            let status = head.prefix(12)
            guard status.elementsEqual("HTTP/1.1 101".utf8) else {
                let line = head.prefix { $0 != UInt8(ascii: "\r") }
                return close("handshake refused: \(String(decoding: line.prefix(200), as: UTF8.self))", into: &actions)
            }
            guard Self.contains(head[..<end], Self.accept) else {
                return close("handshake: Sec-WebSocket-Accept does not match", into: &actions)
            }
            handshaking = false
            actions.append(.opened)
            let rest = Array(head[end...])
            head = []
            parser.append(rest)
        } else {
            parser.append(bytes)
        }
        do {
            while let frame = try parser.next() {
                if frame.fin && frame.opcode == .text && !assembler.isAssembling {
                    actions.append(.text(frame.payload))
                    continue
                }
                guard let event = try assembler.push(frame) else { continue }
                switch event {
                case .text(let text): actions.append(.text(Array(text.utf8)))
                case .ping(let payload):
                    actions.append(
                        .write(FrameEncoder.encode(opcode: .pong, payload: payload, mask: FrameEncoder.randomMask())))
                case .closed(let info): return close("closed by the edge: \(info.code) \(info.reason)", into: &actions)
                default: break
                }
            }
        } catch {
            return close("protocol error: \(error)", into: &actions)
        }
        return actions
    }

    /// The peer closed TCP.
    public mutating func peerClosed() -> [Action] {
        guard !closed else { return [] }
        closed = true
        return [.closed("connection closed by the edge")]
    }

    private mutating func close(_ reason: String, into actions: inout [Action]) -> [Action] {
        closed = true
        actions.append(.closed(reason))
        return actions
    }

    /// The index just past the `\r\n\r\n` ending an HTTP head, or nil.
    static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4)
        where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i + 4
        }
        return nil
    }

    private static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        var i = haystack.startIndex
        while i + needle.count <= haystack.endIndex {
            if haystack[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }
}
