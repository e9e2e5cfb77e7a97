import BirdWire
import Foundation
import Testing
import TestSupport
import WebSocket

@testable import BirdSandbox

/// The sandbox's HTTP side over real loopback sockets against the attacks of issue 13: web pages
/// driving the control API, bodies announced but never sent, too many connections, and a peer
/// that pipelines requests but never reads. Bounds are asserted on the server's own counters.
@Suite(.serialized) struct SandboxHostileHTTPTests {
    private func start(_ configure: (inout SandboxConfiguration) -> Void = { _ in }) throws -> Sandbox {
        var configuration = SandboxConfiguration(port: 0)
        configure(&configuration)
        let sandbox = try Sandbox(configuration: configuration)
        try sandbox.start()
        return sandbox
    }

    /// A connected WebSocket client that must survive whatever the test throws at the control API.
    private func calmClient(_ sandbox: Sandbox) async throws -> TestClient {
        let client = TestClient(sandbox.endpoints.webSocketURL + "?protocol=7")
        _ = try #require(await client.connectionId())
        return client
    }

    @Test func aCrossOriginPostIsRefusedFromItsHead() async throws {
        let sandbox = try start()
        defer { sandbox.stop(grace: 0) }
        let calm = try await calmClient(sandbox)
        let port = sandbox.endpoints.port
        // A page's fetch with a JSON body; the body (100 MB announced) is never needed.
        let socket = try #require(RawSocket(port: port))
        socket.send(
            "POST /sandbox/close-all HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: https://evil.example\r\n"
                + "Content-Type: application/json\r\nContent-Length: 100000000\r\n\r\n")
        let answer = socket.readResponse()
        #expect(answer?.status == 403)
        #expect(answer?.body.contains("Origin") == true)
        // A "simple" form post (no preflight in a browser), with its body.
        let form = try #require(RawSocket(port: port))
        let body = #"{"code":4000}"#
        form.send(
            "POST /sandbox/close-all HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: null\r\n"
                + "Content-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        #expect(form.readResponse()?.status == 403)
        #expect(sandbox.connections().count == 1)
        #expect(calm.closeInfo == nil)
        #expect((sandbox.httpStatistics?.requestsAnsweredFromHead ?? 0) >= 2)
        #expect(sandbox.httpStatistics?.peakBufferedRequestBytes == 0)
    }

    @Test func theControlAPIsPreflightGrantsNothingAndTheDemoAuthsStillDoes() throws {
        let sandbox = try start()
        defer { sandbox.stop(grace: 0) }
        let port = sandbox.endpoints.port
        for (path, granted) in [("/sandbox/close-all", false), ("/sandbox/publish", false), ("/auth", true)] {
            let socket = try #require(RawSocket(port: port))
            socket.send(
                "OPTIONS \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://localhost:3000\r\n"
                    + "Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type\r\n"
                    + "Connection: close\r\n\r\n")
            let (bytes, _) = socket.readUntilClosed()
            let head = String(decoding: bytes, as: UTF8.self).lowercased()
            #expect(head.hasPrefix("http/1.1 204"), "\(path): \(head)")
            #expect(head.contains("access-control-allow-") == granted, "\(path): \(head)")
        }
    }

    @Test func aBodyWithTheWrongContentTypeIs415AndDoesNothing() async throws {
        let sandbox = try start()
        defer { sandbox.stop(grace: 0) }
        let calm = try await calmClient(sandbox)
        let port = sandbox.endpoints.port
        let body = #"{"code":4000,"reason":"x"}"#
        for type in ["text/plain", "application/x-www-form-urlencoded"] {
            let socket = try #require(RawSocket(port: port))
            socket.send(
                "POST /sandbox/close-all HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: \(type)\r\n"
                    + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
            let answer = socket.readResponse()
            #expect(answer?.status == 415)
            #expect(answer?.body.contains("Content-Type") == true)
        }
        #expect(sandbox.connections().count == 1)
        #expect(calm.closeInfo == nil)
        // The same call as documented (curl -H 'Content-Type: application/json' -d …) works.
        let ok = await http("POST", sandbox.endpoints.controlBase + "/close-all", body: ["code": 4000, "reason": "x"])
        #expect(ok.status == 200)
        #expect(await calm.waitForClose()?.code == 4000)
    }

    @Test func aHugeAnnouncedBodyIs413AtOnceAndNeverRead() throws {
        let sandbox = try start()
        defer { sandbox.stop(grace: 0) }
        let port = sandbox.endpoints.port
        for (path, limit) in [
            ("/sandbox/publish", Sandbox.BodyLimit.publish), ("/sandbox/close-all", Sandbox.BodyLimit.control),
            ("/sandbox/connections/1.1/send", Sandbox.BodyLimit.send), ("/auth", Sandbox.BodyLimit.auth),
            ("/apps/sandbox/events", Sandbox.BodyLimit.api), ("/", 0),
        ] {
            let socket = try #require(RawSocket(port: port))
            socket.send(
                "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(limit + 1)\r\n\r\n")
            let answer = socket.readResponse()
            #expect(answer?.status == 413, "\(path)")
            #expect(answer?.body.contains("at most \(limit) bytes") == true, "\(path): \(answer?.body ?? "")")
            #expect(socket.readUntilClosed().closed)
        }
        let statistics = try #require(sandbox.httpStatistics)
        #expect(statistics.requestsAnsweredFromHead == 6)
        #expect(statistics.peakBufferedRequestBytes == 0)
    }

    @Test func aCallerOffLoopbackIsRefusedBeforeItsBody() {
        // The remote address decides; a head screened as from 192.0.2.1 never gets its body read.
        for path in ["/sandbox/close-all", "/auth", "/auth/member"] {
            let head = HTTPRequest(
                method: "POST", target: path, headers: ["Content-Length": "10000000"], remoteAddress: "192.0.2.1:5000")
            guard case .respond(let response) = Sandbox.screen(head: head) else {
                Issue.record("\(path) from off loopback was not answered from its head")
                continue
            }
            #expect(response.status == 403)
        }
        let local = HTTPRequest(method: "POST", target: "/sandbox/close-all", remoteAddress: "127.0.0.1:5000")
        guard case .readBody(let limit) = Sandbox.screen(head: local) else {
            Issue.record("a loopback control call was refused")
            return
        }
        #expect(limit == Sandbox.BodyLimit.control)
    }

    @Test func theHTTPConnectionCapHoldsAndWebSocketsAreNotCounted() async throws {
        let sandbox = try start { $0.maxHTTPConnections = 3 }
        defer { sandbox.stop(grace: 0) }
        let port = sandbox.endpoints.port
        // WebSocket connections leave the HTTP count once upgraded.
        let clients = (0..<5).map { _ in TestClient(sandbox.endpoints.webSocketURL + "?protocol=7") }
        for client in clients { #expect(await client.connectionId() != nil) }
        let held = try (0..<3).map { _ in try #require(RawSocket(port: port)) }
        #expect(await eventually { sandbox.httpStatistics?.httpConnections == 3 })
        let waiting = try #require(RawSocket(port: port))
        waiting.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
        held[0].send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        #expect(held[0].readResponse()?.status == 200)
        #expect(waiting.readAvailable().isEmpty)
        #expect(sandbox.httpStatistics?.peakHTTPConnections == 3)
        held[1].shutdownWrite()
        #expect(waiting.readResponse()?.status == 200)
        #expect(sandbox.httpStatistics?.peakHTTPConnections == 3)
        #expect(sandbox.connections().count == 5)
    }

    @Test func aPipeliningPeerThatNeverReadsIsClosedWithABoundedBacklog() async throws {
        let sandbox = try start()
        defer { sandbox.stop(grace: 0) }
        let port = sandbox.endpoints.port
        let request = "GET /sandbox HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
        let one = try #require(RawSocket(port: port))
        one.send(request)
        let responseSize = try #require(one.readResponse()).body.utf8.count + 200
        let socket = try #require(RawSocket(port: port, receiveBuffer: 4096))
        let pipelined = String(repeating: request, count: 40_000)
        Thread { socket.send(pipelined) }.start()
        #expect(await eventually(seconds: 60) { sandbox.httpStatistics?.slowHTTPReadersClosed == 1 })
        let statistics = try #require(sandbox.httpStatistics)
        print(
            "sandbox, pipelining non-reader: closed; response backlog peaked at "
                + "\(statistics.peakQueuedHTTPResponseBytes) bytes (cap 1048576 + one response of ≤ \(responseSize))")
        #expect(statistics.peakQueuedHTTPResponseBytes <= (1 << 20) + responseSize)
    }
}

/// Polls `condition` until it holds or `seconds` pass.
func eventually(seconds: Double = 10, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}
