import BirdRealtime
import BirdRealtimeTestSupport
import BirdSandbox
import Foundation
import Testing
import TestSupport

/// docs/PROTOCOL.md § Reconnection over real loopback sockets: what the client does after each way a socket ends.
/// Immediate retry and backoff are told apart by the state sequence and the `connecting_in`
/// events, never by elapsed time.
extension Integration {
    @Suite(.serialized) struct CloseCodeMatrixTests {
        enum Retry: String { case none, immediate, backoff }

        /// The table of docs/PROTOCOL.md § Reconnection for a close sent by the server after the handshake.
        static func expectedRetry(_ code: Int) -> Retry {
            switch code {
            case 4000...4099: return .none
            case 4200...4299: return .immediate
            default: return .backoff
            }
        }

        static let codes = [
            1000, 1001, 1006, 1011, 1012, 4000, 4001, 4009, 4099, 4100, 4199, 4200, 4201, 4299, 4300, 4999,
        ]

        @Test("a close from the server after the handshake", arguments: codes)
        func closeAfterHandshake(code: Int) async throws {
            let sandbox = try SandboxFixture()
            defer { sandbox.stop() }
            let client = ClientFixture(sandbox: sandbox)
            let recorder = client.recorder
            guard let firstId = await client.connected() else { return }
            await client.bird.settle()
            let mark = recorder.mark
            let reason = "matrix \(code)"
            if code == 1006 {
                #expect(sandbox.sandbox.drop(id: firstId))
            } else {
                #expect(sandbox.sandbox.closeConnection(id: firstId, code: code, reason: reason))
            }

            switch Self.expectedRetry(code) {
            case .none:
                await eventually("failed after \(code)") { client.state == .failed }
                await client.bird.settle()
                let changes = recorder.changes(since: mark)
                #expect(changes.map(\.current) == [.failed], "states after \(code): \(changes)")
                #expect(changes.first?.previous == .connected)
                #expect(changes.first?.cause == .serverClose(code: code, reason: reason))
                let errors = recorder.errors(since: mark)
                #expect(errors.count == 1, "onError after \(code): \(errors)")
                #expect(errors.first?.kind == .refused)
                #expect(errors.first?.code == code)
                #expect(errors.first?.reason == reason)
                #expect(recorder.retries(since: mark).isEmpty, "no connecting_in after a refusal")
                #expect(client.bird.nextAttemptAt == nil)
                await eventually("the sandbox has no connection left") { sandbox.sandbox.connections().isEmpty }
                #expect(client.state == .failed, "nothing reopens a refused connection")

            case .immediate:
                guard let secondId = await client.connected(other: firstId) else { return }
                await client.bird.settle()
                let changes = recorder.changes(since: mark)
                #expect(changes.map(\.current) == [.connecting, .connected], "states after \(code): \(changes)")
                #expect(changes.first?.cause == .serverClose(code: code, reason: reason))
                #expect(changes.last?.connectionId == secondId)
                #expect(recorder.retries(since: mark).isEmpty, "an immediate reconnect publishes no connecting_in")
                #expect(recorder.errors(since: mark).isEmpty, "a retry-band close is not an onError")

            case .backoff:
                guard let secondId = await client.connected(other: firstId) else { return }
                await client.bird.settle()
                let changes = recorder.changes(since: mark)
                #expect(
                    changes.map(\.current) == [.unavailable, .connecting, .connected],
                    "states after \(code): \(changes)")
                let cause = changes.first?.cause
                if code == 1006 {
                    guard case .networkError? = cause else {
                        Issue.record("a TCP drop's cause should be a network error, got \(String(describing: cause))")
                        return
                    }
                } else {
                    #expect(cause == .serverClose(code: code, reason: reason))
                }
                #expect(changes.dropFirst().first?.cause == .retry(attempt: 0))
                #expect(changes.last?.connectionId == secondId)
                let retries = recorder.retries(since: mark)
                #expect(retries.map(\.attempt) == [0], "one connecting_in, attempt 0: \(retries)")
                #expect(retries.first?.cause == cause)
                #expect(recorder.errors(since: mark).isEmpty, "a retry-band close is not an onError")
            }
            await client.shutdown()
        }

        @Test("States: observers registered right after init see the first transition and its error")
        func observersSeeFirstTransition() async throws {
            // A configuration the client refuses at once (allowInsecure off loopback): the first
            // transition is initialized → failed, with an onError. No socket is involved.
            var missed: [String] = []
            for round in 0..<30 {
                let delivery = DispatchQueue(label: "integration.b1.\(round)")
                var options = BirdRealtime.Options(
                    appKey: "k", host: "example.com", allowInsecure: true,
                    deliveryQueue: delivery)
                options.logHandler = nil
                let bird = BirdRealtime(
                    options: options, environment: ScriptedTransport().environment(clock: ManualClock()))
                let recorder = ClientRecorder()
                recorder.attach(to: bird)
                await bird.settle()
                let changes = recorder.changes
                if changes.map(\.current) != [.failed] || changes.first?.previous != .initialized
                    || recorder.errors.map(\.kind) != [.configuration]
                {
                    missed.append("round \(round): changes \(changes), errors \(recorder.errors.map(\.kind))")
                }
            }
            #expect(missed.isEmpty, "\(missed.count) of 30 clients missed their first transition: \(missed.prefix(3))")
        }

        @Test("4200 before the handshake takes the backoff path; attempts grow, then reset")
        func refusedBeforeHandshake() async throws {
            let sandbox = try SandboxFixture()
            defer { sandbox.stop() }
            sandbox.sandbox.refuse(code: 4200, reason: "edge restarting", seconds: nil)
            let client = ClientFixture(sandbox: sandbox)
            let recorder = client.recorder
            await eventually("three connecting_in while refused") { recorder.retries.count >= 3 }
            sandbox.sandbox.acceptConnections()
            guard let id = await client.connected() else { return }
            await client.bird.settle()

            let changes = recorder.changes
            let refusals = changes.filter { $0.cause == .serverClose(code: 4200, reason: "edge restarting") }
            #expect(refusals.count >= 3)
            #expect(
                refusals.allSatisfy { $0.previous == .connecting && $0.current == .unavailable },
                "a pre-handshake 4200 must go to unavailable: \(refusals)")
            #expect(
                !changes.contains { $0.previous == .connecting && $0.current == .connecting },
                "no tight connecting → connecting loop")
            let attempts = recorder.retries.map(\.attempt)
            #expect(attempts == Array(0..<attempts.count), "attempts count up from 0: \(attempts)")
            #expect(recorder.errors.isEmpty, "4200 is not a refusal: \(recorder.errors)")

            // A successful handshake resets the attempt counter.
            let mark = recorder.mark
            #expect(sandbox.sandbox.drop(id: id))
            _ = await client.connected(other: id)
            #expect(recorder.retries(since: mark).map(\.attempt) == [0])
            await client.shutdown()
        }

        @Test("a handshake without a connection id: onError, then backoff")
        func handshakeWithoutId() async throws {
            let sandbox = try SandboxFixture()
            defer { sandbox.stop() }
            sandbox.sandbox.omitHandshakeId(count: 1)
            let client = ClientFixture(sandbox: sandbox)
            let recorder = client.recorder
            guard await client.connected() != nil else { return }
            await client.bird.settle()
            let changes = recorder.changesAfterStart
            #expect(changes.map(\.current) == [.unavailable, .connecting, .connected], "\(changes)")
            #expect(changes.first?.previous == .connecting)
            #expect(changes.first?.cause == .handshakeWithoutId)
            #expect(recorder.retries.map(\.attempt) == [0])
            #expect(recorder.retries.first?.cause == .handshakeWithoutId)
            let errors = recorder.errors
            #expect(errors.count == 1, "\(errors)")
            #expect(errors.first?.kind == .handshakeWithoutId)
            #expect(errors.first?.code == 1002)
            await client.shutdown()
        }

        @Test("a refused TCP connect takes the backoff path")
        func refusedTCPConnect() async throws {
            let client = ClientFixture(sandbox: nil, port: closedPort())
            let recorder = client.recorder
            await eventually("two connecting_in") { recorder.retries.count >= 2 }
            await client.shutdown()
            let changes = recorder.changesAfterStart
            #expect(Array(changes.map(\.current).prefix(3)) == [.unavailable, .connecting, .unavailable], "\(changes)")
            guard case .networkError(let message)? = changes.first?.cause else {
                Issue.record("a refused connect should be a network error: \(changes)")
                return
            }
            #expect(!message.isEmpty)
            #expect(Array(recorder.retries.map(\.attempt).prefix(2)) == [0, 1])
            #expect(!recorder.states.contains(.connected))
            #expect(!recorder.states.contains(.failed))
        }

        @Test("a TLS failure (self-signed CA the client does not trust) takes the backoff path")
        func tlsFailure() async throws {
            let certificates = try TestCertificates.make(dnsName: "localhost")
            defer { certificates.remove() }
            let sandbox = try SandboxFixture(servingTLS: certificates)
            defer { sandbox.stop() }
            let client = ClientFixture(sandbox: sandbox) { o in
                o.host = "localhost"
                o.allowInsecure = false
            }
            let recorder = client.recorder
            await eventually("two connecting_in") { recorder.retries.count >= 2 }
            await client.shutdown()
            let changes = recorder.changesAfterStart
            #expect(Array(changes.map(\.current).prefix(3)) == [.unavailable, .connecting, .unavailable], "\(changes)")
            guard case .networkError(let message)? = changes.first?.cause else {
                Issue.record("a TLS failure should be a network error: \(changes)")
                return
            }
            #expect(
                message.lowercased().contains("certificate") || message.lowercased().contains("tls"),
                "the cause names the TLS problem: \(message)")
            #expect(!recorder.states.contains(.connected))
            #expect(sandbox.sandbox.connections().isEmpty)
        }
    }
}
