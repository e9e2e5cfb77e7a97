import Foundation
import Testing
@testable import WebSocket

/// Plain HTTP on the server's port, and HTTPClient.
@Suite("HTTP on the WebSocket port", .serialized)
struct HTTPTests {
    @Test func handlerReceivesRequestAndRespondsLater() async throws {
        var configuration = WebSocketServer.Configuration()
        configuration.maxRequestBodySize = 1000
        let server = try EchoServer(configuration: configuration)
        defer { server.stop() }
        let seen = Locked<HTTPRequest?>(nil)
        server.server.onHTTPRequest = { request, respond in
            seen.mutate { $0 = request }
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
                var response = HTTPResponse.text(201, "created \(request.queryValue("name") ?? "")")
                response.headers.add(name: "X-Reply", value: "1")
                respond(response)
                respond(.text(500, "second call is ignored"))
            }
        }
        let url = URL(string: "http://127.0.0.1:\(server.port)/apps/3/events?name=a%20b&x=1")!
        let response = try await HTTPClient.send(
            method: "POST", url: url, headers: ["Content-Type": "application/json"],
            body: Array("{\"a\":1}".utf8))
        #expect(response.status == 201)
        #expect(String(decoding: response.body, as: UTF8.self) == "created a b")
        #expect(response.headers["x-reply"] == "1")
        let request = try #require(seen.get())
        #expect(request.method == "POST")
        #expect(request.path == "/apps/3/events")
        #expect(request.target == "/apps/3/events?name=a%20b&x=1")
        #expect(request.body == Array("{\"a\":1}".utf8))
        #expect(request.headers["content-type"] == "application/json")
        #expect(request.remoteAddress.hasPrefix("127.0.0.1:"))

        let tooBig = try await HTTPClient.send(method: "POST", url: url, body: [UInt8](repeating: 0, count: 1001))
        #expect(tooBig.status == 413)
    }

    @Test func noHandlerGives404AndBadUpgradeGives400() async throws {
        let server = try EchoServer()
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        #expect(try await HTTPClient.send(method: "GET", url: URL(string: base + "/x")!).status == 404)
        let badVersion = try await HTTPClient.send(
            method: "GET", url: URL(string: base + "/ws")!,
            headers: [
                "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
                "Sec-WebSocket-Version": "8",
            ])
        #expect(badVersion.status == 400)
        let noKey = try await HTTPClient.send(
            method: "GET", url: URL(string: base + "/ws")!,
            headers: [
                "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
            ])
        #expect(noKey.status == 400)
        let post = try await HTTPClient.send(
            method: "POST", url: URL(string: base + "/ws")!,
            headers: [
                "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
                "Sec-WebSocket-Version": "13",
            ])
        #expect(post.status == 400)
        #expect(server.connections.get().isEmpty)
    }

    @Test func keepAliveServesSeveralRequestsOnOneConnection() async throws {
        let server = try EchoServer()
        defer { server.stop() }
        server.server.onHTTPRequest = { request, respond in respond(.text(200, request.path)) }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(server.port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(rc == 0)
        let requests = "GET /one HTTP/1.1\r\nHost: x\r\n\r\nGET /two HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        _ = requests.withCString { send(fd, $0, strlen($0), 0) }
        // A deadline for the receive loop: a server that keeps the connection open fails the test
        // (recv gives EAGAIN after 10 s) instead of hanging it.
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        try #require(setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size)) == 0)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n < 0 { Issue.record("the server did not close the keep-alive connection within 10 s (errno \(errno))") }
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        let text = String(decoding: received, as: UTF8.self)
        #expect(text.components(separatedBy: "HTTP/1.1 200 OK").count == 3)
        #expect(text.hasSuffix("/two"))
        #expect(text.contains("/one"))
    }

    @Test func chunkedBodiesDecode() {
        let body = Array("4\r\nWiki\r\n5;ext=1\r\npedia\r\n0\r\nX-Trailer: 1\r\n\r\n".utf8)
        guard case .complete(let bytes) = HTTPExchange.decodeChunked(body[...]) else {
            Issue.record("not complete")
            return
        }
        #expect(String(decoding: bytes, as: UTF8.self) == "Wikipedia")
        if case .incomplete = HTTPExchange.decodeChunked(body[0..<20]) {} else { Issue.record("expected incomplete") }
        if case .malformed = HTTPExchange.decodeChunked(Array("zz\r\n".utf8)[...]) {
        } else {
            Issue.record("expected malformed")
        }
    }

    @Test func httpClientErrors() async {
        do {
            _ = try await HTTPClient.send(method: "GET", url: URL(string: "ftp://x/")!)
            Issue.record("accepted ftp")
        } catch {
            if case .invalidURL = error {} else { Issue.record("\(error)") }
        }
        // A server that accepts but never answers → timeout.
        let server = try? EchoServer()
        defer { server?.stop() }
        server?.server.onHTTPRequest = { _, _ in }
        do {
            _ = try await HTTPClient.send(
                method: "GET", url: URL(string: "http://127.0.0.1:\(server?.port ?? 1)/")!, timeout: .milliseconds(200))
            Issue.record("no timeout")
        } catch {
            #expect(error == .timeout)
        }
    }
}
