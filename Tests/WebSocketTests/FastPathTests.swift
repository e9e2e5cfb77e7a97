import Foundation
import Testing
@testable import WebSocket

/// Whole text messages made straight from the receive buffer, batched event delivery, and sends
/// coalesced by `WebSocketServer.coalescingSends`.
@Suite("WebSocket fast paths", .serialized)
struct FastPathTests {
    @Test("nextMessageOrFrame gives whole text messages, in any split, masked or not")
    func directText() throws {
        let texts = ["", "a", "héllo wörld", String(repeating: "x", count: 200), String(repeating: "é", count: 40_000)]
        for role in [FrameParser.Role.client, .server] {
            var stream: [UInt8] = []
            for text in texts {
                FrameEncoder.encode(
                    opcode: .text, payload: Array(text.utf8), mask: role == .server ? FrameEncoder.randomMask() : nil,
                    into: &stream)
            }
            FrameEncoder.encode(
                opcode: .binary, payload: [1, 2, 3], mask: role == .server ? (1, 2, 3, 4) : nil, into: &stream)
            for split in [1, 7, 100, stream.count] {
                var parser = FrameParser(role: role)
                var got: [String] = []
                var frames: [WebSocketFrame] = []
                var offset = 0
                while offset < stream.count {
                    parser.append(stream[offset..<min(stream.count, offset + split)])
                    offset += split
                    while let parsed = try parser.nextMessageOrFrame(maxMessageSize: 1 << 20) {
                        switch parsed {
                        case .text(let text): got.append(text)
                        case .frame(let frame): frames.append(frame)
                        }
                    }
                }
                #expect(got == texts)
                #expect(frames == [WebSocketFrame(fin: true, opcode: .binary, payload: [1, 2, 3])])
            }
        }
    }

    @Test("nextMessageOrFrame: invalid UTF-8 and oversized text fail like the assembler; fragments pass through")
    func directTextErrors() throws {
        var parser = FrameParser(role: .client)
        parser.append(FrameEncoder.encode(opcode: .text, payload: [0x6F, 0x6B, 0xFF], mask: nil))
        #expect(throws: WebSocketProtocolError.invalidUTF8) { try parser.nextMessageOrFrame(maxMessageSize: 100) }

        var big = FrameParser(role: .client)
        big.append(FrameEncoder.encode(opcode: .text, payload: [UInt8](repeating: 0x61, count: 101), mask: nil))
        #expect(throws: WebSocketProtocolError.messageTooBig(limit: 100)) {
            try big.nextMessageOrFrame(maxMessageSize: 100)
        }

        var fragments = FrameParser(role: .client)
        fragments.append(FrameEncoder.encode(opcode: .text, payload: Array("ab".utf8), fin: false, mask: nil))
        let first = try fragments.nextMessageOrFrame(maxMessageSize: 100)
        guard case .frame(let frame)? = first else {
            Issue.record("a first fragment is a frame for the assembler, got \(String(describing: first))")
            return
        }
        #expect(frame == WebSocketFrame(fin: false, opcode: .text, payload: Array("ab".utf8)))
    }

    @Test("a batching client gets every message in order, several per call")
    func batchedEvents() async throws {
        let server = try EchoServer()
        defer { server.stop() }
        let batches = Locked<[[WebSocketEvent]]>([])
        let queue = DispatchQueue(label: "batches")
        let client = WebSocketClient(configuration: .init(url: server.url), queue: queue) { events in
            batches.mutate { $0.append(events) }
        }
        client.connect()
        func texts() -> [String] {
            batches.get().flatMap { $0 }.compactMap { if case .text(let t) = $0 { t } else { nil } }
        }
        #expect(await eventually { batches.get().first?.first == .opened })
        try client.send(text: "cmd:burst 3000")
        #expect(await eventually(seconds: 20) { texts().count == 3000 })
        #expect(texts() == (0..<3000).map { "m\($0)" })
        #expect(batches.get().count < 3000)  // one socket read brought many messages
        client.abort()
        #expect(
            await eventually { batches.get().last?.last.map { if case .closed = $0 { true } else { false } } == true })
    }

    @Test("coalescingSends writes everything sent inside it, in order, after the body returns")
    func coalescedSends() async throws {
        let server = try EchoServer()
        defer { server.stop() }
        let (_, recorder) = await openClient(server.url)
        let connection = try #require(await server.firstConnection())
        let sentInside = Locked(false)
        server.queue.sync {
            WebSocketServer.coalescingSends {
                for i in 0..<2000 { connection.send(text: "c\(i)") }
                WebSocketServer.coalescingSends {  // nested: joins the outer one
                    connection.send(texts: ["n0", "n1"])
                }
                connection.send(text: "last")
                sentInside.mutate { $0 = true }
            }
        }
        #expect(sentInside.get())
        let texts = await recorder.waitTexts(2003, seconds: 20)
        #expect(texts == (0..<2000).map { "c\($0)" } + ["n0", "n1", "last"])
        // Sends outside a coalescing body are written as before.
        connection.send(text: "after")
        #expect(await recorder.waitTexts(2004, seconds: 10).last == "after")
    }

    @Test("coalesced sends still count against maxOutboundBytes: an over-limit connection is dropped")
    func coalescedSendsAreBounded() async throws {
        var configuration = WebSocketServer.Configuration()
        configuration.maxOutboundBytes = 256 * 1024
        let server = try EchoServer(configuration: configuration)
        defer { server.stop() }
        let (client, recorder) = await openClient(server.url)
        let connection = try #require(await server.firstConnection())
        let text = String(repeating: "z", count: 1000)
        server.queue.sync {
            WebSocketServer.coalescingSends {
                for _ in 0..<1000 { connection.send(text: text) }  // ~1 MB, four times the limit
            }
        }
        let info = await recorder.waitClosed()
        #expect(info?.code == 1006)
        #expect(
            await eventually {
                server.allEvents.contains {
                    if case .closed(let i) = $0 { i.error == .outboundBufferFull(limit: 256 * 1024) } else { false }
                }
            })
        #expect(recorder.texts.count < 1000)
        client.abort()
    }
}
