import Foundation
import TestSupport
#if canImport(Glibc)
    import Glibc
#endif
@testable import WebSocket

/// A loopback TCP server that answers every connection by a script — for what a real edge
/// gets right: a web server where the edge should be, a wrong Sec-WebSocket-Accept, an edge
/// that upgrades and then says nothing, an auth endpoint that is slow or answers HTML.
/// One thread per connection (blocking sockets); ``stop()`` ends them all.
final class ScriptedServer: @unchecked Sendable {
    /// What arrived on a connection: the request head and its body (Content-Length).
    struct Request: Sendable {
        var head: String
        var body: [UInt8]

        /// The first value of header `name` (case-insensitive).
        func header(_ name: String) -> String? {
            for line in head.split(separator: "\r\n").dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                if line[..<colon].lowercased() == name.lowercased() {
                    return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }
    }

    /// How to answer.
    enum Reply: Sendable {
        /// A complete HTTP response, then close.
        case http(status: String, contentType: String, body: String)
        /// `101` with the right accept value (or `accept` when given), then these text frames,
        /// then stay open reading (and ignoring) everything.
        case upgrade(accept: String?, frames: [String])
        /// Read and never answer.
        case silent
    }

    let port: Int
    private let listener: Int32
    private let script: @Sendable (Request) -> Reply
    private let lock = NSLock()
    private var clients: [Int32] = []
    private var stopped = false

    init(_ script: @escaping @Sendable (Request) -> Reply) throws {
        self.script = script
        guard let (fd, port) = listenOnLoopback(backlog: 16) else {
            throw ScriptedServerError("socket/bind/listen failed")
        }
        listener = fd
        self.port = port
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// Closes the listener and every connection.
    func stop() {
        lock.lock()
        guard !stopped else {
            lock.unlock()
            return
        }
        stopped = true
        // Shut down (never close) descriptors other threads own: each closes its own, after
        // leaving `clients` under the lock, so no number is reused while it is listed here.
        Glibc.shutdown(listener, Int32(SHUT_RDWR))
        for fd in clients { Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
        lock.unlock()
    }

    private func acceptLoop() {
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else {
                if errno == EINTR { continue }
                Glibc.close(listener)
                return
            }
            lock.lock()
            if stopped {
                lock.unlock()
                Glibc.close(fd)
                Glibc.close(listener)
                return
            }
            clients.append(fd)
            lock.unlock()
            let thread = Thread { [self] in serve(fd) }
            thread.start()
        }
    }

    private func serve(_ fd: Int32) {
        defer {
            lock.lock()
            clients.removeAll { $0 == fd }
            lock.unlock()
            Glibc.close(fd)
        }
        guard let request = readRequest(fd) else { return }
        switch script(request) {
        case .http(let status, let contentType, let body):
            let bytes = Array(body.utf8)
            write(
                fd,
                "HTTP/1.1 \(status)\r\nContent-Type: \(contentType)\r\nContent-Length: \(bytes.count)\r\nConnection: close\r\n\r\n"
            )
            write(fd, bytes)
            Glibc.shutdown(fd, Int32(SHUT_WR))
            drain(fd)
        case .upgrade(let accept, let frames):
            let key = request.header("Sec-WebSocket-Key") ?? ""
            let value = accept ?? Handshake.acceptValue(forKey: key)
            write(
                fd,
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(value)\r\n\r\n"
            )
            for frame in frames { write(fd, ScriptedServer.textFrame(frame)) }
            drain(fd)
        case .silent:
            drain(fd)
        }
    }

    /// An unmasked server text frame.
    static func textFrame(_ text: String) -> [UInt8] {
        let payload = Array(text.utf8)
        var out: [UInt8] = [0x81]
        if payload.count < 126 {
            out.append(UInt8(payload.count))
        } else {
            out += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        return out + payload
    }

    private func readRequest(_ fd: Int32) -> Request? {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let end = HTTPHead.findEnd(buffer) {
                let head = String(decoding: buffer[0..<end], as: UTF8.self)
                let request = Request(head: head, body: [])
                let length = request.header("Content-Length").flatMap { Int($0) } ?? 0
                while buffer.count - end < length {
                    let n = recv(fd, &chunk, chunk.count, 0)
                    guard n > 0 else { return nil }
                    buffer += chunk[0..<n]
                }
                return Request(head: head, body: Array(buffer[end..<(end + length)]))
            }
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0 else { return nil }
            buffer += chunk[0..<n]
        }
    }

    private func drain(_ fd: Int32) {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while recv(fd, &chunk, chunk.count, 0) > 0 {}
    }

    private func write(_ fd: Int32, _ text: String) { write(fd, Array(text.utf8)) }

    private func write(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return }
            offset += n
        }
    }
}

struct ScriptedServerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
