import BirdRealtime
import BirdWire
import Foundation
import Testing
import TestSupport

/// docs/PROTOCOL.md § Liveness over a real socket: `ping(timeout:)` against the sandbox, which
/// answers `bird:ping` with `bird:pong`.
extension Integration {
    @Suite(.serialized) struct RoundTripIntegrationTests {
        @Test("ping() against the sandbox returns the round-trip time; lastRoundTrip and onRoundTrip agree")
        func pingTheSandbox() async throws {
            let sandbox = try SandboxFixture()
            defer { sandbox.stop() }
            let client = ClientFixture(sandbox: sandbox)
            let seen = Box<[Duration]>([])
            client.bird.onRoundTrip { rtt in seen.withLock { $0.append(rtt) } }
            guard await client.connected() != nil else { return }
            let mark = client.recorder.mark
            // Functional bound only: a loaded machine may be slow, never timed.
            let rtt = try await client.bird.ping(timeout: .seconds(10))
            #expect(rtt > .zero && rtt < .seconds(10))
            #expect(client.bird.lastRoundTrip == rtt)
            await client.bird.settle()
            #expect(seen.snapshot.contains(rtt))
            let wire = client.recorder.wire(since: mark).compactMap { entry in
                (try? WireMessage.decode(entry.1)).map { (entry.0, $0.event) }
            }
            #expect(wire.contains { $0 == (.outbound, "bird:ping") }, "\(wire)")
            #expect(wire.contains { $0 == (.inbound, "bird:pong") }, "\(wire)")
            await client.shutdown()
        }
    }
}
