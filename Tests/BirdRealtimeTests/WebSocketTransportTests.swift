import BirdRealtime
import Foundation
import Testing

/// The real transport against a peer we did not write (Python `websockets`), over loopback.
@Suite("WebSocketTransport over loopback (Python peer)", .serialized)
struct WebSocketTransportTests {
    static let edgeScript = #"""
        import asyncio, json, sys
        import websockets
        count = 0
        async def handler(ws):
            global count
            count += 1
            n = count
            await ws.send(json.dumps({"event": "bird:connection_established",
                                      "data": json.dumps({"connection_id": f"{n}.1", "activity_timeout": 120})}))
            async for msg in ws:
                m = json.loads(msg)
                if m.get("event") == "bird:subscribe":
                    ch = m["data"]["channel"]
                    await ws.send(json.dumps({"event": "bird_internal:subscription_succeeded", "channel": ch, "data": "{}"}))
                    await ws.send(json.dumps({"event": "hello", "channel": ch, "data": json.dumps({"n": n})}))
                    if n == 1:
                        await asyncio.sleep(0.1)
                        await ws.close(4200, "edge restarting")
        async def main():
            async with websockets.serve(handler, "127.0.0.1", 0) as server:
                port = server.sockets[0].getsockname()[1]
                print(f"PORT {port}", flush=True)
                await asyncio.sleep(30)
        asyncio.run(main())
        """#

    /// The venv interpreter: `BIRD_PYTHON`, else `<package root>/.venv/bin/python`.
    static func python() -> String? {
        if let env = ProcessInfo.processInfo.environment["BIRD_PYTHON"], !env.isEmpty { return env }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let path = root.appendingPathComponent(".venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    @Test("connects, subscribes, receives, reconnects at once after 4200, disconnects", .timeLimit(.minutes(1)))
    func roundTrip() async throws {
        guard let python = Self.python() else {
            Issue.record("Python venv missing: run Scripts/bootstrap (or set BIRD_PYTHON)")
            return
        }
        let peer = try PythonEdge(python: python, script: Self.edgeScript)
        defer { peer.stop() }
        let port = try #require(peer.port)

        let delivery = DispatchQueue(label: "transport.test")
        let bird = BirdRealtime(
            options: .init(appKey: "k", host: "127.0.0.1", port: port, allowInsecure: true, deliveryQueue: delivery))
        let changes = bird.states
        let channel = bird.subscribe("orders")
        var hellos = channel.events(named: "hello").makeAsyncIterator()
        let first = await hellos.next()
        #expect(first??["n"]?.intValue == 1)
        let second = await hellos.next()
        #expect(second??["n"]?.intValue == 2)
        #expect(bird.connectionId == "2.1")
        bird.disconnect()
        var seen: [StateChange] = []
        for await change in changes {
            seen.append(change)
            if change.current == .disconnected { break }
        }
        #expect(
            seen.contains {
                $0.cause == .serverClose(code: 4200, reason: "edge restarting") && $0.current == .connecting
            })
        #expect(!seen.contains { $0.current == .unavailable })
    }

    /// Reads one line from a pipe (the peer prints it at start); nil at end of file or when no
    /// line arrives within `deadline` seconds (a peer that hangs fails the test instead of hanging it).
    static func readLine(_ handle: FileHandle, deadline seconds: Double = 20) -> String? {
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

/// A Python edge script run in its own process; it prints `PORT n` once it listens.
final class PythonEdge {
    let process: Process
    private let script: URL
    /// The port the script printed, or nil when it printed none.
    let port: Int?

    init(python: String, script text: String) throws {
        script = FileManager.default.temporaryDirectory.appendingPathComponent("bird-edge-\(UUID().uuidString).py")
        try text.write(to: script, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        port = WebSocketTransportTests.readLine(output.fileHandleForReading)
            .flatMap { Int($0.dropFirst("PORT ".count)) }
    }

    /// Kills the process and removes the script.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: script)
    }
}
