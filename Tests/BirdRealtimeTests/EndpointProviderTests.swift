import BirdRealtime
import BirdRealtimeTestSupport
import Foundation
import Testing
import TestSupport

struct DirectoryError: Error, CustomStringConvertible {
    var description: String { "directory answered 503" }
}

@Suite("Endpoint and handshake headers providers (manual clock, scripted transport)")
struct EndpointProviderTests {
    /// A harness (network not watched) with `configure` applied, recording endpoint resolutions.
    static func harness(
        _ configure: @escaping (inout BirdRealtime.Options) -> Void
    ) -> (Harness, TestBox<[EndpointResolution]>) {
        let h = Harness { options in
            options.networkMonitor = .disabled
            configure(&options)
        }
        let seen = TestBox<[EndpointResolution]>([])
        h.bird.onEndpointResolution { resolution in seen.mutate { $0.append(resolution) } }
        return (h, seen)
    }

    @Test("asked before every attempt; the socket goes where it says; resolving → resolved is published")
    func askedPerAttempt() async throws {
        let asked = TestBox(0)
        let (h, seen) = Self.harness { options in
            options.endpointProvider = {
                asked.mutate { $0 += 1 }
                let n = asked.get
                return RealtimeEndpoint(host: "edge-\(n).example", port: 7000 + n)
            }
        }
        await h.waitUntil({ h.transport.count == 1 }, what: "the first socket")
        let first = try h.socket.configuration.url.absoluteString
        #expect(first.hasPrefix("wss://edge-1.example:7001/app/k?protocol=7"))
        #expect(h.bird.resolvedEndpoint == RealtimeEndpoint(host: "edge-1.example", port: 7001))
        try h.socket.networkFailure()
        await h.advance(.seconds(1))
        await h.waitUntil({ h.transport.count == 2 }, what: "the second socket")
        #expect(try h.socket.configuration.url.absoluteString.hasPrefix("wss://edge-2.example:7002/"))
        #expect(asked.get == 2)
        #expect(seen.get.first == .resolving)
        #expect(
            seen.get.contains(
                .resolved(endpoint: RealtimeEndpoint(host: "edge-1.example", port: 7001), url: first, headerNames: [])))
        #expect(h.recorder.states.filter { $0 == .connecting }.count == 2)
    }

    @Test(
        "a provider that never answers: connecting, then after endpointTimeout the backoff path naming it; its late answer is ignored"
    )
    func hangs() async throws {
        let gate = Gate()
        let asked = TestBox(0)
        let (h, seen) = Self.harness { options in
            options.endpointProvider = {
                asked.mutate { $0 += 1 }
                await gate.wait()
                return RealtimeEndpoint(host: "edge.example")
            }
        }
        await h.waitUntil({ asked.get == 1 }, what: "the provider was asked")
        #expect(h.bird.connectionState == .connecting)
        await h.advance(.seconds(9))
        #expect(h.bird.connectionState == .connecting)
        await h.advance(.seconds(1))
        let reason = "endpoint provider did not answer within 10 s"
        #expect(
            h.recorder.changes.last
                == StateChange(previous: .connecting, current: .unavailable, cause: .endpointUnavailable(reason)))
        #expect(h.recorder.retries.last?.cause == .endpointUnavailable(reason))
        #expect(seen.get == [.resolving, .failed(reason)])
        #expect(h.transport.count == 0)
        gate.open()
        await h.settle()
        #expect(h.transport.count == 0, "the abandoned attempt's answer opens nothing")
        await h.advance(.seconds(1))
        await h.waitUntil({ h.transport.count == 1 }, what: "the retry's socket")
        #expect(asked.get == 2)
    }

    @Test("a provider that throws: the backoff path with its error in the cause")
    func throwsError() async throws {
        let (h, _) = Self.harness { options in
            options.endpointProvider = { throw DirectoryError() }
        }
        await h.waitUntil({ h.bird.connectionState == .unavailable }, what: "unavailable")
        #expect(
            h.recorder.changes.last?.cause == .endpointUnavailable("endpoint provider failed: directory answered 503"))
        #expect(h.bird.nextAttemptAt != nil)
        #expect(h.transport.count == 0)
    }

    @Test("answers the security rules refuse: RealtimeError .endpoint, the backoff path, no socket")
    func refused() async throws {
        let cases: [(RealtimeEndpoint, Bool, String)] = [
            (RealtimeEndpoint(host: "edge.example", useTLS: false), true, "allowInsecure is honoured only for"),
            (RealtimeEndpoint(host: "127.0.0.1", useTLS: false), false, "allowInsecure is off"),
            (RealtimeEndpoint(host: "evil.example/x?y"), true, "is not a host name or address"),
            (RealtimeEndpoint(host: "edge.example", port: 70000), true, "port 70000 is out of range"),
            (RealtimeEndpoint(host: ""), true, "host is empty"),
        ]
        for (endpoint, allowInsecure, message) in cases {
            let (h, _) = Self.harness { options in
                options.allowInsecure = allowInsecure
                options.endpointProvider = { endpoint }
            }
            await h.waitUntil({ h.bird.connectionState == .unavailable }, what: "unavailable for \(endpoint)")
            #expect(h.transport.count == 0, "\(endpoint)")
            let error = h.recorder.errors.last
            #expect(error?.kind == .endpoint, "\(endpoint)")
            #expect(error?.message.contains(message) == true, "\(endpoint): \(error?.message ?? "no error")")
            guard case .endpointUnavailable(let reason)? = h.recorder.changes.last?.cause else {
                Issue.record("cause for \(endpoint): \(String(describing: h.recorder.changes.last))")
                continue
            }
            #expect(reason.hasPrefix("answer refused: ") && reason.contains(message))
            #expect(h.recorder.retries.count == 1, "backoff, not failed")
        }
    }

    @Test("a plain ws:// answer to loopback with allowInsecure is accepted")
    func plainLoopback() async throws {
        let (h, _) = Self.harness { options in
            options.endpointProvider = { BirdRealtime.Endpoint(host: "::1", port: 6001, useTLS: false) }
        }
        await h.waitUntil({ h.transport.count == 1 }, what: "a socket")
        #expect(try h.socket.configuration.url.absoluteString.hasPrefix("ws://[::1]:6001/app/k?"))
    }

    @Test("handshake headers: fresh per connection, on the upgrade request, values never in logs, taps or reports")
    func headers() async throws {
        let asked = TestBox(0)
        let (h, seen) = Self.harness { options in
            options.handshakeHeadersProvider = {
                asked.mutate { $0 += 1 }
                let n = asked.get
                return ["Authorization": "Bearer s3cr3t-token-\(n)", "X-Device": "d-\(n)"]
            }
        }
        await h.waitUntil({ h.transport.count == 1 }, what: "the first socket")
        #expect(try h.socket.configuration.headers["Authorization"] == "Bearer s3cr3t-token-1")
        #expect(try h.socket.configuration.url.absoluteString.hasPrefix("ws://127.0.0.1/app/k?"), "static endpoint")
        #expect(!(try h.socket.configuration.description.contains("s3cr3t")))
        try await h.connect()
        try h.socket.networkFailure()
        await h.advance(.seconds(1))
        await h.waitUntil({ h.transport.count == 2 }, what: "the second socket")
        #expect(try h.socket.configuration.headers["Authorization"] == "Bearer s3cr3t-token-2")
        let everything =
            h.recorder.logs.map(\.1).joined(separator: "\n") + h.recorder.wire.map(\.1).joined(separator: "\n")
            + seen.get.map(\.description).joined(separator: "\n")
            + h.recorder.changes.map(\.description).joined(separator: "\n")
        #expect(!everything.contains("s3cr3t"))
        #expect(h.recorder.logs.contains { $0.1.contains("handshake headers: Authorization, X-Device") })
        guard case .resolved(_, _, let names)? = seen.get.last else {
            Issue.record("no resolution reported")
            return
        }
        #expect(names == ["Authorization", "X-Device"])
    }

    @Test("handshake headers the rules refuse: RealtimeError .endpoint naming the header (never its value), backoff")
    func headersRefused() async throws {
        let cases: [([String: String], String)] = [
            (["Sec-WebSocket-Key": "x"], "Sec-WebSocket-Key is set by the client itself"),
            (["Host": "other"], "Host is set by the client itself"),
            (["X-Token": "s3cr3t\r\nInjected: 1"], "X-Token has a control character"),
            (["Bad Name": "v"], "is not an HTTP token"),
            (["x-token": "s3cr3t", "X-Token": "s3cr3t"], "given twice"),
            (["X-Big": String(repeating: "s", count: 9000)], "exceed 8192 bytes"),
        ]
        for (headers, message) in cases {
            let (h, _) = Self.harness { options in options.handshakeHeadersProvider = { headers } }
            await h.waitUntil({ h.bird.connectionState == .unavailable }, what: "unavailable for \(message)")
            #expect(h.transport.count == 0)
            let error = h.recorder.errors.last
            #expect(error?.kind == .endpoint)
            #expect(error?.message.contains(message) == true, "\(error?.message ?? "no error")")
            #expect(error?.message.contains("s3cr3t") == false)
        }
    }

    @Test("a headers provider that hangs is named in the cause")
    func headersHang() async throws {
        let gate = Gate()
        let headersAsked = TestBox(false)
        let (h, _) = Self.harness { options in
            options.endpointTimeout = .seconds(2)
            options.endpointProvider = { RealtimeEndpoint(host: "edge.example") }
            options.handshakeHeadersProvider = {
                headersAsked.mutate { $0 = true }
                await gate.wait()
                return [:]
            }
        }
        await h.waitUntil({ headersAsked.get }, what: "the headers provider was asked")
        await h.advance(.seconds(2))
        #expect(
            h.recorder.changes.last?.cause
                == .endpointUnavailable("handshake headers provider did not answer within 2 s"))
        gate.open()
    }

    @Test("disconnect() or a lost network while resolving abandons the attempt; the late answer opens nothing")
    func abandoned() async throws {
        let gate = Gate()
        let asked = TestBox(0)
        let monitor = ManualNetworkPathMonitor()
        let h = Harness { options in
            options.networkMonitor = .custom(monitor)
            options.endpointProvider = {
                asked.mutate { $0 += 1 }
                await gate.wait()
                return RealtimeEndpoint(host: "edge.example")
            }
        }
        await h.waitUntil({ asked.get == 1 }, what: "the provider was asked")
        monitor.loseNetwork()
        await h.settle()
        #expect(h.recorder.changes.last?.cause == .networkUnavailable("no default route"))
        monitor.restoreNetwork()
        await h.waitUntil({ asked.get == 2 }, what: "asked again when the network returned")
        h.bird.disconnect()
        await h.settle()
        #expect(h.bird.connectionState == .disconnected)
        gate.open()
        await h.settle()
        await h.advance(.seconds(60))
        #expect(h.transport.count == 0)
        #expect(h.bird.connectionState == .disconnected)
    }
}
