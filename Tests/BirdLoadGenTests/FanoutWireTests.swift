import Testing
import WebSocket

@testable import BirdLoadGen

@Suite("The fan-out connection (WebSocket level)")
struct FanoutWireTests {
    static let answer =
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"

    static func feed(_ wire: inout FanoutWire, _ bytes: [UInt8]) -> [FanoutWire.Action] {
        bytes.withUnsafeBytes { wire.input($0) }
    }

    static func serverText(_ text: String) -> [UInt8] {
        FrameEncoder.encode(opcode: .text, payload: text.utf8, mask: nil)
    }

    @Test("The 101 answer split anywhere opens it; frames that came with it are read")
    func handshakeSplit() {
        let bytes = Array(Self.answer.utf8) + Self.serverText("{\"event\":\"a\"}")
        for cut in [1, 10, Self.answer.utf8.count - 1, Self.answer.utf8.count, bytes.count - 1] {
            var wire = FanoutWire()
            var actions = Self.feed(&wire, Array(bytes[..<cut]))
            actions += Self.feed(&wire, Array(bytes[cut...]))
            #expect(actions == [.opened, .text(Array("{\"event\":\"a\"}".utf8))], "cut at \(cut)")
        }
    }

    @Test("A refusal or a wrong accept value closes it")
    func badHandshake() {
        var refused = FanoutWire()
        let status = Self.feed(&refused, Array("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n".utf8))
        #expect(status == [.closed("handshake refused: HTTP/1.1 403 Forbidden")])
        var wrong = FanoutWire()
        let accept = Self.feed(&wrong, Array(Self.answer.replacingOccurrences(of: "xOo=", with: "xOp=").utf8))
        #expect(accept == [.closed("handshake: Sec-WebSocket-Accept does not match")])
        #expect(Self.feed(&wrong, Self.serverText("x")).isEmpty)  // nothing after the end
    }

    @Test("Pings get a masked pong; fragments are assembled; a close frame ends it")
    func frames() throws {
        var wire = FanoutWire()
        _ = Self.feed(&wire, Array(Self.answer.utf8))
        let pong = Self.feed(&wire, FrameEncoder.encode(opcode: .ping, payload: [1, 2], mask: nil))
        guard case .write(let bytes)? = pong.first else {
            Issue.record("no pong: \(pong)")
            return
        }
        var server = FrameParser(role: .server)
        server.append(bytes)
        #expect(try server.next() == WebSocketFrame(fin: true, opcode: .pong, payload: [1, 2]))
        let fragments =
            FrameEncoder.encode(opcode: .text, payload: Array("ab".utf8), fin: false, mask: nil)
            + FrameEncoder.encode(opcode: .continuation, payload: Array("cd".utf8), mask: nil)
        #expect(Self.feed(&wire, fragments) == [.text(Array("abcd".utf8))])
        let close = Self.feed(
            &wire,
            FrameEncoder.encode(
                opcode: .close, payload: FrameEncoder.closePayload(code: 4200, reason: "bye"), mask: nil))
        #expect(close == [.closed("closed by the edge: 4200 bye")])
    }

    @Test("The upgrade request and text frames are what an RFC 6455 server expects")
    func outbound() throws {
        let request = String(
            decoding: FanoutWire.upgradeRequest(host: "127.0.0.1", port: 6001, path: "/app/k?protocol=7"), as: UTF8.self
        )
        #expect(request.hasPrefix("GET /app/k?protocol=7 HTTP/1.1\r\nHost: 127.0.0.1:6001\r\n"))
        #expect(request.contains("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"))
        #expect(request.hasSuffix("\r\n\r\n"))
        var server = FrameParser(role: .server)
        server.append(FanoutWire.textFrame("hello"))
        #expect(try server.next() == WebSocketFrame(fin: true, opcode: .text, payload: Array("hello".utf8)))
    }
}
