import Foundation
import TestSupport
@testable import WebSocket

#if canImport(Glibc)
    import Glibc
#endif

/// A one-connection WebSocket server written on a raw socket, so that a test sees exactly when
/// its writes stop being taken (the client no longer reads): the opening handshake by hand,
/// unmasked frames out, masked frames in.
final class FloodServer: @unchecked Sendable {
    private let listenFD: Int32
    private var fd: Int32 = -1
    private var parser = FrameParser(role: .server)
    /// Bytes of a message the socket has not taken yet (after a stalled send).
    private var unsent: [UInt8] = []
    let port: Int

    init() throws {
        guard let (listenFD, port) = listenOnLoopback(backlog: 4) else { throw WebSocketError.network("listen") }
        self.listenFD = listenFD
        self.port = port
    }

    deinit {
        if fd >= 0 { close(fd) }
        close(listenFD)
    }

    /// Accepts one connection and answers its upgrade request; false after `seconds`.
    func accept(within seconds: Double) -> Bool {
        guard wait(listenFD, events: Int16(POLLIN), seconds: seconds) else { return false }
        fd = Glibc.accept(listenFD, nil, nil)
        guard fd >= 0 else { return false }
        var request: [UInt8] = []
        while !request.ends(with: Array("\r\n\r\n".utf8)) {
            guard wait(fd, events: Int16(POLLIN), seconds: seconds) else { return false }
            var byte: UInt8 = 0
            guard recv(fd, &byte, 1, 0) == 1 else { return false }
            request.append(byte)
        }
        let text = String(decoding: request, as: UTF8.self)
        guard
            let line = text.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("sec-websocket-key:") }),
            let colon = line.firstIndex(of: ":")
        else { return false }
        let key = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        let answer =
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: \(Handshake.acceptValue(forKey: key))\r\n\r\n"
        return write(Array(answer.utf8), within: seconds)
    }

    /// The next text message from the client; nil after `seconds`.
    func receiveText(within seconds: Double) -> String? {
        while true {
            if let frame = try? parser.next() {
                if frame.opcode == .text { return String(decoding: frame.payload, as: UTF8.self) }
                continue
            }
            guard wait(fd, events: Int16(POLLIN), seconds: seconds) else { return nil }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { return nil }
            parser.append(buffer[0..<n])
        }
    }

    /// Whether a close frame arrives and then end of stream, within `seconds`.
    func closeFrameThenEOF(within seconds: Double) -> Bool {
        var sawClose = false
        while true {
            while let frame = try? parser.next() {
                if frame.opcode == .close { sawClose = true }
            }
            guard wait(fd, events: Int16(POLLIN), seconds: seconds) else { return false }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { return sawClose }
            parser.append(buffer[0..<n])
        }
    }

    /// Sends one text message; false when the socket took nothing for `seconds` (the peer does
    /// not read and the kernel's buffers are full): the rest is kept for ``flush(within:)``.
    func send(text: String, within seconds: Double) -> Bool {
        unsent.append(contentsOf: FrameEncoder.encodeFrame(.text, Array(text.utf8), masked: false))
        return flush(within: seconds)
    }

    /// Writes what a stalled send left; false when the socket took nothing for `seconds`.
    func flush(within seconds: Double) -> Bool {
        write([], within: seconds)
    }

    private func write(_ bytes: [UInt8], within seconds: Double) -> Bool {
        unsent.append(contentsOf: bytes)
        var offset = 0
        defer { unsent.removeFirst(offset) }
        while offset < unsent.count {
            guard wait(fd, events: Int16(POLLOUT), seconds: seconds) else { return false }
            let n = unsent[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
            }
            if n > 0 {
                offset += n
            } else if errno != EAGAIN && errno != EINTR {
                return false
            }
        }
        return true
    }

    private func wait(_ fd: Int32, events: Int16, seconds: Double) -> Bool {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        return poll(&entry, 1, Int32(seconds * 1000)) == 1
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
