import BirdRealtime
import Foundation
import Testing
import TestSupport
import WebSocket

/// Issue 15 item 3 against real sockets: an endpoint provider asked before every attempt, one
/// that hangs, and handshake headers on the real upgrade request.
extension Integration {
    @Suite(.serialized) struct EndpointProviderIntegrationTests {
        @Test(
            "a provider that hangs: connecting, then unavailable with the cause naming it (nothing reaches the edge); once it answers, connected to the sandbox it named"
        )
        func hangingProvider() async throws {
            let sandbox = try SandboxFixture()
            defer { sandbox.stop() }
            let gate = Gate()
            defer { gate.open() }
            let answering = Box(false)
            let asked = Box(0)
            let port = sandbox.port
            let client = ClientFixture(sandbox: sandbox, port: 1) { options in
                options.endpointTimeout = .seconds(1)
                options.endpointProvider = {
                    asked.withLock { $0 += 1 }
                    if !answering.snapshot { await gate.wait() }
                    return RealtimeEndpoint(host: "127.0.0.1", port: port, useTLS: false)
                }
            }
            let reason = "endpoint provider did not answer within 1 s"
            let sawCause = await eventually("unavailable with the provider's cause; changes \(client.recorder.changes)")
            {
                client.recorder.changes.contains {
                    $0.previous == .connecting && $0.current == .unavailable && $0.cause == .endpointUnavailable(reason)
                }
            }
            #expect(sawCause)
            #expect(client.recorder.retries.contains { $0.cause == .endpointUnavailable(reason) })
            #expect(sandbox.sandbox.connections().isEmpty)
            #expect(!sandbox.logLines.snapshot.contains { $0.hasPrefix("open ") }, "no socket reached the edge")
            #expect(!client.recorder.states.contains(.connected))

            answering.withLock { $0 = true }
            let id = await client.connected()
            #expect(id != nil)
            #expect(client.bird.resolvedEndpoint == RealtimeEndpoint(host: "127.0.0.1", port: port, useTLS: false))
            #expect(asked.snapshot >= 2)
            await client.shutdown()
        }

        @Test("handshake headers reach the real upgrade request, fresh per connection attempt, never in the log")
        func headersOnTheWire() async throws {
            let seen = Box<[String]>([])
            let server = WebSocketServer(
                configuration: .init(host: "127.0.0.1", port: 0), queue: DispatchQueue(label: "integration.upgrade"))
            server.shouldUpgrade = { request in
                seen.withLock { $0.append(request.headers["Authorization"] ?? "none") }
                return HTTPResponse.json(401, "{\"error\":\"token checked, refused on purpose\"}")
            }
            try server.start()
            defer { server.stop() }
            let asked = Box(0)
            let client = ClientFixture(sandbox: nil, port: server.port) { options in
                options.handshakeHeadersProvider = {
                    let n = asked.withLock { value -> Int in
                        value += 1
                        return value
                    }
                    return ["Authorization": "Bearer tok-s3cr3t-\(n)"]
                }
            }
            await eventually("two upgrade requests; seen \(seen.snapshot)") { seen.snapshot.count >= 2 }
            #expect(Array(seen.snapshot.prefix(2)) == ["Bearer tok-s3cr3t-1", "Bearer tok-s3cr3t-2"])
            #expect(!client.recorder.logs.contains { $0.1.contains("s3cr3t") })
            #expect(client.recorder.logs.contains { $0.1.contains("handshake headers: Authorization") })
            await client.shutdown()
        }
    }
}
