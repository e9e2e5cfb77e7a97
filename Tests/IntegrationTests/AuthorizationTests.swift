import BirdRealtime
import BirdRealtimeTestSupport
import BirdWire
import Foundation
import Testing

/// docs/PROTOCOL.md § Errors: a failing auth endpoint fails that channel only, with the endpoint and the
/// HTTP status, and the channel recovers on the next connection once the endpoint works.
extension Integration {
    @Suite(.serialized) struct AuthorizationTests {
        /// The `bird:subscription_error` payloads delivered to `channel` since `mark`.
        static func subscriptionErrors(
            _ recorder: ClientRecorder, _ channel: String, since mark: ClientRecorder.Mark = .init()
        )
            -> [JSONValue]
        {
            recorder.events("bird:subscription_error", on: channel, since: mark).compactMap(\.data)
        }

        @Test("the sandbox's auth endpoint answers an HTTP error for one channel", arguments: [403, 500])
        func endpointStatus(status: Int) async throws {
            let sandbox = try SandboxFixture()
            defer { sandbox.stop() }
            sandbox.sandbox.setAuthFailure(status: status, prefix: "private-failing")
            let client = ClientFixture(sandbox: sandbox)
            let recorder = client.recorder
            let healthy = ["news", "private-steady", "presence-room"]
            for name in healthy + ["private-failing"] { client.bird.subscribe(name) }
            guard let id = await client.connected() else { return }
            await eventually("subscription_error on private-failing") {
                !Self.subscriptionErrors(recorder, "private-failing").isEmpty
            }
            await client.subscribed(healthy)
            let error = Self.subscriptionErrors(recorder, "private-failing").first
            #expect(error?["type"] == "AuthError")
            #expect(error?["status"]?.intValue == status)
            #expect(error?["endpoint"]?.stringValue == sandbox.authURL().absoluteString)
            #expect(client.bird.channel(named: "private-failing")?.subscribed == false)
            for name in healthy {
                #expect(Self.subscriptionErrors(recorder, name).isEmpty, "\(name) is unaffected")
            }
            #expect(recorder.errors.isEmpty, "an auth failure is the channel's, not onError: \(recorder.errors)")
            #expect(sandbox.connection(id)?.channels.contains("private-failing") == false)

            // The endpoint works again: the channel recovers on the next connection.
            sandbox.sandbox.clearAuthFailure()
            #expect(sandbox.sandbox.closeConnection(id: id, code: 4200, reason: "recover"))
            guard let second = await client.connected(other: id) else { return }
            await client.subscribed(healthy + ["private-failing"])
            await eventually("every channel subscribed on the sandbox") {
                Set(sandbox.connection(second)?.channels ?? []) == Set(healthy + ["private-failing"])
            }
            await client.shutdown()
        }

        enum Failure: String, CaseIterable, Sendable { case down, nonJSON, timeout }

        @Test("an auth endpoint that is down, answers non-JSON, or never answers", arguments: Failure.allCases)
        func misbehavingEndpoint(failure: Failure) async throws {
            let sandbox = try SandboxFixture()
            defer { sandbox.stop() }
            let endpoint = try AuthServer()
            defer { endpoint.stop() }
            switch failure {
            case .down: endpoint.goDown()
            case .nonJSON: endpoint.mode = .nonJSON(prefix: "private-flaky")
            case .timeout: endpoint.mode = .silent(prefix: "private-flaky")
            }
            let client = ClientFixture(sandbox: sandbox) { o in
                o.authEndpoint = endpoint.url
                o.subscribeTimeout = .seconds(2)
            }
            let recorder = client.recorder
            // When the endpoint is down every private channel fails; otherwise only private-flaky.
            let failing = failure == .down ? ["private-flaky", "private-steady"] : ["private-flaky"]
            let healthy = failure == .down ? ["news"] : ["news", "private-steady"]
            for name in healthy + failing { client.bird.subscribe(name) }
            guard let id = await client.connected() else { return }
            await eventually("subscription_error on \(failing)") {
                failing.allSatisfy { !Self.subscriptionErrors(recorder, $0).isEmpty }
            }
            await client.subscribed(healthy)
            for name in failing {
                let error = Self.subscriptionErrors(recorder, name).first
                #expect(error?["type"] == "AuthError", "\(name): \(String(describing: error))")
                #expect(
                    error?["status"]?.intValue == (failure == .nonJSON ? 200 : 0),
                    "\(name): \(String(describing: error))")
                #expect(error?["endpoint"]?.stringValue == endpoint.url.absoluteString)
                #expect(client.bird.channel(named: name)?.subscribed == false)
            }
            for name in healthy {
                #expect(Self.subscriptionErrors(recorder, name).isEmpty, "\(name) is unaffected")
            }
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
            #expect(client.state == .connected)
            #expect(client.bird.connectionId == id, "an auth failure does not cost the connection")

            // Recovery on the next connection.
            if failure == .down { try endpoint.comeBack() }
            endpoint.mode = .ok
            #expect(sandbox.sandbox.closeConnection(id: id, code: 4200, reason: "recover"))
            guard let second = await client.connected(other: id) else { return }
            await client.subscribed(healthy + failing)
            await eventually("every channel subscribed on the sandbox") {
                Set(sandbox.connection(second)?.channels ?? []) == Set(healthy + failing)
            }
            await client.shutdown()
        }
    }
}
