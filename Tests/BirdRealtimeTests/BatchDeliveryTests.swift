import BirdRealtime
import Foundation
import Testing
import TestSupport

/// Socket reads that bring many messages are handled as one batch by the client and reach the
/// delivery queue in one hop: the order of events, errors and wire-tap entries must not change.
@Suite("Batched delivery over the real transport (Python peer)", .serialized)
struct BatchDeliveryTests {
    /// An edge that answers the subscription with a burst written in one go (one socket write of
    /// raw frames, so the client reads many messages at once): 300 events, a
    /// malformed message after the 100th, an error without a channel after the 200th.
    static let edgeScript = #"""
        import asyncio, json
        import websockets
        async def handler(ws):
            await ws.send(json.dumps({"event": "bird:connection_established",
                                      "data": json.dumps({"connection_id": "1.1", "activity_timeout": 120})}))
            async for msg in ws:
                m = json.loads(msg)
                if m.get("event") == "bird:subscribe":
                    ch = m["data"]["channel"]
                    out = [json.dumps({"event": "bird_internal:subscription_succeeded", "channel": ch, "data": "{}"})]
                    for i in range(300):
                        out.append(json.dumps({"event": "tick", "channel": ch, "data": json.dumps({"i": i, "s": "a\"b"})}))
                        if i == 99:
                            out.append("not json")
                        if i == 199:
                            out.append(json.dumps({"event": "bird:error", "data": {"code": 4301, "message": "late"}}))
                    frames = []
                    for text in out:  # unmasked server text frames, written in one go
                        data = text.encode()
                        n = len(data)
                        head = bytes([0x81, n]) if n < 126 else bytes([0x81, 126, n >> 8, n & 0xFF])
                        frames.append(head + data)
                    ws.transport.write(b"".join(frames))
        """# + "\n" + PythonEdge.serveHandler

    @Test(
        "events, errors and wire taps of one burst arrive in wire order on the delivery queue", .timeLimit(.minutes(1)))
    func burstOrder() async throws {
        guard let python = PythonPeer.interpreter() else { return }
        let peer = try PythonEdge(python: python, script: Self.edgeScript)
        defer { peer.stop() }
        let port = try #require(peer.port)

        let delivery = DispatchQueue(label: "batch.test")
        let key = DispatchSpecificKey<Bool>()
        delivery.setSpecific(key: key, value: true)
        let log = LogBox()
        let bird = BirdRealtime(
            options: .init(appKey: "k", host: "127.0.0.1", port: port, allowInsecure: true, deliveryQueue: delivery))
        bird.onError { error in
            log.append("error \(error.message.prefix(20))", onQueue: DispatchQueue.getSpecific(key: key) == true)
        }
        bird.onWireMessage { direction, text in
            if direction == .inbound, text.contains("\"tick\"") { log.countTap() }
        }
        let channel = bird.subscribe("feed")
        channel.bind("tick") { data in
            let i = data?["i"]?.intValue ?? -1
            let ok = data?["s"]?.stringValue == "a\"b"
            log.append(ok ? "tick \(i)" : "bad tick \(i)", onQueue: DispatchQueue.getSpecific(key: key) == true)
        }
        let done = await log.wait { $0.count >= 302 }
        #expect(done)
        let entries = log.entries
        var expected: [String] = []
        for i in 0..<300 {
            expected.append("tick \(i)")
            if i == 99 { expected.append("error ignored a message: m") }
            if i == 199 { expected.append("error late") }
        }
        #expect(entries == expected)
        #expect(log.offQueue == 0)
        #expect(await log.wait { _ in log.taps == 300 })
        bird.disconnect()
    }
}

/// Collects what handlers saw, from any thread.
final class LogBox: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    private var wrongQueue = 0
    private var tapCount = 0

    func append(_ entry: String, onQueue: Bool) {
        lock.lock()
        items.append(entry)
        if !onQueue { wrongQueue += 1 }
        lock.unlock()
    }

    func countTap() {
        lock.lock()
        tapCount += 1
        lock.unlock()
    }

    var entries: [String] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }

    var offQueue: Int {
        lock.lock()
        defer { lock.unlock() }
        return wrongQueue
    }

    var taps: Int {
        lock.lock()
        defer { lock.unlock() }
        return tapCount
    }

    /// Waits up to 20 s for `condition` on the entries.
    func wait(_ condition: ([String]) -> Bool) async -> Bool {
        for _ in 0..<2000 {
            if condition(entries) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition(entries)
    }
}
