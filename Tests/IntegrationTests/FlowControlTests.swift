@testable import BirdRealtime
import Foundation
import Testing
import TestSupport
@testable import WebSocket

/// Flow control from the handlers back to the socket (docs/ARCHITECTURE.md § Flow control): a
/// client slower than its feed stops reading, so TCP pushes back to the server instead of the
/// client's memory growing.
extension Integration {
    @Suite(.serialized) struct FlowControlTests {
        /// One `tick` event on the wire, about 250 bytes.
        static func tick(_ n: Int) -> String {
            let data = #"{"n":\#(n),"pad":"\#(String(repeating: "x", count: 180))"}"#
            let escaped = data.replacingOccurrences(of: "\"", with: "\\\"")
            return #"{"event":"tick","channel":"flood","data":"\#(escaped)"}"#
        }

        /// Runs `body` on a thread of its own (the flood server blocks) and returns its result.
        static func off<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
            await withCheckedContinuation { continuation in
                Thread { continuation.resume(returning: body()) }.start()
            }
        }

        /// A client subscribed to `flood` on a ``FloodServer``; its `tick` handler records each
        /// event's `n` and blocks on the first until `gate` is signalled.
        struct Rig {
            let server: FloodServer
            let client: ClientFixture
            let credit: InboundCredit
            let received: Box<[Int]>
            let gate: DispatchSemaphore
        }

        static func rig(sourceLocation: SourceLocation = #_sourceLocation) async throws -> Rig {
            let server = try FloodServer()
            let transports = Box<[WebSocketTransport]>([])
            let environment = RealtimeEnvironment(
                clock: SystemRealtimeClock(),
                makeTransport: { configuration, queue, onEvents in
                    let transport = WebSocketTransport(configuration: configuration, queue: queue, onEvents: onEvents)
                    transports.withLock { $0.append(transport) }
                    return transport
                }, http: WebSocketTransport.performHTTP)
            let client = ClientFixture(sandbox: nil, port: server.port, environment: environment) { options in
                options.activityTimeout = .seconds(120)
                options.pongTimeout = .seconds(30)
            }
            let gate = DispatchSemaphore(value: 0)
            let received = Box<[Int]>([])
            let flood = client.bird.subscribe("flood")
            flood.bind("tick") { data in
                let first = received.withLock { r -> Bool in
                    r.append(data?["n"]?.intValue ?? -1)
                    return r.count == 1
                }
                // The handler blocks on the first event until the test opens the gate.
                if first { _ = gate.wait(timeout: .now() + 120) }
            }

            let opened = await Self.off {
                guard server.accept(within: 15) else { return false }
                let established =
                    #"{"event":"bird:connection_established","data":"{\"connection_id\":\"1.1\",\"activity_timeout\":120}"}"#
                guard server.send(text: established, within: 15) else { return false }
                while let text = server.receiveText(within: 15) {
                    if text.contains("bird:subscribe") {
                        let ok = #"{"event":"bird_internal:subscription_succeeded","channel":"flood","data":"{}"}"#
                        return server.send(text: ok, within: 15)
                    }
                }
                return false
            }
            try #require(opened, "the client connected and asked to subscribe", sourceLocation: sourceLocation)
            try #require(await client.subscribed(["flood"]), sourceLocation: sourceLocation)
            let transport = try #require(transports.snapshot.last, sourceLocation: sourceLocation)
            return Rig(server: server, client: client, credit: transport.credit, received: received, gate: gate)

        }

        @Test(
            "a blocked handler stops the socket being read: the backlog stays bounded, the server's writes stall, every event arrives in order once it runs"
        )
        func blockedHandlerPushesBack() async throws {
            let rig = try await Self.rig()
            let (server, client, credit, received, gate) = (rig.server, rig.client, rig.credit, rig.received, rig.gate)
            defer { gate.signal() }

            // Far more than the high-water mark plus the kernel's socket buffers.
            let total = 100_000
            let stalledAt = await Self.off { () -> Int in
                for n in 0..<total where !server.send(text: Self.tick(n), within: 3) { return n }
                return total
            }
            #expect(stalledAt < total, "the server's writes stalled (the client stopped reading)")
            let sample = Self.tick(100_000)
            let frameBytes = sample.utf8.count + 4
            let oneRead = (256 * 1024 / frameBytes + 2) * InboundCredit.cost(ofText: sample)
            let bound = credit.highWater + oneRead
            #expect(credit.outstandingCost >= credit.highWater, "held back at the high-water mark")
            #expect(credit.peakCost <= bound, "the backlog stayed within the high-water mark and one read")
            #expect(received.snapshot.count == 1, "the handler is still blocked on the first event")

            gate.signal()
            let rest = await Self.off { () -> Bool in
                guard server.flush(within: 30) else { return false }
                for n in (stalledAt + 1)..<total where !server.send(text: Self.tick(n), within: 30) { return false }
                return true
            }
            #expect(
                rest,
                """
                the server's writes were taken again once the handler ran (stalled at \(stalledAt); \
                delivered \(received.snapshot.count), outstanding \(credit.outstandingCost))
                """)
            await eventually("all \(total) events delivered (have \(received.snapshot.count))", within: 120) {
                received.snapshot.count == total
            }
            #expect(received.snapshot == Array(0..<total), "every event, in order, none lost")
            #expect(credit.peakCost <= bound)
            await eventually("everything consumed gives the credit back") { credit.outstandingCost == 0 }
            await client.shutdown()
        }

        @Test(
            "closing while reads are held back: the close frame goes out and the connection ends by the close timeout")
        func closeWhileHeldBack() async throws {
            let rig = try await Self.rig()
            defer { rig.gate.signal() }
            let server = rig.server
            let stalledAt = await Self.off { () -> Int in
                for n in 0..<100_000 where !server.send(text: Self.tick(n), within: 3) { return n }
                return 100_000
            }
            try #require(stalledAt < 100_000, "the client stopped reading")
            rig.client.bird.disconnect()
            await eventually("disconnected while the handler is still blocked") {
                rig.client.bird.connectionState == .disconnected
            }
            let ended = await Self.off { server.closeFrameThenEOF(within: 30) }
            #expect(ended, "the client sent its close frame and then closed TCP")
            #expect(rig.received.snapshot.count == 1, "the handler was blocked throughout")
        }
    }
}
