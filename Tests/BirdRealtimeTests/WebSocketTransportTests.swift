import BirdRealtime
import Foundation
import Testing
import TestSupport

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
        """# + "\n" + PythonEdge.serveHandler

    @Test("connects, subscribes, receives, reconnects at once after 4200, disconnects", .timeLimit(.minutes(1)))
    func roundTrip() async throws {
        guard let python = PythonPeer.interpreter() else { return }
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
}
