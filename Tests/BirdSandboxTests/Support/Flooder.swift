import Foundation
import Synchronization
import TestSupport
#if canImport(Glibc)
    import Glibc
#endif

/// A hostile WebSocket client on a raw socket: upgrades, then writes one frame over and over as
/// fast as the socket takes it, and reports the close code the server answered with. Run by
/// ``FloodCrew`` on threads of its own, reconnecting after every close, like a persistent attacker.
enum Flooder {
    /// A client text frame (masked with a zero key, so the payload goes as is).
    static func frame(_ payload: String) -> [UInt8] {
        let bytes = Array(payload.utf8)
        var frame: [UInt8] = [0x81]
        if bytes.count < 126 {
            frame.append(0x80 | UInt8(bytes.count))
        } else if bytes.count <= 0xFFFF {
            frame += [0x80 | 126, UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((bytes.count >> shift) & 0xFF)) }
        }
        frame += [0, 0, 0, 0]
        return frame + bytes
    }

    /// One connection's flood: the server's close code, or nil when the connection ended
    /// without one (or never opened).
    static func floodOnce(port: Int, frame: [UInt8], stopped: () -> Bool) -> Int? {
        guard let socket = RawSocket(port: port) else { return nil }
        socket.send(
            "GET /app/sandbox-key?protocol=7 HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        var received: [UInt8] = []
        let opened = Date().addingTimeInterval(5)
        var headEnd: Int?
        while headEnd == nil {
            let more = socket.readUntilSome(deadline: opened)
            if more.isEmpty { return nil }
            received += more
            headEnd = received.indices.first { received[$0...].starts(with: [13, 10, 13, 10]) }
        }
        guard let headEnd, received.starts(with: Array("HTTP/1.1 101".utf8)) else { return nil }
        received.removeSubrange(0..<(headEnd + 4))
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        _ = setsockopt(socket.fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var chunk: [UInt8] = []
        while chunk.count < 64 * 1024 { chunk += frame }
        // Write until the server stops taking bytes (it stopped reading, or closed).
        while !stopped() {
            received += socket.readAvailable()
            if let code = closeCode(in: received) { return code }
            if !socket.send(chunk) { break }
        }
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let code = closeCode(in: received) { return code }
            let more = socket.readUntilSome(deadline: deadline)
            if more.isEmpty { break }
            received += more
        }
        return closeCode(in: received)
    }

    /// The code of the first close frame in a server's byte stream (unmasked frames).
    static func closeCode(in bytes: [UInt8]) -> Int? {
        var i = 0
        while i + 2 <= bytes.count {
            let opcode = bytes[i] & 0x0F
            var length = Int(bytes[i + 1] & 0x7F)
            var header = 2
            if length == 126 {
                guard i + 4 <= bytes.count else { return nil }
                length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
                header = 4
            } else if length == 127 {
                guard i + 10 <= bytes.count else { return nil }
                length = bytes[(i + 2)..<(i + 10)].reduce(0) { $0 << 8 | Int($1) }
                header = 10
            }
            guard i + header + length <= bytes.count else { return nil }
            if opcode == 8 {
                guard length >= 2 else { return 1005 }
                return Int(bytes[i + header]) << 8 | Int(bytes[i + header + 1])
            }
            i += header + length
        }
        return nil
    }
}

/// Several flooders, each on its own thread, reconnecting after every close until stopped.
final class FloodCrew: Sendable {
    private let stopFlag = Atomic<Bool>(false)
    /// An `NSLock` list (a pthread mutex, which the thread sanitizer models), not a `Mutex`: these
    /// threads' contended appends through `Mutex` were once reported as a race by a fresh clone's
    /// TSan stage, with both accesses inside `withLock`.
    private let codes = LockedList<Int?>()
    private let running = Atomic<Int>(0)

    init(count: Int, port: Int, frame: [UInt8]) {
        for _ in 0..<count {
            running.add(1, ordering: .relaxed)
            let thread = Thread { [self] in
                while !stopFlag.load(ordering: .relaxed) {
                    let code = Flooder.floodOnce(port: port, frame: frame) { self.stopFlag.load(ordering: .relaxed) }
                    codes.append(code)
                }
                running.subtract(1, ordering: .relaxed)
            }
            thread.start()
        }
    }

    /// The close codes the flood connections got so far (nil: ended without a close frame).
    var closeCodes: [Int?] { codes.all }

    /// Stops flooding and waits (up to 20 s) for the threads to end.
    func stop() {
        stopFlag.store(true, ordering: .relaxed)
        let deadline = Date().addingTimeInterval(20)
        while running.load(ordering: .relaxed) > 0 && Date() < deadline { usleep(10_000) }
    }
}
