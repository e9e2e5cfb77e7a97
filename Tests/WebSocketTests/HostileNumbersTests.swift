import Foundation
import Testing
import TestSupport

@testable import WebSocket

/// Numbers a server sends (status codes, lengths, chunk sizes) and durations from options go
/// through checked conversions: malformed or out of range is a typed error, never a trap.
@Suite("Hostile numbers: HTTP responses, timers")
struct HostileNumbersTests {
    @Test("status lines: exactly three digits, 100…599")
    func statusLines() {
        #expect(ResponseNumbers.status(ofStatusLine: "HTTP/1.1 200 OK") == 200)
        #expect(ResponseNumbers.status(ofStatusLine: "HTTP/1.0 101") == 101)
        for line in [
            "HTTP/1.1 +200 OK", "HTTP/1.1 -200 OK", "HTTP/1.1 99999999999999999999 x", "HTTP/1.1 020 x",
            "HTTP/1.1 600 x", "HTTP/1.1 2000 x", "HTTP/1.1  200 x", "HTTP/2 200", "HTTP/1.1 ٢٠٠ x", "",
        ] {
            #expect(ResponseNumbers.status(ofStatusLine: line) == nil, "\(line)")
        }
    }

    @Test("Content-Length: digits only, at most 8 MiB")
    func contentLengths() {
        #expect(ResponseNumbers.contentLength(" 42 ") == .success(42))
        #expect(ResponseNumbers.contentLength("8388608") == .success(8 << 20))
        #expect(ResponseNumbers.contentLength("8388609") == .failure(.tooLarge))
        #expect(ResponseNumbers.contentLength("99999999999999999999999") == .failure(.tooLarge))
        for value in ["+5", "-1", "1, 2", "0x10", "", "1e3"] {
            #expect(ResponseNumbers.contentLength(value) == .failure(.malformed), "\(value)")
        }
    }

    @Test("a chunk size near Int.max is refused before any arithmetic (it trapped in size + 2)")
    func hugeChunkSizes() {
        for size in ["7fffffffffffffff", "ffffffffffffffffffff", "800001"] {
            #expect(HTTPExchange.decodeChunked(Array("\(size)\r\nab\r\n0\r\n\r\n".utf8)[...]) == .tooLarge, "\(size)")
        }
        #expect(HTTPExchange.decodeChunked(Array("-1\r\n".utf8)[...]) == .malformed)
        #expect(HTTPExchange.decodeChunked(Array("+a\r\n".utf8)[...]) == .malformed)
        // Many chunks that add up past the limit.
        let chunk = "100000\r\n" + String(repeating: "x", count: 0x100000) + "\r\n"
        #expect(
            HTTPExchange.decodeChunked(Array((String(repeating: chunk, count: 9) + "0\r\n\r\n").utf8)[...]) == .tooLarge
        )
        #expect(
            HTTPExchange.decodeChunked(Array("0000000000000000000004\r\nWiki\r\n0\r\n\r\n".utf8)[...])
                == .complete(Array("Wiki".utf8)))
    }

    @Test("a server announcing a huge Content-Length or chunk gets a typed error at once")
    func hugeLengthsFromAServer() async throws {
        let cases = [
            ("Content-Length: 9223372036854775807\r\n\r\nx", "Content-Length over 8388608 bytes"),
            ("Transfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\nx", "chunk larger than 8388608 bytes"),
            ("Content-Length: -1\r\n\r\n", "invalid Content-Length"),
        ]
        for (rest, message) in cases {
            let server = try OneResponseServer("HTTP/1.1 200 OK\r\n" + rest)
            do {
                _ = try await HTTPClient.send(
                    method: "GET", url: URL(string: "http://127.0.0.1:\(server.port)/")!, timeout: .seconds(10))
                Issue.record("accepted: \(rest)")
            } catch {
                #expect(error == .httpMalformedResponse(message))
            }
        }
        let server = try OneResponseServer("HTTP/1.1 2000 OK\r\nContent-Length: 0\r\n\r\n")
        await #expect(throws: WebSocketError.httpMalformedResponse("malformed status line")) {
            _ = try await HTTPClient.send(method: "GET", url: URL(string: "http://127.0.0.1:\(server.port)/")!)
        }
    }

    @Test("Duration.clampedNanoseconds: negative → 0, beyond Int64 → Int64.max")
    func clampedNanoseconds() {
        #expect(Duration.seconds(-5).clampedNanoseconds == 0)
        #expect(Duration.milliseconds(-1).clampedNanoseconds == 0)
        #expect(Duration.milliseconds(1500).clampedNanoseconds == 1_500_000_000)
        #expect(Duration.seconds(Int64.max).clampedNanoseconds == .max)
        #expect(Duration.seconds(9_223_372_036).clampedNanoseconds == 9_223_372_036_000_000_000)
        #expect(Duration.seconds(9_223_372_037).clampedNanoseconds == .max)
    }

    @Test("the event loop takes any delay (it trapped on .seconds(Int64.max)); a huge one does not fire at once")
    func eventLoopDelays() async {
        let fired = Locked(0)
        let loop = EventLoop.shared
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            loop.execute {
                let huge = loop.schedule(after: .seconds(Int64.max)) { fired.mutate { $0 += 100 } }
                let big = loop.schedule(after: .seconds(20_000_000_000)) { fired.mutate { $0 += 100 } }
                // Scheduled last, due first: when it runs, a wrapped-around deadline would have run too.
                loop.schedule(after: .milliseconds(20)) {
                    fired.mutate { $0 += 1 }
                    huge.cancel()
                    big.cancel()
                    done.resume()
                }
            }
        }
        #expect(fired.get() == 1)
    }
}

/// A loopback listener that answers one connection with fixed bytes and keeps it open (so a
/// client waiting for more bytes would hang until its timeout: the tests expect an answer before).
final class OneResponseServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32

    init(_ response: String) throws {
        let (fd, port) = try #require(listenOnLoopback(backlog: 4))
        listener = fd
        self.port = port
        DispatchQueue.global().async {
            let connection = accept(fd, nil, nil)
            guard connection >= 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 4096)
            _ = recv(connection, &buffer, buffer.count, 0)
            _ = response.withCString { send(connection, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
            // Held open until the client closes.
            while recv(connection, &buffer, buffer.count, 0) > 0 {}
            close(connection)
        }
    }

    deinit { close(listener) }
}
