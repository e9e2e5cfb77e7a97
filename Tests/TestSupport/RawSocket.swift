import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A plain blocking TCP client for hostile-peer tests: writes exactly the bytes given and reads
/// with deadlines (poll), so a test can send a head without its body, pipeline requests, or
/// never read.
public final class RawSocket: @unchecked Sendable {
    /// The socket's descriptor (for tests that set options or poll it themselves).
    public let fd: Int32

    /// Connects to 127.0.0.1:`port`; `receiveBuffer` shrinks the kernel's receive buffer first.
    public init?(port: Int, receiveBuffer: Int32? = nil) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        if var size = receiveBuffer {
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard rc == 0 else {
            close(fd)
            return nil
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Writes all of `bytes` (blocking); false when the peer is gone.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.send(fd, base + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    /// Writes `text` as UTF-8 (blocking); false when the peer is gone.
    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Half-closes the sending side.
    public func shutdownWrite() { _ = shutdown(fd, Int32(SHUT_WR)) }

    /// Reads until the peer closes or `seconds` pass; returns what arrived and whether it closed.
    public func readUntilClosed(seconds: Double = 10) -> (bytes: [UInt8], closed: Bool) {
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            guard waitReadable(until: deadline) else { break }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return (received, true) }
            received += buffer[0..<n]
        }
        return (received, false)
    }

    /// Reads until `received` holds one complete response head plus its Content-Length body, or
    /// `seconds` pass. Returns the status and body.
    public func readResponse(seconds: Double = 10) -> (status: Int, body: String)? {
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            if let response = Self.parseResponse(received) { return response }
            guard waitReadable(until: deadline) else { break }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        return Self.parseResponse(received)
    }

    /// Waits for bytes until `deadline`; returns what one read gave (empty: closed or timed out).
    public func readUntilSome(deadline: Date) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            guard waitReadable(until: deadline) else { continue }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n < 0 && errno == EINTR { continue }
            return n > 0 ? Array(buffer[0..<n]) : []
        }
        return []
    }

    /// Bytes readable right now without waiting (empty when none).
    public func readAvailable() -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        return n > 0 ? Array(buffer[0..<n]) : []
    }

    private func waitReadable(until deadline: Date) -> Bool {
        let ms = Int32(max(0, min(1000, deadline.timeIntervalSinceNow * 1000)))
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&pfd, 1, ms) > 0
    }

    /// The first response in `bytes`: status and Content-Length body, once complete.
    public static func parseResponse(_ bytes: [UInt8]) -> (status: Int, body: String)? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let headEnd = text.range(of: "\r\n\r\n") else { return nil }
        let head = text[..<headEnd.lowerBound]
        let statusLine = head.split(separator: "\r\n").first ?? ""
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        var length = 0
        for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
            length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        let body = Array(text[headEnd.upperBound...].utf8)
        guard body.count >= length else { return nil }
        return (status, String(decoding: body.prefix(length), as: UTF8.self))
    }
}
