import Testing
@testable import WebSocket

@Suite("Frame codec")
struct FrameCodecTests {
    // RFC 6455 §5.7 examples.
    static let helloUnmasked: [UInt8] = [0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f]
    static let helloMasked: [UInt8] = [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]
    static let helFragment: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6c]
    static let loFragment: [UInt8] = [0x80, 0x02, 0x6c, 0x6f]
    static let pingHello: [UInt8] = [0x89, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f]
    static let pongHelloMasked: [UInt8] = [0x8a, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]

    func parseAll(_ bytes: [UInt8], role: FrameParser.Role = .client, max: Int = 4 << 20) throws -> [WebSocketFrame] {
        var parser = FrameParser(role: role, maxFrameSize: max)
        parser.append(bytes)
        var frames: [WebSocketFrame] = []
        while let frame = try parser.next() { frames.append(frame) }
        return frames
    }

    func error(_ bytes: [UInt8], role: FrameParser.Role = .client, max: Int = 4 << 20) -> WebSocketProtocolError? {
        var parser = FrameParser(role: role, maxFrameSize: max)
        parser.append(bytes)
        do {
            while try parser.next() != nil {}
            return nil
        } catch {
            return error
        }
    }

    @Test func rfcSingleFrameUnmaskedText() throws {
        #expect(
            try parseAll(Self.helloUnmasked) == [WebSocketFrame(fin: true, opcode: .text, payload: Array("Hello".utf8))]
        )
    }

    @Test func rfcSingleFrameMaskedText() throws {
        #expect(
            try parseAll(Self.helloMasked, role: .server) == [
                WebSocketFrame(fin: true, opcode: .text, payload: Array("Hello".utf8))
            ])
        let encoded = FrameEncoder.encode(opcode: .text, payload: Array("Hello".utf8), mask: (0x37, 0xfa, 0x21, 0x3d))
        #expect(encoded == Self.helloMasked)
        #expect(FrameEncoder.encode(opcode: .text, payload: Array("Hello".utf8), mask: nil) == Self.helloUnmasked)
    }

    @Test func rfcFragmentedUnmaskedText() throws {
        let frames = try parseAll(Self.helFragment + Self.loFragment)
        #expect(frames.map(\.fin) == [false, true])
        #expect(frames.map(\.opcode) == [.text, .continuation])
        var assembler = MessageAssembler()
        #expect(try assembler.push(frames[0]) == nil)
        #expect(try assembler.push(frames[1]) == .text("Hello"))
    }

    @Test func rfcPingAndMaskedPong() throws {
        #expect(
            try parseAll(Self.pingHello) == [WebSocketFrame(fin: true, opcode: .ping, payload: Array("Hello".utf8))])
        #expect(
            try parseAll(Self.pongHelloMasked, role: .server) == [
                WebSocketFrame(fin: true, opcode: .pong, payload: Array("Hello".utf8))
            ])
    }

    @Test(arguments: [256, 65536])
    func rfcExtendedLengths(size: Int) throws {
        let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0) }
        let encoded = FrameEncoder.encode(opcode: .binary, payload: payload, mask: nil)
        if size == 256 {
            #expect(Array(encoded.prefix(4)) == [0x82, 0x7E, 0x01, 0x00])
        } else {
            #expect(Array(encoded.prefix(10)) == [0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0])
        }
        #expect(try parseAll(encoded) == [WebSocketFrame(fin: true, opcode: .binary, payload: payload)])
    }

    @Test func everySplitPointOfAMultiFrameStream() throws {
        var stream: [UInt8] = []
        let masked = [Self.helloMasked, Self.pongHelloMasked].joined()
        stream += masked
        FrameEncoder.encode(
            opcode: .binary, payload: [UInt8](repeating: 7, count: 300), mask: (1, 2, 3, 4), into: &stream)
        FrameEncoder.encode(
            opcode: .text, payload: Array("fragment ".utf8), fin: false, mask: (9, 8, 7, 6), into: &stream)
        FrameEncoder.encode(opcode: .ping, payload: [], mask: (5, 5, 5, 5), into: &stream)
        FrameEncoder.encode(opcode: .continuation, payload: Array("end".utf8), mask: (0, 0, 0, 1), into: &stream)
        FrameEncoder.encode(
            opcode: .binary, payload: [UInt8](repeating: 1, count: 70_000), mask: (4, 3, 2, 1), into: &stream)
        let expected = try parseAll(stream, role: .server)
        #expect(expected.count == 7)
        for split in 0...stream.count where split % 97 == 0 || split < 400 || split > stream.count - 400 {
            var parser = FrameParser(role: .server)
            var frames: [WebSocketFrame] = []
            parser.append(stream[0..<split])
            while let f = try parser.next() { frames.append(f) }
            parser.append(stream[split...])
            while let f = try parser.next() { frames.append(f) }
            #expect(frames == expected, "split at \(split)")
        }
        // Byte by byte.
        var parser = FrameParser(role: .server)
        var frames: [WebSocketFrame] = []
        for byte in stream {
            parser.append(CollectionOfOne(byte))
            while let f = try parser.next() { frames.append(f) }
        }
        #expect(frames == expected)
    }

    @Test func everySplitPointOfTheRFCExamples() throws {
        let stream = Self.helloUnmasked + Self.helFragment + Self.pingHello + Self.loFragment
        for split in 0...stream.count {
            var parser = FrameParser(role: .client)
            var assembler = MessageAssembler()
            var events: [WebSocketEvent] = []
            for part in [stream[0..<split], stream[split...]] {
                parser.append(part)
                while let f = try parser.next() { if let e = try assembler.push(f) { events.append(e) } }
            }
            #expect(events == [.text("Hello"), .ping(Array("Hello".utf8)), .text("Hello")], "split at \(split)")
        }
    }

    @Test func controlFramesInterleavedInAFragmentedMessage() throws {
        var assembler = MessageAssembler()
        let frames = [
            WebSocketFrame(fin: false, opcode: .binary, payload: [1]),
            WebSocketFrame(fin: true, opcode: .ping, payload: [9]),
            WebSocketFrame(fin: false, opcode: .continuation, payload: [2]),
            WebSocketFrame(fin: true, opcode: .pong, payload: [8]),
            WebSocketFrame(fin: true, opcode: .continuation, payload: [3]),
        ]
        var events: [WebSocketEvent] = []
        for f in frames { if let e = try assembler.push(f) { events.append(e) } }
        #expect(events == [.ping([9]), .pong([8]), .binary([1, 2, 3])])
    }

    @Test func utf8SplitAcrossFragments() throws {
        let text = "h\u{e9}llo \u{20ac} \u{1F600}"
        let bytes = Array(text.utf8)
        for split in 1..<bytes.count {
            var assembler = MessageAssembler()
            #expect(
                try assembler.push(WebSocketFrame(fin: false, opcode: .text, payload: Array(bytes[0..<split]))) == nil)
            #expect(
                try assembler.push(WebSocketFrame(fin: true, opcode: .continuation, payload: Array(bytes[split...])))
                    == .text(text))
        }
    }

    @Test func invalidUTF8FailsFastInTheFirstFragment() {
        var assembler = MessageAssembler()
        #expect(throws: WebSocketProtocolError.invalidUTF8) {
            try assembler.push(WebSocketFrame(fin: false, opcode: .text, payload: [0x61, 0xC0, 0xAF]))
        }
    }

    @Test(arguments: [
        [0xFF] as [UInt8], [0xC3, 0x28], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
        [0xF0, 0x9F, 0x98],
    ])
    func invalidUTF8Text(bytes: [UInt8]) {
        var assembler = MessageAssembler()
        do {
            _ = try assembler.push(WebSocketFrame(fin: true, opcode: .text, payload: bytes))
            Issue.record("accepted \(bytes)")
        } catch {
            #expect(error == .invalidUTF8)
            #expect(error.closeCode == 1007)
        }
        var fragmented = MessageAssembler()
        do {
            _ = try fragmented.push(WebSocketFrame(fin: false, opcode: .text, payload: bytes))
            _ = try fragmented.push(WebSocketFrame(fin: true, opcode: .continuation, payload: []))
            Issue.record("accepted fragmented \(bytes)")
        } catch {
            #expect(error == .invalidUTF8)
        }
    }

    @Test func frameViolationsMapToTheirCloseCodes() {
        let cases: [([UInt8], FrameParser.Role, WebSocketProtocolError, UInt16)] = [
            ([0xC1, 0x00], .client, .reservedBitsSet, 1002),
            ([0x91, 0x00], .client, .reservedBitsSet, 1002),
            ([0x83, 0x00], .client, .unknownOpcode(3), 1002),
            ([0x8B, 0x00], .client, .unknownOpcode(11), 1002),
            ([0x09, 0x00], .client, .fragmentedControlFrame, 1002),
            ([0x89, 0x7E, 0x00, 0x7E], .client, .controlFrameTooLong(126), 1002),
            ([0x81, 0x00], .server, .unmaskedClientFrame, 1002),
            ([0x81, 0x80, 1, 2, 3, 4], .client, .maskedServerFrame, 1002),
            ([0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0], .client, .invalidPayloadLength, 1002),
            ([0x82, 0x7E, 0x10, 0x00], .client, .messageTooBig(limit: 1000), 1009),
        ]
        for (bytes, role, expected, code) in cases {
            let got = error(bytes, role: role, max: 1000)
            #expect(got == expected, "\(bytes)")
            #expect(got?.closeCode == code)
        }
    }

    @Test func messageViolationsMapToTheirCloseCodes() {
        var a = MessageAssembler(maxMessageSize: 10)
        #expect(throws: WebSocketProtocolError.unexpectedContinuation) {
            try a.push(WebSocketFrame(fin: true, opcode: .continuation, payload: []))
        }
        var b = MessageAssembler(maxMessageSize: 10)
        #expect(throws: WebSocketProtocolError.fragmentExpected) {
            _ = try b.push(WebSocketFrame(fin: false, opcode: .text, payload: [0x61]))
            _ = try b.push(WebSocketFrame(fin: true, opcode: .binary, payload: [1]))
        }
        var c = MessageAssembler(maxMessageSize: 10)
        do {
            _ = try c.push(WebSocketFrame(fin: false, opcode: .binary, payload: [UInt8](repeating: 0, count: 6)))
            _ = try c.push(WebSocketFrame(fin: true, opcode: .continuation, payload: [UInt8](repeating: 0, count: 6)))
            Issue.record("accepted a too-big message")
        } catch {
            #expect(error == .messageTooBig(limit: 10))
            #expect(error.closeCode == 1009)
        }
        var d = MessageAssembler(maxMessageSize: 10)
        #expect(throws: WebSocketProtocolError.messageTooBig(limit: 10)) {
            try d.push(WebSocketFrame(fin: true, opcode: .text, payload: [UInt8](repeating: 0x61, count: 11)))
        }
    }

    @Test func closePayloads() throws {
        var a = MessageAssembler()
        #expect(
            try a.push(WebSocketFrame(fin: true, opcode: .close, payload: []))
                == .closed(WebSocketCloseInfo(code: 1005, reason: "", initiatedLocally: false)))
        #expect(
            try a.push(
                WebSocketFrame(
                    fin: true, opcode: .close, payload: FrameEncoder.closePayload(code: 4001, reason: "bye \u{e9}")))
                == .closed(WebSocketCloseInfo(code: 4001, reason: "bye \u{e9}", initiatedLocally: false)))
        #expect(throws: WebSocketProtocolError.invalidClosePayload) {
            try a.push(WebSocketFrame(fin: true, opcode: .close, payload: [3]))
        }
        for code: UInt16 in [0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000] {
            #expect(throws: WebSocketProtocolError.invalidCloseCode(code)) {
                try a.push(
                    WebSocketFrame(
                        fin: true, opcode: .close, payload: FrameEncoder.closePayload(code: code, reason: "")))
            }
        }
        #expect(throws: WebSocketProtocolError.invalidUTF8) {
            try a.push(WebSocketFrame(fin: true, opcode: .close, payload: [0x03, 0xE8, 0xFF]))
        }
        let long = String(repeating: "\u{e9}", count: 100)
        let payload = FrameEncoder.closePayload(code: 1000, reason: long)
        #expect(payload.count <= 125)
        #expect(String(validating: payload[2...], as: UTF8.self) != nil)
    }

    @Test func randomMasksRoundTrip() throws {
        let payload = (0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let a = FrameEncoder.encode(opcode: .binary, payload: payload, mask: FrameEncoder.randomMask())
        let b = FrameEncoder.encode(opcode: .binary, payload: payload, mask: FrameEncoder.randomMask())
        #expect(a != b)  // fresh keys (a 2^-32 chance of a false failure)
        #expect(try parseAll(a, role: .server).first?.payload == payload)
        #expect(try parseAll(b, role: .server).first?.payload == payload)
    }

    @Test func acceptValueMatchesRFCExample() {
        #expect(Handshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(Handshake.isValidKey("dGhlIHNhbXBsZSBub25jZQ=="))
        #expect(!Handshake.isValidKey("short"))
        #expect(Handshake.isValidKey(Handshake.randomKey()))
    }

    @Test func httpRequestDecodesPathAndQuery() {
        let r = HTTPRequest(method: "GET", target: "/apps/1/a%20b?x=1&name=J%C3%B6+D&flag")
        #expect(r.path == "/apps/1/a b")
        #expect(r.queryValue("name") == "J\u{f6} D")
        #expect(r.queryValue("flag") == "")
        #expect(r.query.map(\.name) == ["x", "name", "flag"])
        var h = HTTPHeaders([("Content-Type", "a"), ("X-A", "1")])
        h.add(name: "x-a", value: "2")
        #expect(h["content-type"] == "a")
        #expect(h.values(for: "X-A") == ["1", "2"])
    }
}
