import Foundation
import Testing
import TestSupport
@testable import WebSocket

/// `ConnectionProbe`, layer by layer against our own server: what each step reports, and that
/// nothing is sent over TLS that failed verification.
@Suite struct ConnectionProbeTests {
    private func address(_ port: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws -> ProbeAddress {
        let resolved = await ConnectionProbe.resolve(host: "127.0.0.1", port: port, timeout: .seconds(5))
        return try #require(try? resolved.get().first, sourceLocation: sourceLocation)
    }

    private func failure(_ result: Result<Void, ProbeError>) -> ProbeError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    @Test func resolveReportsFailuresInWords() async {
        let result = await ConnectionProbe.resolve(host: "nonexistent.invalid", port: 443, timeout: .seconds(5))
        guard case .failure(.failed(let message)) = result else {
            Issue.record("expected a resolver error, got \(result)")
            return
        }
        #expect(!message.isEmpty)
    }

    @Test func aClosedPortIsRefused() async throws {
        let server = try EchoServer()
        let port = server.port
        server.server.stop()
        let probe = ConnectionProbe()
        let result = await probe.connect(to: try await address(port), timeout: .seconds(5))
        #expect(failure(result) == .refused)
    }

    @Test func upgradeThenFramesOverPlainTCP() async throws {
        let server = try EchoServer()
        defer { server.server.stop() }
        let probe = ConnectionProbe()
        #expect(failure(await probe.connect(to: try await address(server.port), timeout: .seconds(5))) == nil)
        let report = try await probe.upgrade(
            requestTarget: "/socket", hostHeader: "127.0.0.1:\(server.port)", timeout: .seconds(5)
        ).get()
        #expect(report.status == 101 && report.isWebSocket && report.acceptValid)
        #expect(failure(await probe.send(text: "hello", timeout: .seconds(5))) == nil)
        #expect(await probe.receive(timeout: .seconds(5)) == .text("hello"))
        #expect(failure(await probe.send(text: "cmd:close 4001 app does not exist", timeout: .seconds(5))) == nil)
        #expect(await probe.receive(timeout: .seconds(5)) == .closed(code: 4001, reason: "app does not exist"))
    }

    @Test func aPlainHTTPAnswerIsReportedNotThrown() async throws {
        let server = try EchoServer()
        defer { server.server.stop() }
        server.server.shouldUpgrade = { _ in HTTPResponse.json(404, "{\"error\":\"no\"}") }
        let probe = ConnectionProbe()
        _ = await probe.connect(to: try await address(server.port), timeout: .seconds(5))
        let report = try await probe.upgrade(requestTarget: "/x", hostHeader: "127.0.0.1", timeout: .seconds(5)).get()
        #expect(report.status == 404 && !report.isWebSocket)
        #expect(report.header("content-type")?.contains("json") == true)
        #expect(failure(await probe.send(text: "x", timeout: .seconds(1))) == .notReady("no open WebSocket"))
    }

    @Test func certificateReportAndNoSendingAfterAFailedVerification() async throws {
        let certs = try TestCertificates.make()
        defer { certs.remove() }
        let server = try EchoServer(servingTLS: certs)
        defer { server.server.stop() }
        let target = try await address(server.port)

        // Trusted, right name: verified, with the certificate's facts.
        let good = ConnectionProbe()
        _ = await good.connect(to: target, timeout: .seconds(5))
        let verified = try await good.startTLS(host: "localhost", caFile: certs.caFile, timeout: .seconds(5)).get()
        #expect(verified.verified && verified.hostMatches && verified.chainCode == 0)
        let certificate = try #require(verified.certificate)
        #expect(certificate.subject == "CN=localhost" && certificate.commonName == "localhost")
        #expect(certificate.issuer == "CN=Bird Test CA")
        #expect(certificate.dnsNames == ["localhost"] && certificate.ipAddresses.isEmpty)
        let now = Int(Date().timeIntervalSince1970)
        #expect(certificate.notAfter > now + 86_400 && certificate.notAfter <= now + 2 * 86_400 + 60)
        #expect(
            try await good.upgrade(requestTarget: "/", hostHeader: "localhost", timeout: .seconds(5)).get().isWebSocket)
        await good.close()

        // Trusted, wrong name (an IP the certificate does not list): the chain is fine, the host is not.
        let wrongName = ConnectionProbe()
        _ = await wrongName.connect(to: target, timeout: .seconds(5))
        let mismatch = try await wrongName.startTLS(host: "127.0.0.1", caFile: certs.caFile, timeout: .seconds(5)).get()
        #expect(!mismatch.verified && !mismatch.hostMatches && mismatch.chainCode == 0)
        #expect(mismatch.verifyReason == "IP address mismatch")

        // Unknown CA: reported — and the probe refuses to send the upgrade over it.
        let untrusted = ConnectionProbe()
        _ = await untrusted.connect(to: target, timeout: .seconds(5))
        let unknown = try await untrusted.startTLS(host: "localhost", caFile: nil, timeout: .seconds(5)).get()
        #expect(!unknown.verified && unknown.hostMatches && unknown.chainCode == unknown.verifyCode)
        let refused = await untrusted.upgrade(requestTarget: "/", hostHeader: "localhost", timeout: .seconds(5))
        guard case .failure(.notReady(let why)) = refused else {
            Issue.record("upgrade went ahead over an unverified connection: \(refused)")
            return
        }
        #expect(why.contains("failed verification"))
    }
}
