import Foundation
import Testing
import TestSupport

/// Paths and processes for the Python peers (websockets from the project's .venv).
enum Peers {
    static let scriptsDirectory = PackagePaths.root.appendingPathComponent("Tests/WebSocketTests/Peers")
}

/// A subprocess whose stdout is collected line by line.
final class PeerProcess: @unchecked Sendable {
    let process = Process()
    private let lock = NSLock()
    private var output = Data()
    private var stderrData = Data()
    private var stdoutEnded = false

    init(executable: String, arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        Self.pump(
            out.fileHandleForReading,
            { [weak self] data in
                guard let self else { return }
                self.lock.lock()
                self.output.append(data)
                self.lock.unlock()
            },
            atEnd: { [weak self] in
                guard let self else { return }
                self.lock.lock()
                self.stdoutEnded = true
                self.lock.unlock()
            })
        Self.pump(
            err.fileHandleForReading,
            { [weak self] data in
                guard let self else { return }
                self.lock.lock()
                self.stderrData.append(data)
                self.lock.unlock()
            }, atEnd: {})
        try process.run()
    }

    /// Reads `handle` on its own thread until EOF, then calls `atEnd`.
    private static func pump(
        _ handle: FileHandle, _ sink: @escaping @Sendable (Data) -> Void, atEnd: @escaping @Sendable () -> Void
    ) {
        let fd = handle.fileDescriptor
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = read(fd, &buffer, buffer.count)
                if n <= 0 { break }
                sink(Data(buffer[0..<n]))
            }
            _ = handle  // keep the handle (and its descriptor) open while reading
            atEnd()
        }
        thread.start()
    }

    var stdout: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: output, as: UTF8.self)
    }

    /// Whether everything the process wrote to stdout has been read (EOF seen).
    var stdoutComplete: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stdoutEnded
    }

    var stderr: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: stderrData, as: UTF8.self)
    }

    /// The lines of `text` that are complete (end with a newline): a peer printing unbuffered
    /// writes a line in parts, and a part is not the line.
    static func completeLines(_ text: String) -> [Substring] {
        guard let last = text.lastIndex(of: "\n") else { return [] }
        return text[..<last].split(separator: "\n")
    }

    /// Waits for a line starting with `prefix`; returns the rest of the line.
    func waitForLine(prefix: String, seconds: Double = 15) async -> String? {
        var found: String?
        _ = await eventually(seconds: seconds) {
            for line in Self.completeLines(stdout) where line.hasPrefix(prefix) {
                found = String(line.dropFirst(prefix.count))
                return true
            }
            return !process.isRunning
        }
        if found == nil {
            for line in Self.completeLines(stdout) where line.hasPrefix(prefix) {
                found = String(line.dropFirst(prefix.count))
            }
        }
        return found
    }

    /// Waits for the process to exit and its stdout to be read to the end; returns its stdout.
    func waitForExit(seconds: Double = 30) async -> String {
        _ = await eventually(seconds: seconds) { !process.isRunning && stdoutComplete }
        return stdout
    }

    /// Kills the process (SIGKILL: a child may inherit a blocked SIGTERM) and reaps it.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// A Python `websockets` server from Peers/ws_server.py.
final class PythonServer {
    let peer: PeerProcess
    let port: Int

    init?(tls: (cert: String, key: String)? = nil) async throws {
        guard let python = PythonPeer.interpreter() else { return nil }
        var args = [Peers.scriptsDirectory.appendingPathComponent("ws_server.py").path]
        if let tls { args += ["--tls", tls.cert, tls.key] }
        peer = try PeerProcess(executable: python, arguments: args)
        guard let portText = await peer.waitForLine(prefix: "PORT "), let port = Int(portText) else {
            Issue.record("python server did not start: \(peer.stderr)")
            peer.stop()
            return nil
        }
        self.port = port
    }

    func stop() { peer.stop() }
}

/// Runs Peers/ws_client.py against `url`; returns its JSON result.
func runPythonClient(url: String, scenario: String, extra: [String] = []) async throws -> [String: Any]? {
    guard let python = PythonPeer.interpreter() else { return nil }
    let peer = try PeerProcess(
        executable: python,
        arguments: [Peers.scriptsDirectory.appendingPathComponent("ws_client.py").path, url, scenario] + extra)
    let out = await peer.waitForExit(seconds: 40)
    peer.stop()
    guard let line = out.split(separator: "\n").last,
        let json = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    else {
        Issue.record("python client produced no result; stderr: \(peer.stderr.suffix(2000))")
        return nil
    }
    return json
}
