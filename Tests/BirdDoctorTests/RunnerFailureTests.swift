import BirdDoctor
import BirdDoctorRunner
import BirdSandbox
import BirdWire
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Each layer failed on purpose with real sockets: a name that does not resolve, a closed
/// port, certificates that are wrong in each way, servers that are not edges, edges and auth
/// endpoints that stay silent or answer the wrong thing.
@Suite struct RunnerFailureTests {
    @Test func anUnresolvableNameFailsLayerOne() async throws {
        let target = DoctorTarget(host: "nonexistent.invalid", port: 443, tls: true, appKey: "k")
        let report = await Fixture.run(target)
        let step = try #require(report.expectFailure(at: .resolve))
        #expect(step.summary.hasPrefix("cannot resolve nonexistent.invalid"))
        #expect(report.step(.connect)?.summary == "skipped: DNS failed")
    }

    @Test func aClosedPortFailsLayerTwo() async throws {
        let port = try closedPort()
        let report = await Fixture.run(Fixture.loopback(port: port))
        let step = try #require(report.expectFailure(at: .connect))
        #expect(step.summary == "no address answered: 127.0.0.1:\(port) refused")
        #expect(step.hint?.contains("nothing listens on 127.0.0.1:\(port)") == true)
        #expect(report.step(.tls)?.summary == "skipped: TCP failed")
    }

    /// A port nothing listens on: bound (so it is free), then closed.
    private func closedPort() throws -> Int {
        let server = try ScriptedServer { _ in .silent }
        let port = server.port
        server.stop()
        return port
    }

    // MARK: TLS

    @Test func anUnknownCAPointsAtCAFile() async throws {
        let certificates = try TestCertificates.make()
        defer { certificates.remove() }
        let sandbox = try Fixture.sandbox(certificates: certificates)
        defer { sandbox.stop(grace: 0) }
        let report = await Fixture.run(Fixture.tlsTarget(sandbox, caFile: nil))
        let step = try #require(report.expectFailure(at: .tls))
        #expect(step.detail("verify") == "unable to get local issuer certificate")
        #expect(step.summary.contains("signed by `CN=Bird Test CA`, which this machine does not trust"))
        #expect(step.hint == "pass the CA that signed it with --ca-file ca.pem (PEM)")
        #expect(step.detail("subject") == "CN=localhost")
        #expect(step.detail("sans") == ["localhost"])
        #expect(report.step(.upgrade)?.summary == "skipped: TLS failed")
    }

    @Test func withTheCAFileEveryLayerPassesOverTLS() async throws {
        let certificates = try TestCertificates.make()
        defer { certificates.remove() }
        let sandbox = try Fixture.sandbox(certificates: certificates)
        defer { sandbox.stop(grace: 0) }
        let report = await Fixture.run(Fixture.tlsTarget(sandbox, caFile: certificates.caFile))
        report.expectPassed()
        let tls = try #require(report.step(.tls))
        #expect(tls.status == .warn)  // two days left: the expiry warning
        #expect(tls.detail("days_left") == 1 || tls.detail("days_left") == 2)
        #expect(tls.detail("issuer") == "CN=Bird Test CA")
        #expect(report.step(.auth)?.detail("hmac")?.stringValue?.hasPrefix("not checked") == true)
    }

    @Test func aCertificateForAnotherHostNamesBoth() async throws {
        let certificates = try TestCertificates.make(dnsName: "a.example")
        defer { certificates.remove() }
        let sandbox = try Fixture.sandbox(certificates: certificates)
        defer { sandbox.stop(grace: 0) }
        let step = try #require(
            await Fixture.run(Fixture.tlsTarget(sandbox, caFile: certificates.caFile)).expectFailure(at: .tls))
        #expect(step.summary.contains("the certificate is for `a.example`, not `localhost`"))
        #expect(step.detail("verify") == "hostname mismatch")
        #expect(step.hint?.contains("--host") == true)
    }

    @Test func anExpiredCertificateSaysSo() async throws {
        let certificates = try TestCertificates.make(expired: true)
        defer { certificates.remove() }
        let sandbox = try Fixture.sandbox(certificates: certificates)
        defer { sandbox.stop(grace: 0) }
        let step = try #require(
            await Fixture.run(Fixture.tlsTarget(sandbox, caFile: certificates.caFile)).expectFailure(at: .tls))
        #expect(step.detail("verify") == "certificate has expired")
        #expect(step.summary.contains("it expired on 2020-02-01T00:00:00Z"))
        #expect(step.hint?.contains("renew") == true)
    }

    @Test func tlsToAPlainPortSaysThePortIsPlain() async throws {
        let sandbox = try Fixture.sandbox()
        defer { sandbox.stop(grace: 0) }
        var target = Fixture.target(sandbox)
        target.tls = true
        let step = try #require(await Fixture.run(target).expectFailure(at: .tls))
        #expect(step.hint?.contains("does not speak TLS") == true || step.hint?.contains("plain HTTP") == true)
    }

    @Test func plainWebSocketToATLSPortSaysThePortExpectsTLS() async throws {
        let certificates = try TestCertificates.make()
        defer { certificates.remove() }
        let sandbox = try Fixture.sandbox(certificates: certificates)
        defer { sandbox.stop(grace: 0) }
        let step = try #require(
            await Fixture.run(Fixture.loopback(port: sandbox.endpoints.port)).expectFailure(at: .upgrade))
        #expect(step.hint?.contains("drop --insecure") == true, "\(step.summary) — \(step.hint ?? "")")
    }

    // MARK: Not an edge

    @Test func aWebServerIsNotAWebSocketEdge() async throws {
        let server = try ScriptedServer { _ in
            .http(
                status: "200 OK", contentType: "text/html; charset=utf-8", body: "<!doctype html><title>Welcome</title>"
            )
        }
        defer { server.stop() }
        let step = try #require(await Fixture.run(Fixture.loopback(port: server.port)).expectFailure(at: .upgrade))
        #expect(
            step.summary == "the server answered HTTP 200 with text/html: a proxy or a web server, not a WebSocket edge"
        )
        #expect(step.detail("body_starts") == "<!doctype html><title>Welcome</title>")
    }

    @Test func a101WithAWrongAcceptFails() async throws {
        let server = try ScriptedServer { _ in .upgrade(accept: "bm90IHRoZSByaWdodCB2YWx1ZQ==", frames: []) }
        defer { server.stop() }
        let step = try #require(await Fixture.run(Fixture.loopback(port: server.port)).expectFailure(at: .upgrade))
        #expect(step.summary == "101 with a wrong Sec-WebSocket-Accept")
    }

    @Test func anEdgeThatSaysNothingTimesOutTheHandshake() async throws {
        let server = try ScriptedServer { _ in .upgrade(accept: nil, frames: []) }
        defer { server.stop() }
        let report = await Fixture.run(Fixture.loopback(port: server.port, timeout: .seconds(1)))
        let step = try #require(report.expectFailure(at: .handshake))
        #expect(step.summary == "no bird:connection_established within 1 s")
    }

    @Test func anEdgeThatIgnoresPingsFailsLayerSix() async throws {
        let hello =
            "{\"event\":\"bird:connection_established\",\"data\":\"{\\\"connection_id\\\":\\\"1.2\\\",\\\"activity_timeout\\\":120}\"}"
        let server = try ScriptedServer { _ in .upgrade(accept: nil, frames: [hello]) }
        defer { server.stop() }
        let report = await Fixture.run(Fixture.loopback(port: server.port, timeout: .seconds(1)))
        let step = try #require(report.expectFailure(at: .ping))
        #expect(step.summary == "no bird:pong within 1 s")
        #expect(report.step(.handshake)?.detail("connection_id") == "1.2")
    }

    // MARK: Auth endpoints

    private func sandboxWithAuth(
        _ script: @escaping @Sendable (ScriptedServer.Request) -> ScriptedServer.Reply, timeout: Duration = .seconds(5)
    )
        async throws -> (DoctorReport, DoctorStep?)
    {
        let sandbox = try Fixture.sandbox()
        defer { sandbox.stop(grace: 0) }
        let auth = try ScriptedServer(script)
        defer { auth.stop() }
        var target = Fixture.target(sandbox)
        target.authEndpoint = "http://127.0.0.1:\(auth.port)/auth"
        target.timeout = timeout
        let report = await Fixture.run(target)
        return (report, report.expectFailure(at: .auth))
    }

    @Test func aSilentAuthEndpointTimesOut() async throws {
        let (_, step) = try await sandboxWithAuth({ _ in .silent }, timeout: .seconds(1))
        #expect(step?.summary == "the auth endpoint did not answer within 1 s")
    }

    @Test func anHTMLAnswerIsNotJSON() async throws {
        let (_, step) = try await sandboxWithAuth { _ in
            .http(status: "200 OK", contentType: "text/html", body: "<html><form>Sign in</form></html>")
        }
        #expect(step?.summary == "the auth endpoint answered 200 with text/html, not JSON")
        #expect(step?.hint?.contains("--auth-header") == true)
    }

    @Test func aSignatureWithAnotherSecretIsRefusedByTheEdge() async throws {
        let (report, step) = try await sandboxWithAuth { request in
            let fields = (try? JSONValue(parsing: String(decoding: request.body, as: UTF8.self)))?.objectValue ?? [:]
            let id = fields["connection_id"]?.stringValue ?? ""
            let channel = fields["channel_name"]?.stringValue ?? ""
            let auth = Signature.auth(appKey: "sandbox-key", secret: "not-the-secret", string: "\(id):\(channel)")
            return .http(status: "200 OK", contentType: "application/json", body: "{\"auth\":\"\(auth)\"}")
        }
        let summary = step?.summary ?? ""
        #expect(summary.contains("the edge refused the signature"))
        #expect(summary.contains("the auth endpoint signs with a different secret or for another connection id"))
        #expect(summary.contains("the signature does not match"))
        #expect(step?.detail("hmac") == "does not match the known app secret")
        let text = JSONReport.render(report) + HumanReport.render(report, color: false)
        #expect(DoctorRedactionProbe.hasNoSignature(text))
    }

    @Test func authHeadersAreSentButNeverShown() async throws {
        let seen = LockedText()
        let sandbox = try Fixture.sandbox()
        defer { sandbox.stop(grace: 0) }
        let auth = try ScriptedServer { request in
            seen.set(request.header("Authorization") ?? "")
            return .http(status: "403 Forbidden", contentType: "application/json", body: "{\"error\":\"no\"}")
        }
        defer { auth.stop() }
        var target = Fixture.target(sandbox)
        target.authEndpoint = "http://127.0.0.1:\(auth.port)/auth"
        target.authHeaders = [HeaderLine(name: "Authorization", value: "Bearer tok-0123456789")]
        let report = await Fixture.run(target)
        #expect(seen.get() == "Bearer tok-0123456789")
        let step = try #require(report.expectFailure(at: .auth))
        #expect(step.hint?.contains("--auth-header (Authorization)") == true)
        for text in [JSONReport.render(report), HumanReport.render(report, color: false)] {
            #expect(!text.contains("tok-0123456789"))
            #expect(text.contains("Authorization: Bearer <redacted>"))
        }
    }
}

/// A string shared with a server thread.
final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""
    func set(_ value: String) {
        lock.lock()
        text = value
        lock.unlock()
    }
    func get() -> String {
        lock.lock()
        defer { lock.unlock() }
        return text
    }
}
