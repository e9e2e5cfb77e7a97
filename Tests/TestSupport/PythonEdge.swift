import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A Python edge script run in its own process; it prints `PORT n` once it listens.
public final class PythonEdge {
    /// The running interpreter.
    public let process: Process
    private let script: URL
    /// The port the script printed, or nil when it printed none within 20 s.
    public let port: Int?

    /// Writes `text` to a temporary file and runs it with `python`; waits for its `PORT n` line.
    public init(python: String, script text: String) throws {
        script = FileManager.default.temporaryDirectory.appendingPathComponent("bird-edge-\(UUID().uuidString).py")
        try text.write(to: script, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        port = Self.readLine(output.fileHandleForReading).flatMap { Int($0.dropFirst("PORT ".count)) }
    }

    /// The end of an edge script: serves its `handler(ws)` with `websockets` on a free loopback
    /// port, prints `PORT n`, and exits after 30 s. Append it to a script that defines `handler`.
    public static let serveHandler = #"""
        async def main():
            async with websockets.serve(handler, "127.0.0.1", 0) as server:
                port = server.sockets[0].getsockname()[1]
                print(f"PORT {port}", flush=True)
                await asyncio.sleep(30)
        asyncio.run(main())
        """#

    /// Kills the process and removes the script.
    public func stop() {
        // Only a running child: an exited one's pid may belong to another process by now.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: script)
    }

    /// Reads one line from a pipe (the peer prints it at start); nil at end of file or when no
    /// line arrives within `seconds` (a peer that hangs fails the test instead of hanging it).
    public static func readLine(_ handle: FileHandle, deadline seconds: Double = 20) -> String? {
        var bytes: [UInt8] = []
        let end = Date().addingTimeInterval(seconds)
        let fd = handle.fileDescriptor
        while true {
            let left = end.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(left, 1) * 1000))
            if ready < 0 && errno != EINTR { return nil }
            guard ready > 0 else { continue }
            var byte: UInt8 = 0
            let n = read(fd, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            guard n == 1 else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}
