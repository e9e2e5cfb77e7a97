import Foundation
import Testing
@testable import WebSocket

/// Conformance against a peer we did not write: the Python `websockets` library.
@Suite("Conformance with Python websockets", .serialized)
struct PythonConformanceTests {
    // MARK: Their server, our client

    @Test func ourClientAgainstTheirServerEchoesAllSizes() async throws {
        guard let peer = try await PythonServer() else { return }
        defer { peer.stop() }
        let (client, recorder) = await openClient(URL(string: "ws://127.0.0.1:\(peer.port)/echo")!) {
            $0.headers = ["X-Bird": "1"]
        }
        try #require(recorder.isOpen)
        let sizes = [0, 1, 125, 126, 127, 65535, 65536, 1 << 20, 4 << 20]
        for size in sizes {
            try client.send(text: String(repeating: "x", count: size))
            try client.send(binary: [UInt8](repeating: UInt8(size & 0xFF), count: size))
        }
        #expect(
            await recorder.wait(seconds: 40) {
                $0.count { if case .binary = $0 { true } else { false } } == sizes.count
            })
        #expect(recorder.texts.map(\.utf8.count) == sizes)
        #expect(recorder.binaries.map(\.count) == sizes)
        #expect(recorder.binaries.enumerated().allSatisfy { i, b in b.allSatisfy { $0 == UInt8(sizes[i] & 0xFF) } })

        try client.send(text: "cmd:headers")
        let headersJSON = await recorder.waitTexts(sizes.count + 1).last ?? ""
        let headers = try JSONSerialization.jsonObject(with: Data(headersJSON.utf8)) as? [String: String]
        #expect(headers?["X-Bird"] == "1")
        #expect(headers?["Host"] == "127.0.0.1:\(peer.port)")

        client.close(code: 4002, reason: "client bye")
        let info = await recorder.waitClosed()
        // websockets echoes the reason.
        #expect(info == WebSocketCloseInfo(code: 4002, reason: "client bye", initiatedLocally: true))
    }

    @Test func theirFragmentsAndPings() async throws {
        guard let peer = try await PythonServer() else { return }
        defer { peer.stop() }
        let (client, recorder) = await openClient(URL(string: "ws://127.0.0.1:\(peer.port)/")!)
        try client.send(text: "cmd:fragments")
        #expect(await recorder.waitTexts(1) == ["frag-one frag-two frag-three \u{e9}\u{20ac}"])
        #expect(await recorder.wait { $0.contains(.binary([1, 2, 3])) })
        try client.send(text: "cmd:ping")
        #expect(await recorder.waitTexts(2).last == "pong-received")
        #expect(recorder.events.contains(.ping(Array("server-ping".utf8))))
        try client.ping(Array("mine".utf8))
        #expect(await recorder.wait { $0.contains(.pong(Array("mine".utf8))) })
        client.close()
        #expect(await recorder.waitClosed()?.code == 1000)
    }

    @Test func theirCloseWithCodeAndReason() async throws {
        guard let peer = try await PythonServer() else { return }
        defer { peer.stop() }
        let (client, recorder) = await openClient(URL(string: "ws://127.0.0.1:\(peer.port)/")!)
        try client.send(text: "cmd:close 4010 server says bye")
        #expect(
            await recorder.waitClosed()
                == WebSocketCloseInfo(code: 4010, reason: "server says bye", initiatedLocally: false))
    }

    @Test func theirTCPDropIs1006() async throws {
        guard let peer = try await PythonServer() else { return }
        defer { peer.stop() }
        let (client, recorder) = await openClient(URL(string: "ws://127.0.0.1:\(peer.port)/")!)
        try client.send(text: "cmd:drop")
        let info = await recorder.waitClosed()
        #expect(info?.code == 1006)
        #expect(info?.initiatedLocally == false)
    }

    @Test func theirInvalidUTF8Is1007() async throws {
        guard let peer = try await PythonServer() else { return }
        defer { peer.stop() }
        let (client, recorder) = await openClient(URL(string: "ws://127.0.0.1:\(peer.port)/")!)
        try client.send(text: "cmd:badutf8")
        let info = await recorder.waitClosed()
        #expect(info?.code == 1007)
        #expect(info?.error == .protocolViolation(.invalidUTF8))
    }

    @Test func theirOversizedMessageIs1009() async throws {
        guard let peer = try await PythonServer() else { return }
        defer { peer.stop() }
        let (client, recorder) = await openClient(URL(string: "ws://127.0.0.1:\(peer.port)/")!) {
            $0.maxMessageSize = 1000
        }
        try client.send(text: "cmd:big 1001")
        #expect(await recorder.waitClosed()?.code == 1009)
    }

    // MARK: Their client, our server

    @Test func theirClientAgainstOurServerEcho() async throws {
        let server = try EchoServer()
        defer { server.stop() }
        guard let result = try await runPythonClient(url: "ws://127.0.0.1:\(server.port)/", scenario: "echo") else {
            return
        }
        #expect(result["echo_ok"] as? Bool == true)
        #expect(result["fragmented"] as? String == "part1 part2 \u{20ac}")
        #expect(result["fragmented_binary"] as? [Int] == [0, 1, 2])
        #expect(result["pong"] as? Bool == true)
        #expect(result["close_rcvd"] as? Int == 4000)
        #expect(
            await eventually {
                server.allEvents.contains(
                    .closed(WebSocketCloseInfo(code: 4000, reason: "client done", initiatedLocally: false)))
            })
    }

    @Test func ourServerClosesWithCodeAndReason() async throws {
        let server = try EchoServer()
        defer { server.stop() }
        server.server.onConnection = { connection in
            connection.onEvent = { event in
                if case .text = event { connection.close(code: 4003, reason: "server closing") }
            }
        }
        guard let result = try await runPythonClient(url: "ws://127.0.0.1:\(server.port)/", scenario: "server-close")
        else { return }
        #expect(result["rcvd"] as? Int == 4003)
        #expect(result["reason"] as? String == "server closing")
    }

    @Test func ourServerSendingInvalidUTF8IsRejectedBy1007() async throws {
        let server = try EchoServer()
        defer { server.stop() }
        server.server.onConnection = { connection in
            connection.onEvent = { event in
                // Fragmented: websockets validates UTF-8 incrementally only across fragments.
                if case .text = event {
                    connection.sendFrame(opcode: .text, payload: [0x61], fin: false)
                    connection.sendFrame(opcode: .continuation, payload: [0xFF, 0x62], fin: true)
                }
            }
        }
        guard let result = try await runPythonClient(url: "ws://127.0.0.1:\(server.port)/", scenario: "server-badutf8")
        else { return }
        #expect(result["sent"] as? Int == 1007)
    }

    @Test func theirInvalidUTF8IsClosedByOurServerWith1007() async throws {
        let server = try EchoServer()
        defer { server.stop() }
        guard let result = try await runPythonClient(url: "ws://127.0.0.1:\(server.port)/", scenario: "send-badutf8")
        else { return }
        #expect(result["rcvd"] as? Int == 1007)
        #expect(
            await eventually {
                server.allEvents.contains {
                    if case .closed(let i) = $0 { i.code == 1007 && i.initiatedLocally } else { false }
                }
            })
    }

    @Test func theirOversizedMessageIsClosedByOurServerWith1009() async throws {
        var configuration = WebSocketServer.Configuration()
        configuration.maxMessageSize = 10_000
        let server = try EchoServer(configuration: configuration)
        defer { server.stop() }
        guard
            let result = try await runPythonClient(
                url: "ws://127.0.0.1:\(server.port)/", scenario: "too-big", extra: ["10001"])
        else { return }
        #expect(result["rcvd"] as? Int == 1009)
    }

    @Test func theirTCPDropIsSeenByOurServerAs1006() async throws {
        let server = try EchoServer()
        defer { server.stop() }
        guard let result = try await runPythonClient(url: "ws://127.0.0.1:\(server.port)/", scenario: "drop") else {
            return
        }
        #expect(result["dropped"] as? Bool == true)
        #expect(
            await eventually {
                server.allEvents.contains {
                    if case .closed(let i) = $0 { i.code == 1006 && !i.initiatedLocally } else { false }
                }
            })
    }
}
