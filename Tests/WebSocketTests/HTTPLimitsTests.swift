import Foundation
import Testing
import TestSupport
@testable import WebSocket

/// The server's HTTP side under hostile peers: heads, bodies, connections and unread responses
/// stay within the configured limits, checked on the server's own counters.
@Suite("HTTP limits under hostile peers", .serialized)
struct HTTPLimitsTests {
    private func server(_ configure: (inout WebSocketServer.Configuration) -> Void = { _ in }) throws -> EchoServer {
        var configuration = WebSocketServer.Configuration()
        configure(&configuration)
        let server = try EchoServer(configuration: configuration)
        server.server.onHTTPRequest = { request, respond in
            respond(.text(200, "\(request.method) \(request.path) \(request.body.count)"))
        }
        return server
    }

    @Test func aHeadOver32KiBInOneWriteIsRefusedWith431() throws {
        let server = try server()
        defer { server.stop() }
        for size in [33 * 1024, 100 * 1024] {
            let socket = try #require(RawSocket(port: server.port))
            let padding = String(repeating: "a", count: size)
            #expect(socket.send("GET / HTTP/1.1\r\nHost: x\r\nX-Pad: \(padding)\r\n\r\n"))
            let (bytes, closed) = socket.readUntilClosed()
            #expect(RawSocket.parseResponse(bytes)?.status == 431, "head of \(size) bytes")
            #expect(closed)
        }
        // Just under the limit is still a request.
        let socket = try #require(RawSocket(port: server.port))
        socket.send(
            "GET /ok HTTP/1.1\r\nX-Pad: \(String(repeating: "a", count: 30 * 1024))\r\nConnection: close\r\n\r\n")
        #expect(socket.readResponse()?.status == 200)
    }

    @Test func aBodyOverTheRoutesLimitIsRefusedFromTheHeadBeforeAByteIsSent() throws {
        let server = try server { $0.maxRequestBodySize = 16 << 20 }
        defer { server.stop() }
        server.server.onRequestHead = { head in .readBody(maxBodyBytes: head.path == "/big" ? 1 << 20 : 1024) }
        // 100 MB announced, nothing sent: the answer comes from the head alone.
        let socket = try #require(RawSocket(port: server.port))
        socket.send("POST /small HTTP/1.1\r\nContent-Length: 100000000\r\n\r\n")
        let answer = socket.readResponse()
        #expect(answer?.status == 413)
        #expect(answer?.body.contains("1024") == true)
        #expect(socket.readUntilClosed().closed)
        // The route limit, not the server's: 2 KiB is too much for /small, fine for /big.
        let small = try #require(RawSocket(port: server.port))
        small.send("POST /small HTTP/1.1\r\nContent-Length: 2048\r\n\r\n")
        #expect(small.readResponse()?.status == 413)
        let big = try #require(RawSocket(port: server.port))
        big.send(
            "POST /big HTTP/1.1\r\nContent-Length: 2048\r\nConnection: close\r\n\r\n"
                + String(repeating: "b", count: 2048))
        #expect(big.readResponse()?.body == "POST /big 2048")
        let statistics = server.server.statistics
        #expect(statistics.requestsAnsweredFromHead == 2)
        #expect(statistics.peakBufferedRequestBytes == 2048)
    }

    @Test func theHeadHandlerCanAnswerWithoutReadingTheBody() throws {
        let server = try server()
        defer { server.stop() }
        let handled = Locked(0)
        server.server.onHTTPRequest = { _, respond in
            handled.mutate { $0 += 1 }
            respond(.text(200, "handled"))
        }
        server.server.onRequestHead = { head in
            head.headers["X-Key"] == "yes" ? .readBody(maxBodyBytes: 1024) : .respond(.text(403, "no key"))
        }
        let socket = try #require(RawSocket(port: server.port))
        socket.send("POST /x HTTP/1.1\r\nContent-Length: 500\r\n\r\n")
        #expect(socket.readResponse()?.status == 403)
        #expect(socket.readUntilClosed().closed)
        #expect(handled.get() == 0)
        #expect(server.server.statistics.requestsAnsweredFromHead == 1)
    }

    @Test(arguments: [
        ("Transfer-Encoding: chunked\r\n", 411),
        ("Transfer-Encoding: chunked\r\nContent-Length: 4\r\n", 400),
        ("Content-Length: +4\r\n", 400),
        ("Content-Length: 4\r\nContent-Length: 5\r\n", 400),
        ("Content-Length: 4, 5\r\n", 400),
        ("Content-Length: 99999999999999999999999\r\n", 400),
        ("Content-Length: -1\r\n", 400),
    ])
    func bodyFramingThatCannotBeTrustedIsRefused(header: String, status: Int) throws {
        let server = try server()
        defer { server.stop() }
        let socket = try #require(RawSocket(port: server.port))
        socket.send("POST /x HTTP/1.1\r\n\(header)\r\nabcd")
        #expect(socket.readResponse()?.status == status)
        #expect(socket.readUntilClosed().closed)
    }

    @Test func bodiesInFlightShareOneBudget() async throws {
        let server = try server {
            $0.maxRequestBodySize = 1 << 20
            $0.maxBufferedRequestBytes = 1 << 20
        }
        defer { server.stop() }
        // Two heads of 600 KB each, bodies withheld: the first reserves, the second finds no room.
        let first = try #require(RawSocket(port: server.port))
        first.send("POST /a HTTP/1.1\r\nContent-Length: 600000\r\n\r\n")
        #expect(await eventually { server.server.statistics.bufferedRequestBytes == 600_000 })
        let second = try #require(RawSocket(port: server.port))
        second.send("POST /b HTTP/1.1\r\nContent-Length: 600000\r\n\r\n")
        let busy = second.readResponse()
        #expect(busy?.status == 503)
        // The first finishes its body, is answered, and gives its reservation back.
        first.send(String(repeating: "x", count: 600_000))
        #expect(first.readResponse()?.body == "POST /a 600000")
        #expect(await eventually { server.server.statistics.bufferedRequestBytes == 0 })
        #expect(server.server.statistics.peakBufferedRequestBytes == 600_000)
    }

    @Test func atTheConnectionCapNewConnectionsWaitUntilASlotFrees() async throws {
        let server = try server { $0.maxHTTPConnections = 2 }
        defer { server.stop() }
        let held = try [#require(RawSocket(port: server.port)), #require(RawSocket(port: server.port))]
        #expect(await eventually { server.server.statistics.httpConnections == 2 })
        // A third connection completes in the kernel's backlog but is not accepted.
        let waiting = try #require(RawSocket(port: server.port))
        waiting.send("GET /third HTTP/1.1\r\nConnection: close\r\n\r\n")
        // The server is alive and answering the held connections meanwhile.
        held[0].send("GET /first HTTP/1.1\r\n\r\n")
        #expect(held[0].readResponse()?.body == "GET /first 0")
        #expect(waiting.readAvailable().isEmpty)
        let statistics = server.server.statistics
        #expect(statistics.peakHTTPConnections == 2)
        #expect(statistics.acceptPausesAtCap >= 1)
        // A slot frees up: the waiting connection is accepted and answered.
        held[1].shutdownWrite()
        #expect(waiting.readResponse()?.body == "GET /third 0")
        #expect(server.server.statistics.peakHTTPConnections == 2)
    }

    @Test func aPeerThatPipelinesButNeverReadsIsClosedWithItsBacklogBounded() async throws {
        let cap = 256 * 1024
        let response = 64 * 1024
        let server = try server { $0.maxHTTPOutboundBytes = cap }
        defer { server.stop() }
        let payload = String(repeating: "r", count: response)
        server.server.onHTTPRequest = { _, respond in respond(.text(200, payload)) }
        let socket = try #require(RawSocket(port: server.port, receiveBuffer: 4096))
        // 400 requests asking for 64 KiB each (25 MiB of answers), and not one byte read.
        let requests = String(repeating: "GET /big HTTP/1.1\r\nHost: x\r\n\r\n", count: 400)
        let writer = Thread { socket.send(requests) }
        writer.start()
        #expect(await eventually(seconds: 30) { server.server.statistics.slowHTTPReadersClosed == 1 })
        let statistics = server.server.statistics
        print(
            "pipelining non-reader: closed after a backlog peak of \(statistics.peakQueuedHTTPResponseBytes) bytes (cap \(cap))"
        )
        #expect(statistics.peakQueuedHTTPResponseBytes <= cap + response + 200)
        #expect(await eventually { server.server.statistics.httpConnections == 0 })
    }
}
