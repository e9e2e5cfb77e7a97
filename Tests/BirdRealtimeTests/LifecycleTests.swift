import BirdRealtime
import BirdRealtimeTestSupport
import Foundation
import Testing

@Suite("Lifecycle: states, handshake and the close table of docs/PROTOCOL.md § Reconnection")
struct LifecycleTests {
    @Test("connects by itself after init; observers registered right after init see initialized → connecting")
    func autoConnect() async throws {
        let h = Harness()
        await h.settle()
        let first = try #require(h.recorder.changes.first)
        #expect(first.previous == .initialized && first.current == .connecting && first.cause == .start)
        let socket = try h.socket
        #expect(socket.connectCalled)
        #expect(h.bird.connectionState == .connecting)
        #expect(h.transport.count == 1)
    }

    @Test("the socket URL carries key, protocol 7, client and version")
    func socketURL() async throws {
        let h = Harness { $0.port = 6001 }
        await h.settle()
        let url = try h.socket.configuration.url
        #expect(url.scheme == "ws")
        #expect(url.host == "127.0.0.1")
        #expect(url.port == 6001)
        #expect(url.path == "/app/k")
        let query = url.query ?? ""
        #expect(query.contains("protocol=7") && query.contains("client=swift") && query.contains("version="))
    }

    @Test("TLS by default, and the region's edge host")
    func defaultURL() async throws {
        let h = Harness {
            $0.host = nil; $0.allowInsecure = false; $0.region = "eu1"
        }
        await h.settle()
        let url = try h.socket.configuration.url
        #expect(url.scheme == "wss")
        #expect(url.host == "ws-eu1.realtime.bird.com")
        let p = Harness(dialect: .pusher) {
            $0.host = nil; $0.allowInsecure = false; $0.region = "mt1"
        }
        await p.settle()
        #expect(try p.socket.configuration.url.host == "ws-mt1.pusher.com")
    }

    @Test(
        "allowInsecure with a remote host is refused with a clear error; loopback names are allowed",
        arguments: ["localhost", "127.0.0.1", "::1"])
    func insecure(_ loopback: String) async throws {
        let bad = Harness { $0.host = "example.com" }
        await bad.settle()
        #expect(bad.transport.count == 0)
        #expect(bad.bird.connectionState == .failed)
        let error = try #require(bad.recorder.errors.first)
        #expect(error.kind == .configuration)
        #expect(error.message.contains("allowInsecure"))
        let good = Harness { $0.host = loopback }
        await good.settle()
        #expect(try good.socket.configuration.url.scheme == "ws")
    }

    @Test("an open socket stays connecting; the handshake sets the id before connected")
    func handshake() async throws {
        let h = Harness()
        await h.settle()
        let socket = try h.socket
        socket.open()
        await h.settle()
        #expect(h.bird.connectionState == .connecting)
        #expect(h.bird.connectionId == nil)
        socket.handshake(connectionId: "77.88", open: false)
        await h.settle()
        #expect(h.bird.connectionState == .connected)
        #expect(h.bird.connectionId == "77.88")
        let change = try #require(h.recorder.changes.last)
        #expect(change.current == .connected && change.connectionId == "77.88" && change.cause == .handshake)
    }

    @Test("handshake without id: onError, close 1002, backoff path")
    func missingId() async throws {
        let h = Harness()
        await h.settle()
        let socket = try h.socket
        socket.handshake(connectionId: nil)
        await h.settle()
        #expect(h.recorder.errors.map(\.kind) == [.handshakeWithoutId])
        #expect(socket.closedWith?.code == 1002)
        #expect(h.bird.connectionState == .unavailable)
        #expect(h.recorder.changes.last?.cause == .handshakeWithoutId)
        #expect(h.recorder.retries.count == 1)
        await h.advance(.seconds(1))
        #expect(h.transport.count == 2)
    }

    @Test("an open socket without a handshake is closed after the pong timeout and backs off")
    func handshakeTimeout() async throws {
        let h = Harness()
        await h.settle()
        let socket = try h.socket
        socket.open()
        await h.advance(.milliseconds(29_999))
        #expect(h.bird.connectionState == .connecting)
        await h.advance(.milliseconds(1))
        #expect(socket.closedWith != nil)
        #expect(h.bird.connectionState == .unavailable)
        #expect(h.recorder.changes.last?.cause == .networkError("no handshake within 30.0 seconds"))
        // A handshake in time cancels it.
        await h.advance(.seconds(1))
        try await h.connect()
        await h.advance(.seconds(60))
        #expect(h.bird.connectionState == .connected)
    }

    @Test(
        "4000–4099 from the server, at any stage: failed, no retry, onError with code and reason",
        arguments: [(4000, true), (4001, false), (4009, true), (4050, true), (4099, false)])
    func refused(_ code: Int, _ afterHandshake: Bool) async throws {
        let h = Harness()
        if afterHandshake { try await h.connect() } else { await h.settle() }
        try h.socket.serverClose(code: code, reason: "reason \(code)")
        await h.settle()
        #expect(h.bird.connectionState == .failed)
        let error = try #require(h.recorder.errors.last)
        #expect(error.kind == .refused)
        #expect(error.code == code)
        #expect(error.reason == "reason \(code)")
        #expect(h.recorder.retries.isEmpty)
        await h.advance(.seconds(120))
        #expect(h.transport.count == 1)
        #expect(h.bird.nextAttemptAt == nil)
    }

    @Test("4009 → failed with its reason; connect() from failed is a fresh start")
    func unauthorized4009() async throws {
        let h = Harness()
        try await h.connect()
        try h.socket.serverClose(code: 4009, reason: "member terminated by the app")
        await h.settle()
        #expect(h.bird.connectionState == .failed)
        let error = try #require(h.recorder.errors.first)
        #expect(error.code == 4009)
        #expect(error.reason == "member terminated by the app")
        h.bird.connect()
        await h.settle()
        #expect(h.transport.count == 2)
        #expect(h.bird.connectionState == .connecting)
        #expect(h.recorder.changes.last?.cause == .connectCalled)
        // A fresh start: the next failure waits attempt 0's delay (≤ 1 s).
        try h.socket.networkFailure()
        await h.settle()
        #expect(h.recorder.retries.last?.attempt == 0)
    }

    @Test(
        "4200–4299 after the handshake: straight to connecting, no wait, no unavailable",
        arguments: [4200, 4201, 4202, 4250, 4299])
    func immediate(_ code: Int) async throws {
        let h = Harness()
        try await h.connect()
        try h.socket.serverClose(code: code, reason: "edge restarting")
        await h.settle()
        #expect(h.transport.count == 2)
        #expect(h.bird.connectionState == .connecting)
        #expect(!h.recorder.states.contains(.unavailable))
        #expect(h.recorder.retries.isEmpty)
        let change = try #require(h.recorder.changes.last)
        #expect(change.previous == .connected && change.current == .connecting)
        #expect(change.cause == .serverClose(code: code, reason: "edge restarting"))
    }

    @Test("4200–4299 before the handshake: backoff path")
    func immediateBeforeHandshake() async throws {
        let h = Harness()
        await h.settle()
        try h.socket.open()
        try h.socket.serverClose(code: 4200)
        await h.settle()
        #expect(h.bird.connectionState == .unavailable)
        #expect(h.recorder.retries.count == 1)
        #expect(h.transport.count == 1)
    }

    @Test(
        "other closes and TCP drops: unavailable, retry after backoff",
        arguments: [1000, 1001, 1006, 1011, 4100, 4150, 4199, 4300, 4301, 4399, 4500])
    func backoffCloses(_ code: Int) async throws {
        let h = Harness()
        try await h.connect()
        try h.socket.serverClose(code: code)
        await h.settle()
        #expect(h.bird.connectionState == .unavailable)
        let retry = try #require(h.recorder.retries.first)
        #expect(retry.attempt == 0)
        #expect(retry.delay == .seconds(1))  // random fixed at 1: the largest delay of attempt 0
        await h.advance(.milliseconds(999))
        #expect(h.transport.count == 1)
        await h.advance(.milliseconds(1))
        #expect(h.transport.count == 2)
        #expect(h.bird.connectionState == .connecting)
        #expect(h.recorder.changes.last?.cause == .retry(attempt: 0))
    }

    @Test("network failures take the backoff path with the failure as cause")
    func networkFailure() async throws {
        let h = Harness()
        await h.settle()
        try h.socket.networkFailure("connection refused by 127.0.0.1:1")
        await h.settle()
        #expect(h.bird.connectionState == .unavailable)
        #expect(h.recorder.changes.last?.cause == .networkError("connection refused by 127.0.0.1:1"))
        #expect(h.recorder.retries.count == 1)
    }

    @Test("the client's own closes for a protocol violation take the backoff path", arguments: [1002, 1007, 1009])
    func protocolViolation(_ code: Int) async throws {
        let h = Harness()
        try await h.connect()
        try h.socket.protocolViolation(code: code)
        await h.settle()
        #expect(h.bird.connectionState == .unavailable)
        #expect(h.recorder.changes.last?.cause == .protocolViolation(code: code, reason: "protocol violation"))
        #expect(h.recorder.retries.count == 1)
    }

    @Test("disconnect(): disconnected whatever the server answers; nothing scheduled for 60 s")
    func disconnect() async throws {
        let h = Harness()
        try await h.connect()
        let socket = try h.socket
        h.bird.disconnect()
        await h.settle()
        #expect(h.bird.connectionState == .disconnected)
        #expect(socket.closedWith?.code == 1000)
        socket.serverClose(code: 4200)  // the server's answer is ignored
        await h.settle()
        await h.advance(.seconds(60))
        #expect(h.transport.count == 1)
        #expect(h.bird.connectionState == .disconnected)
        #expect(h.recorder.retries.isEmpty)
        #expect(h.clock.pendingCount == 0)
        h.bird.connect()
        await h.settle()
        #expect(h.transport.count == 2)
    }

    @Test("disconnect() while unavailable cancels the retry")
    func disconnectWhileUnavailable() async throws {
        let h = Harness()
        try await h.connect()
        try h.socket.serverClose(code: 1006)
        await h.settle()
        #expect(h.bird.nextAttemptAt != nil)
        h.bird.disconnect()
        await h.advance(.seconds(60))
        #expect(h.transport.count == 1)
        #expect(h.bird.connectionState == .disconnected)
        #expect(h.bird.nextAttemptAt == nil)
    }

    @Test("dropConnection(): aborted socket, backoff path")
    func drop() async throws {
        let h = Harness()
        try await h.connect()
        let socket = try h.socket
        h.bird.dropConnection()
        await h.settle()
        #expect(socket.aborted)
        #expect(h.bird.connectionState == .unavailable)
        #expect(h.recorder.changes.last?.cause == .dropped)
        await h.advance(.seconds(1))
        #expect(h.transport.count == 2)
    }

    @Test("connecting_in is published once per retry, with delay, attempt and time; attempts grow; handshake resets")
    func connectingIn() async throws {
        let h = Harness()
        let published = TestBox<[(Duration, Int)]>([])
        h.bird.onConnectingIn { delay, attempt in published.mutate { $0.append((delay, attempt)) } }
        await h.settle()
        for n in 0..<6 {
            try h.socket.networkFailure()
            await h.settle()
            let expected = Duration.seconds(min(30, 1 << n))
            #expect(h.recorder.retries.last?.delay == expected)
            #expect(h.recorder.retries.last?.attempt == n)
            #expect(h.bird.nextAttemptAt == h.clock.wallNow.addingTimeInterval(Double(min(30, 1 << n))))
            await h.advance(expected)
        }
        #expect(published.get.map(\.1) == [0, 1, 2, 3, 4, 5])
        #expect(published.get.last?.0 == .seconds(30))
        #expect(h.recorder.retries.count == 6)
        try await h.connect()
        try h.socket.serverClose(code: 1001)
        await h.settle()
        #expect(h.recorder.retries.last?.attempt == 0)
    }

    @Test("every transition reaches observers with previous and current")
    func transitionsChain() async throws {
        let h = Harness()
        let pairs = TestBox<[(ConnectionState, ConnectionState)]>([])
        h.bird.onConnectionStateChange { previous, current in pairs.mutate { $0.append((previous, current)) } }
        try await h.connect()
        try h.socket.serverClose(code: 1006)
        await h.advance(.seconds(1))
        h.bird.disconnect()
        await h.settle()
        let got = pairs.get
        #expect(got.map(\.1) == [.connecting, .connected, .unavailable, .connecting, .disconnected])
        for (a, b) in zip(got, got.dropFirst()) { #expect(a.1 == b.0) }
    }

    @Test("the states AsyncStream yields the same changes")
    func statesStream() async throws {
        let h = Harness()
        await h.settle()
        let stream = h.bird.states
        try await h.connect()
        h.bird.disconnect()
        await h.settle()
        var iterator = stream.makeAsyncIterator()
        // Observers registered at any time get the current connection's transitions since its
        // `connecting` first, so nobody misses `initialized → connecting`.
        let startup = await iterator.next()
        #expect(startup?.previous == .initialized && startup?.current == .connecting)
        let first = await iterator.next()
        #expect(first?.current == .connected)
        let second = await iterator.next()
        #expect(second?.current == .disconnected)
        #expect(second?.cause == .disconnectCalled)
    }
}

@Suite("Client lifetime")
struct ClientLifetimeTests {
    @Test("releasing the client closes its socket and frees the core")
    func release() async throws {
        let transport = ScriptedTransport()
        let clock = ManualClock()
        weak var weakChannel: BirdRealtime.Channel?
        do {
            let bird = BirdRealtime(
                options: .init(
                    appKey: "k", host: "localhost", allowInsecure: true, deliveryQueue: DispatchQueue(label: "l")),
                environment: transport.environment(clock: clock))
            weakChannel = bird.subscribe("orders")
            await bird.settle()
            transport.last?.handshake(connectionId: "1.1")
            await bird.settle()
        }
        let socket = try #require(transport.last)
        for _ in 0..<500 where socket.closedWith == nil { try await Task.sleep(for: .milliseconds(2)) }
        #expect(socket.closedWith?.code == 1000)
        for _ in 0..<500 where weakChannel != nil { try await Task.sleep(for: .milliseconds(2)) }
        #expect(weakChannel == nil)
    }
}
