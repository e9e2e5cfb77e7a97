import Foundation
import Testing
import TestSupport
@testable import WebSocket

/// Our client against our server over real loopback sockets.
@Suite("Client ↔ server loopback", .serialized)
struct LoopbackTests {
    @Test func textAndBinaryEchoAllSizes() async throws {
        let server = try EchoServer()
        defer { server.stop() }
        let (client, recorder) = await openClient(server.url)
        #expect(recorder.isOpen)
        let sizes = [0, 1, 125, 126, 65535, 65536, 1 << 20, 4 << 20]
        for size in sizes {
            try client.send(text: String(repeating: "\u{e9}", count: size / 2))
            try client.send(binary: (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        }
        #expect(
            await recorder.wait(seconds: 30) { events in
                events.count { if case .binary = $0 { true } else { false } } == sizes.count
            })
        #expect(recorder.texts.map { $0.utf8.count } == sizes.map { $0 / 2 * 2 })
        #expect(recorder.binaries.map(\.count) == sizes)
        #expect(recorder.binaries.last == (0..<(4 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        client.close(code: 1000, reason: "done")
        let info = await recorder.waitClosed()
        #expect(info == WebSocketCloseInfo(code: 1000, reason: "", initiatedLocally: true))
        #expect(
            await eventually {
                server.allEvents.contains {
                    if case .closed(let i) = $0 {
                        i.code == 1000 && !i.initiatedLocally && i.reason == "done"
                    } else {
                        false
                    }
                }
            })
    }

    @Test func sendTextsCoalescesAndKeepsOrder() async throws {
        let server = try EchoServer()
        defer { server.stop() }
        let (client, recorder) = await openClient(server.url)
        try client.send(texts: (0..<500).map { "t\($0)" })
        try client.send(text: "cmd:burst 1000")
        let texts = await recorder.waitTexts(1500, seconds: 20)
        #expect(Array(texts.prefix(500)) == (0..<500).map { "t\($0)" })
        #expect(Array(texts.dropFirst(500)) == (0..<1000).map { "m\($0)" })
        client.abort()
        #expect(await recorder.waitClosed()?.code == 1006)
    }

    @Test func serverInitiatedCloseWithCodeAndReason() async throws {
        let server = try EchoServer()
        defer { server.stop() }
        let (client, recorder) = await openClient(server.url)
        try client.send(text: "cmd:close 4001 go away")
        let info = await recorder.waitClosed()
        #expect(info == WebSocketCloseInfo(code: 4001, reason: "go away", initiatedLocally: false))
        #expect(
            await eventually {
                server.allEvents.contains {
                    if case .closed(let i) = $0 { i.code == 4001 && i.initiatedLocally } else { false }
                }
            })
        #expect(throws: WebSocketError.notConnected) { try client.send(text: "late") }
    }

    @Test func serverDropIsReportedAs1006() async throws {
        let server = try EchoServer()
        defer { server.stop() }
        let (client, recorder) = await openClient(server.url)
        try client.send(text: "cmd:drop")
        let info = await recorder.waitClosed()
        #expect(info?.code == 1006)
        #expect(info?.initiatedLocally == false)
    }

    @Test func clientAbortIsSeenByServerAs1006() async throws {
        let server = try EchoServer()
        defer { server.stop() }
        let (client, recorder) = await openClient(server.url)
        try client.send(text: "hello")
        _ = await recorder.waitTexts(1)
        client.abort()
        #expect(await recorder.waitClosed() == WebSocketCloseInfo(code: 1006, reason: "", initiatedLocally: true))
        #expect(
            await eventually {
                server.allEvents.contains {
                    if case .closed(let i) = $0 { i.code == 1006 && !i.initiatedLocally } else { false }
                }
            })
    }

    @Test func invalidUTF8FromServerClosesWith1007() async throws {
        let server = try EchoServer()
        defer { server.stop() }
        let (client, recorder) = await openClient(server.url)
        try client.send(text: "cmd:badutf8")
        let info = await recorder.waitClosed()
        #expect(info?.code == 1007)
        #expect(info?.error == .protocolViolation(.invalidUTF8))
        #expect(
            await eventually {
                server.allEvents.contains { if case .closed(let i) = $0 { i.code == 1007 } else { false } }
            })
    }

    @Test func fragmentedMessageWithInterleavedPingFromServer() async throws {
        let server = try EchoServer()
        defer { server.stop() }
        let (client, recorder) = await openClient(server.url)
        try client.send(text: "cmd:fragments")
        #expect(await recorder.waitTexts(1) == ["ab\u{e9}"])
        #expect(recorder.events.contains(.ping([7])))
        // The automatic pong reached the server.
        #expect(await eventually { server.allEvents.contains(.pong([7])) })
        try client.ping([1, 2])
        #expect(await recorder.wait { $0.contains(.pong([1, 2])) })
        client.close()
        _ = await recorder.waitClosed()
    }

    @Test func oversizedMessageClosesWith1009() async throws {
        var configuration = WebSocketServer.Configuration()
        configuration.maxMessageSize = 1000
        let server = try EchoServer(configuration: configuration)
        defer { server.stop() }
        let (client, recorder) = await openClient(server.url) { $0.maxMessageSize = 2000 }
        try client.send(text: String(repeating: "a", count: 1001))
        let info = await recorder.waitClosed()
        #expect(info?.code == 1009)
        #expect(info?.initiatedLocally == false)
        // And the client's own limit.
        let server2 = try EchoServer()
        defer { server2.stop() }
        let (client2, recorder2) = await openClient(server2.url) { $0.maxMessageSize = 100 }
        try client2.send(text: String(repeating: "b", count: 101))
        #expect(await recorder2.waitClosed()?.code == 1009)
    }

    @Test func closeTimesOutWhenThePeerIsSilent() async throws {
        let server = try EchoServer()
        defer { server.stop() }
        let (client, recorder) = await openClient(server.url) { $0.closeTimeout = .milliseconds(300) }
        try client.send(text: "cmd:pause")
        await server.processed("cmd:pause")  // the server reads nothing more from here on
        client.close(code: 1000, reason: "")
        let info = await recorder.waitClosed()
        #expect(info?.code == 1006)
        #expect(info?.initiatedLocally == true)
        #expect(info?.error == .timeout)
    }

    @Test func outboundBufferIsBounded() async throws {
        let server = try EchoServer()
        defer { server.stop() }
        let (client, recorder) = await openClient(server.url) { $0.maxOutboundBytes = 1 << 20 }
        try client.send(text: "cmd:pause")
        await server.processed("cmd:pause")  // the server reads nothing more from here on
        let chunk = [UInt8](repeating: 1, count: 64 * 1024)
        var failure: WebSocketError?
        for _ in 0..<2000 {
            do { try client.send(binary: chunk) } catch {
                failure = error
                break
            }
        }
        #expect(failure == .outboundBufferFull(limit: 1 << 20))
        client.abort()
        _ = await recorder.waitClosed()
    }

    @Test func refusedUpgradeReportsTheStatusLine() async throws {
        let server = try EchoServer()
        defer { server.stop() }
        server.server.shouldUpgrade = { request in
            request.queryValue("token") == "good" ? nil : .text(403, "no")
        }
        let recorder = EventRecorder()
        let client = WebSocketClient(
            configuration: .init(url: URL(string: "ws://127.0.0.1:\(server.port)/?token=bad")!),
            queue: recorder.queue, onEvent: recorder.handler)
        client.connect()
        let info = await recorder.waitClosed()
        #expect(info?.error == .handshakeRejected(status: 403, statusLine: "HTTP/1.1 403 Forbidden"))
        #expect(recorder.events.count == 1)
        let (_, ok) = await openClient(URL(string: "ws://127.0.0.1:\(server.port)/?token=good")!)
        #expect(ok.isOpen)
    }

    @Test func upgradeRequestDetailsAndExtraHeaders() async throws {
        let server = try EchoServer()
        defer { server.stop() }
        let seen = Locked<HTTPRequest?>(nil)
        server.server.shouldUpgrade = { request in
            seen.mutate { $0 = request }
            return nil
        }
        let (client, recorder) = await openClient(
            URL(string: "ws://127.0.0.1:\(server.port)/app/key%201?protocol=7&client=swift")!
        ) {
            $0.headers = ["X-Test": "yes"]
        }
        #expect(recorder.isOpen)
        let request = try #require(seen.get())
        #expect(request.path == "/app/key 1")
        #expect(request.queryValue("protocol") == "7")
        #expect(request.headers["x-test"] == "yes")
        #expect(request.headers["Host"] == "127.0.0.1:\(server.port)")
        #expect(request.remoteAddress.hasPrefix("127.0.0.1:"))
        client.close()
        _ = await recorder.waitClosed()
    }

    @Test func connectErrorsAreTyped() async throws {
        // Refused: a port that was just released.
        let probe = try EchoServer()
        let port = probe.port
        probe.stop()
        let refused = EventRecorder()
        let c1 = WebSocketClient(
            configuration: .init(url: URL(string: "ws://127.0.0.1:\(port)/")!), queue: refused.queue,
            onEvent: refused.handler)
        c1.connect()
        #expect(await refused.waitClosed()?.error == .connectionRefused(host: "127.0.0.1", port: port))

        // DNS failure.
        let dns = EventRecorder()
        let c2 = WebSocketClient(
            configuration: .init(url: URL(string: "ws://no-such-host.invalid/")!), queue: dns.queue,
            onEvent: dns.handler)
        c2.connect()
        let dnsInfo = await dns.waitClosed(seconds: 15)
        if case .dnsFailure(let host, _) = dnsInfo?.error {
            #expect(host == "no-such-host.invalid")
        } else {
            Issue.record("\(String(describing: dnsInfo))")
        }

        // Timeout: a listener that never answers the handshake.
        let silent = try EchoServer()
        defer { silent.stop() }
        silent.server.shouldUpgrade = { _ in
            Thread.sleep(forTimeInterval: 1.5); return nil
        }
        let slow = EventRecorder()
        let c3 = WebSocketClient(
            configuration: .init(url: silent.url, connectTimeout: .milliseconds(300)), queue: slow.queue,
            onEvent: slow.handler)
        c3.connect()
        #expect(await slow.waitClosed()?.error == .connectTimeout(host: "127.0.0.1", port: silent.port))

        // Bad URL.
        let bad = EventRecorder()
        let c4 = WebSocketClient(
            configuration: .init(url: URL(string: "http://127.0.0.1/")!), queue: bad.queue, onEvent: bad.handler)
        c4.connect()
        if case .invalidURL = await bad.waitClosed()?.error {} else { Issue.record("expected invalidURL") }
        #expect(throws: WebSocketError.notConnected) { try c4.send(text: "x") }
    }

    @Test func concurrentSendersKeepTheirOwnOrder() async throws {
        let server = try EchoServer()
        defer { server.stop() }
        let (client, recorder) = await openClient(server.url)
        let senders = 4
        let perSender = 500
        DispatchQueue.concurrentPerform(iterations: senders) { s in
            for i in 0..<perSender { try? client.send(text: "\(s):\(i)") }
        }
        let texts = await recorder.waitTexts(senders * perSender, seconds: 20)
        #expect(texts.count == senders * perSender)
        for s in 0..<senders {
            #expect(texts.filter { $0.hasPrefix("\(s):") } == (0..<perSender).map { "\(s):\($0)" })
        }
        client.close()
        _ = await recorder.waitClosed()
    }

    @Test func closeWhileConnectingOrBeforeConnect() async throws {
        let recorder = EventRecorder()
        // A listener that never accepts: TCP completes in the backlog, the handshake never does.
        let (fd, port) = try #require(listenOnLoopback(backlog: 8))
        defer { close(fd) }
        let client = WebSocketClient(
            configuration: .init(url: URL(string: "ws://127.0.0.1:\(port)/")!, connectTimeout: .seconds(30)),
            queue: recorder.queue, onEvent: recorder.handler)
        client.connect()
        try await Task.sleep(for: .milliseconds(50))
        client.abort()
        let info = await recorder.waitClosed()
        #expect(info?.code == 1006)
        #expect(info?.initiatedLocally == true)
        // Nothing after `.closed`: everything the loop had queued has run and been delivered.
        EventLoop.shared.executeAndWait {}
        recorder.queue.sync {}
        #expect(recorder.events.count == 1)

        let idle = EventRecorder()
        let never = WebSocketClient(
            configuration: .init(url: URL(string: "ws://127.0.0.1:1/")!), queue: idle.queue, onEvent: idle.handler)
        never.close()
        #expect(await idle.waitClosed()?.initiatedLocally == true)
        never.connect()  // no effect after close
        EventLoop.shared.executeAndWait {}
        idle.queue.sync {}
        #expect(idle.events.count == 1)
    }

    @Test func ipv6Loopback() async throws {
        let server = try EchoServer(configuration: .init(host: "::1", port: 0))
        defer { server.stop() }
        let (client, recorder) = await openClient(URL(string: "ws://[::1]:\(server.port)/")!)
        #expect(recorder.isOpen)
        try client.send(text: "v6")
        #expect(await recorder.waitTexts(1) == ["v6"])
        client.close()
        _ = await recorder.waitClosed()
    }

    @Test func twoThousandConcurrentConnections() async throws {
        let server = try EchoServer()
        defer { server.stop() }
        let count = 2000
        var clients: [(WebSocketClient, EventRecorder)] = []
        for _ in 0..<count {
            let recorder = EventRecorder()
            let client = WebSocketClient(
                configuration: .init(url: server.url), queue: recorder.queue, onEvent: recorder.handler)
            client.connect()
            clients.append((client, recorder))
        }
        #expect(await eventually(seconds: 30) { clients.allSatisfy { $0.1.isOpen } })
        for (i, (client, _)) in clients.enumerated() { try client.send(text: "hi \(i)") }
        #expect(
            await eventually(seconds: 30) {
                clients.enumerated().allSatisfy { $0.element.1.texts == ["hi \($0.offset)"] }
            })
        #expect(server.connections.get().count == count)
        for (client, _) in clients { client.close() }
        #expect(await eventually(seconds: 30) { clients.allSatisfy { $0.1.closeInfo?.code == 1000 } })
    }

    @Test func stopListeningAndResume() async throws {
        let server = try EchoServer()
        defer { server.stop() }
        let (client, recorder) = await openClient(server.url)
        server.server.stopListening()
        let refused = EventRecorder()
        WebSocketClient(configuration: .init(url: server.url), queue: refused.queue, onEvent: refused.handler).connect()
        #expect(await refused.waitClosed()?.error == .connectionRefused(host: "127.0.0.1", port: server.port))
        try client.send(text: "still here")
        #expect(await recorder.waitTexts(1) == ["still here"])
        try server.server.resumeListening()
        let (_, again) = await openClient(server.url)
        #expect(again.isOpen)
        server.stop()
        #expect(await recorder.waitClosed()?.code == 1006)
    }
}
