import BirdRealtime
import BirdRealtimeTestSupport
import BirdSandbox
import BirdWire
import Foundation
import Testing
import TestSupport

/// docs/PROTOCOL.md § Transport security and the secrets rule: no downgrade to plain text off loopback, TLS checks
/// never skipped, secrets never in logs, the wire tap or errors.
extension Integration {
    @Suite(.serialized) struct SecurityTests {
        @Test(
            "allowInsecure is refused for a host that is not loopback; no socket is opened",
            arguments: ["example.com", "10.0.0.1", "192.168.1.20", "localhost.example.com", "127.0.0.1.nip.io", "::2"])
        func allowInsecureRemote(host: String) async throws {
            let sockets = ScriptedTransport()
            let client = ClientFixture(sandbox: nil, environment: sockets.environment(clock: ManualClock())) { o in
                o.host = host
                o.port = 80
                o.allowInsecure = true
            }
            await eventually("failed") { client.state == .failed }
            await client.bird.settle()
            #expect(sockets.connections.isEmpty, "no socket for \(host)")
            // connect() does not get around it, and reports the configuration error again.
            // (The first report, made before observers could be registered, is covered by
            // CloseCodeMatrixTests' test of docs/PROTOCOL.md § States.)
            let mark = client.recorder.mark
            client.bird.connect()
            await client.bird.settle()
            #expect(sockets.connections.isEmpty)
            #expect(client.state == .failed)
            let errors = client.recorder.errors(since: mark)
            #expect(errors.map(\.kind) == [.configuration])
            #expect(errors.first?.message.contains("allowInsecure") == true, "\(errors)")
        }

        @Test("a plain http:// auth endpoint is refused unless it is loopback with allowInsecure; nothing is sent")
        func plainHTTPAuthEndpoint() async throws {
            for (endpoint, insecure) in [("http://auth.example.com/auth", true), ("http://127.0.0.1:9/auth", false)] {
                let sockets = ScriptedTransport()
                let client = ClientFixture(sandbox: nil, environment: sockets.environment(clock: ManualClock())) { o in
                    o.authEndpoint = URL(string: endpoint)
                    o.allowInsecure = insecure
                    o.host = insecure ? "127.0.0.1" : "edge.example.com"
                }
                client.bird.subscribe("private-secure")
                await client.bird.settle()
                sockets.last?.handshake(connectionId: "1.1")
                await eventually("subscription_error for \(endpoint)") {
                    !client.recorder.events("bird:subscription_error", on: "private-secure").isEmpty
                }
                let error = client.recorder.events("bird:subscription_error", on: "private-secure").first?.data
                #expect(error?["type"] == "AuthError")
                #expect(error?["status"]?.intValue == 0)
                #expect(error?["endpoint"]?.stringValue == endpoint)
                #expect(client.authLog.all.isEmpty, "no request was made to \(endpoint)")
                #expect(sockets.last?.sent.contains { $0.contains("private-secure") } == false)
            }
        }

        enum TLSCase: String, CaseIterable, Sendable { case unknownCA, wrongHost }

        @Test("TLS with an unknown CA or for the wrong host refuses to connect", arguments: TLSCase.allCases)
        func tlsRefused(tlsCase: TLSCase) async throws {
            let served = try TestCertificates.make(
                dnsName: tlsCase == .wrongHost ? "not-this-host.example" : "localhost")
            defer { served.remove() }
            let other = try TestCertificates.make(dnsName: "localhost")
            defer { other.remove() }
            let sandbox = try SandboxFixture(servingTLS: served)
            defer { sandbox.stop() }
            let client = ClientFixture(sandbox: sandbox) { o in
                o.host = "localhost"
                o.allowInsecure = false
                // Unknown CA: the client trusts another CA. Wrong host: it trusts the right CA.
                o.caFile = tlsCase == .unknownCA ? other.caFile : served.caFile
            }
            await eventually("two failed attempts") { client.recorder.retries.count >= 2 }
            await client.shutdown()
            #expect(!client.recorder.states.contains(.connected))
            guard case .networkError(let message)? = client.recorder.changesAfterStart.first?.cause else {
                Issue.record("cause should be a network error: \(client.recorder.changes)")
                return
            }
            let lower = message.lowercased()
            switch tlsCase {
            case .unknownCA: #expect(lower.contains("certificate") || lower.contains("verify"), "\(message)")
            case .wrongHost: #expect(lower.contains("host") || lower.contains("certificate"), "\(message)")
            }
            #expect(sandbox.sandbox.connections().isEmpty)
        }

        @Test("TLS with the right CA and host connects and authorizes over https (control)")
        func tlsAccepted() async throws {
            let served = try TestCertificates.make(dnsName: "localhost")
            defer { served.remove() }
            let sandbox = try SandboxFixture(servingTLS: served)
            defer { sandbox.stop() }
            let client = ClientFixture(sandbox: sandbox) { o in
                o.host = "localhost"
                o.allowInsecure = false
                o.caFile = served.caFile
                o.authEndpoint = URL(string: "https://localhost:\(sandbox.port)/auth")
            }
            client.bird.subscribe("private-tls")
            guard let id = await client.connected() else { return }
            await client.subscribed(["private-tls"])
            #expect(sandbox.connection(id)?.channels == ["private-tls"])
            await client.shutdown()
        }

        @Test("the app secret, auth-header secrets and signatures never appear in logs, the wire tap or errors")
        func secretsNeverLeak() async throws {
            let appSecret = "APPSECRET-7f3e9c-do-not-leak"
            let headerSecret = "HEADERSECRET-91ab44-do-not-leak"
            let providerSecret = "PROVIDERSECRET-c0ffee-do-not-leak"
            let sandbox = try SandboxFixture { $0.appSecret = appSecret }
            defer { sandbox.stop() }
            let hostile = try AuthServer(appSecret: appSecret)
            defer { hostile.stop() }
            func secretOptions(_ o: inout BirdRealtime.Options) {
                o.authHeaders = ["Authorization": "Bearer \(headerSecret)"]
                o.authHeadersProvider = { ["X-Refresh-Token": providerSecret] }
            }

            // A client doing everything right: private, presence, sign-in, reconnects, a stale connection.
            let good = ClientFixture(sandbox: sandbox, member: "erin", configure: secretOptions)
            for name in ["private-a", "presence-a", "news"] { good.bird.subscribe(name) }
            guard let id = await good.connected() else { return }
            _ = try await good.bird.signin()
            await good.subscribed(["private-a", "presence-a", "news"])
            sandbox.sandbox.drop(id: id)
            guard let second = await good.connected(other: id) else { return }
            await good.subscribed(["private-a", "presence-a", "news"])
            sandbox.sandbox.setAuthFailure(status: 401, prefix: "private-")
            sandbox.sandbox.closeConnection(id: second, code: 4200, reason: "again")
            await eventually("an auth failure reported") {
                !good.recorder.events("bird:subscription_error", on: "private-a").isEmpty
            }
            sandbox.sandbox.clearAuthFailure()

            // A client whose auth endpoint echoes the secret header back, in errors and non-JSON.
            hostile.mode = .status(403, body: #"{"error":"denied for Bearer \#(headerSecret) \#(providerSecret)"}"#)
            let echoed = ClientFixture(
                sandbox: sandbox,
                configure: { o in
                    secretOptions(&o)
                    o.authEndpoint = hostile.url
                })
            echoed.bird.subscribe("private-b")
            await eventually("403 reported") {
                !echoed.recorder.events("bird:subscription_error", on: "private-b").isEmpty
            }
            hostile.mode = .status(200, body: "not json: Bearer \(headerSecret) \(providerSecret)")
            guard let echoedId = await echoed.connected() else { return }
            sandbox.sandbox.closeConnection(id: echoedId, code: 4200, reason: "again")
            await eventually("non-JSON reported") {
                echoed.recorder.events("bird:subscription_error", on: "private-b").count >= 2
            }
            // A server echoing a signature-bearing frame back to the client.
            if let goodId = good.bird.connectionId {
                sandbox.sandbox.send(
                    id: goodId,
                    text:
                        #"{"event":"bird:subscribe","data":{"channel":"x","auth":"sandbox-key:deadbeefcafe0123456789"}}"#
                )
            }
            await good.bird.settle()
            await echoed.shutdown()
            await good.shutdown()

            #expect(
                hostile.seenHeaders.snapshot.contains { $0["authorization"] == "Bearer \(headerSecret)" },
                "the headers did reach the endpoint (control)")
            let signatures = (good.authLog.all + echoed.authLog.all).compactMap(\.auth)
                .compactMap { $0.split(separator: ":").last.map(String.init) }
            #expect(signatures.count >= 4, "signatures were issued (control)")
            #expect(
                good.recorder.wire.contains {
                    $0.0 == .outbound && $0.1.contains("bird:subscribe") && $0.1.contains("auth")
                },
                "the wire tap saw signed subscribe frames (control)")
            let secrets = [appSecret, headerSecret, providerSecret, "deadbeefcafe0123456789"] + signatures
            let texts = good.recorder.allText + echoed.recorder.allText
            for secret in secrets {
                let leaks = texts.filter { $0.contains(secret) }
                #expect(leaks.isEmpty, "\(secret.prefix(12))… leaked in: \(leaks.prefix(3))")
                let sandboxLeaks = sandbox.logLines.snapshot.filter { $0.contains(secret) }
                #expect(
                    sandboxLeaks.isEmpty, "\(secret.prefix(12))… leaked in the sandbox log: \(sandboxLeaks.prefix(3))")
            }
        }
    }
}
