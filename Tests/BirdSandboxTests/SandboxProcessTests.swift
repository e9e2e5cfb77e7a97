import BirdWire
import Foundation
import Testing
import TestSupport

/// The `bird-sandbox` executable as users run it: a real process, a real Python `websockets` peer.
@Suite(.serialized) struct SandboxProcessTests {
    /// The peer: connects, prints `OPEN` once the handshake arrived, then `CLOSED code reason`.
    static let peerScript = """
        import asyncio, sys, websockets
        async def main():
            async with websockets.connect(sys.argv[1]) as ws:
                await ws.recv()
                print("OPEN", flush=True)
                try:
                    while True:
                        await ws.recv()
                except websockets.ConnectionClosed as e:
                    print("CLOSED", e.rcvd.code if e.rcvd else "none", e.rcvd.reason if e.rcvd else "", flush=True)
        asyncio.run(main())
        """

    @Test(arguments: [("SIGHUP", SIGHUP), ("SIGTERM", SIGTERM), ("SIGINT", SIGINT)])
    func aSignalClosesEveryConnectionWith4200AndExits0(name: String, signal: Int32) async throws {
        guard let binary = ChildProcess.sandboxBinary(), let python = PythonPeer.interpreter() else { return }
        let sandbox = try ChildProcess(binary, ["--port", "0", "--quiet"])
        defer { sandbox.kill() }
        let line = try #require(
            await sandbox.waitForLine { $0.hasPrefix("{") }, "no endpoints line; stderr: \(sandbox.stderr)")
        let ws = try #require(try JSONValue(parsing: line)["ws"]?.stringValue)
        let peer = try ChildProcess(python, ["-c", Self.peerScript, ws + "?protocol=7"])
        defer { peer.kill() }
        #expect(await peer.waitForLine { $0 == "OPEN" } != nil, "peer did not open; stderr: \(peer.stderr)")
        sandbox.send(signal)
        let closed = await peer.waitForLine { $0.hasPrefix("CLOSED") }
        #expect(closed == "CLOSED 4200 edge restarting", "\(name): peer saw \(closed ?? "nothing")")
        #expect(await sandbox.waitForExit() == 0, "\(name): stderr \(sandbox.stderr)")
        #expect(sandbox.stderr.contains("stopping (closing every connection with 4200)"))
    }
}

/// A child process whose stdout is read line by line, with deadlines.
final class ChildProcess: @unchecked Sendable {
    private let process = Process()
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()

    /// Starts `executable`; `environment` entries are added to this process's environment.
    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Each pipe is read by a thread of its own with plain blocking reads, never through
        // `readabilityHandler`: that is a dispatch source, which needs its descriptor open until
        // its cancellation has run, and a freed handle closes it at once. With the pipe still held
        // elsewhere (Foundation's pipes are not close-on-exec, so another test's child may hold
        // it) dispatch's event loop can be left with an event for a freed source — a crash seen
        // once in the thread-sanitizer stage (SIGSEGV in `_dispatch_event_loop_drain`).
        Self.read(stdout.fileHandleForReading) { [weak self] data in self?.append(data, toErr: false) }
        Self.read(stderr.fileHandleForReading) { [weak self] data in self?.append(data, toErr: true) }
    }

    private func append(_ data: Data, toErr: Bool) {
        lock.lock()
        if toErr { err.append(data) } else { out.append(data) }
        lock.unlock()
    }

    /// Reads `handle` on a thread of its own until end of file, handing on each chunk.
    private static func read(_ handle: FileHandle, _ chunk: @escaping @Sendable (Data) -> Void) {
        let thread = Thread {
            while true {
                let data = handle.availableData
                if data.isEmpty { return }
                chunk(data)
            }
        }
        thread.start()
    }

    /// Complete stdout lines only: a line still being written (a peer printing unbuffered, as
    /// with PYTHONUNBUFFERED=1, writes `print`'s parts one by one) is not a line yet.
    var stdoutLines: [String] {
        lock.lock()
        defer { lock.unlock() }
        guard let lastNewline = out.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
        return String(decoding: out[..<lastNewline], as: UTF8.self).split(separator: "\n").map(String.init)
    }

    var stderr: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: err, as: UTF8.self)
    }

    /// The first stdout line matching `predicate`, waiting up to `seconds`.
    func waitForLine(seconds: Double = 20, _ predicate: (String) -> Bool) async -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let line = stdoutLines.first(where: predicate) { return line }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return stdoutLines.first(where: predicate)
    }

    /// The exit status, waiting up to `seconds` (nil: still running).
    func waitForExit(seconds: Double = 20) async -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// Sends `signal` to the child while it runs (never to pid 0, which would be this process group).
    func send(_ signal: Int32) {
        if process.isRunning, process.processIdentifier > 0 { Foundation.kill(process.processIdentifier, signal) }
    }

    /// Kills the process if it still runs (cleanup).
    func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    }

    /// `bird-sandbox` from the same build as the tests (or the package's debug build); nil with
    /// a recorded issue when it was not built.
    static func sandboxBinary(sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        if let path = PackagePaths.builtTool("bird-sandbox") { return path }
        Issue.record("bird-sandbox is not built: run swift build --build-tests first", sourceLocation: sourceLocation)
        return nil
    }
}
