import Foundation
import Testing
import TestSupport
@testable import WebSocket

/// TLS: verification against the system store and an extra CA file, hostname checks, our TLS
/// server, and HTTPClient over TLS.
@Suite("TLS", .serialized)
struct TLSTests {
    @Test func pythonTLSServerUnknownCAMismatchAndAccepted() async throws {
        let certs = try TestCertificates.make()
        defer { certs.remove() }
        guard let peer = try await PythonServer(tls: (certs.certificateFile, certs.keyFile)) else { return }
        defer { peer.stop() }

        // Unknown CA: the system store does not know our throw-away CA.
        let unknown = EventRecorder()
        WebSocketClient(
            configuration: .init(url: URL(string: "wss://localhost:\(peer.port)/")!),
            queue: unknown.queue, onEvent: unknown.handler
        ).connect()
        let unknownInfo = await unknown.waitClosed()
        guard case .tls(let host, let reason) = unknownInfo?.error else {
            Issue.record("expected a TLS error, got \(String(describing: unknownInfo))")
            return
        }
        #expect(host == "localhost")
        #expect(reason.contains("certificate"))
        #expect(!unknown.isOpen)

        // Address mismatch: the certificate names localhost only, we ask for 127.0.0.1.
        let mismatch = EventRecorder()
        WebSocketClient(
            configuration: .init(url: URL(string: "wss://127.0.0.1:\(peer.port)/")!, caFile: certs.caFile),
            queue: mismatch.queue, onEvent: mismatch.handler
        ).connect()
        let mismatchInfo = await mismatch.waitClosed()
        #expect(mismatchInfo?.error == .tls(host: "127.0.0.1", reason: "IP address mismatch"))

        // Accepted with the CA file.
        let (client, recorder) = await openClient(URL(string: "wss://localhost:\(peer.port)/")!, caFile: certs.caFile)
        #expect(recorder.isOpen)
        try client.send(text: "over tls")
        try client.send(binary: [UInt8](repeating: 9, count: 300_000))
        #expect(await recorder.waitTexts(1) == ["over tls"])
        #expect(await recorder.wait { $0.contains(.binary([UInt8](repeating: 9, count: 300_000))) })
        client.close(code: 1000, reason: "")
        #expect(await recorder.waitClosed()?.code == 1000)
    }

    @Test func ourTLSServerWithOurClientAndHTTPClient() async throws {
        let certs = try TestCertificates.make()
        defer { certs.remove() }
        let server = try EchoServer(servingTLS: certs)
        defer { server.stop() }
        server.server.onHTTPRequest = { request, respond in
            respond(.json(200, "{\"path\":\"\(request.path)\",\"bytes\":\(request.body.count)}"))
        }
        let (client, recorder) = await openClient(
            URL(string: "wss://localhost:\(server.port)/tls")!, caFile: certs.caFile)
        #expect(recorder.isOpen)
        let big = String(repeating: "q", count: 1 << 20)
        try client.send(texts: ["one", big, "three"])
        #expect(await recorder.waitTexts(3, seconds: 20) == ["one", big, "three"])
        try client.send(text: "cmd:close 4100 tls bye")
        #expect(
            await recorder.waitClosed() == WebSocketCloseInfo(code: 4100, reason: "tls bye", initiatedLocally: false))

        let response = try await HTTPClient.send(
            method: "POST", url: URL(string: "https://localhost:\(server.port)/api")!,
            body: Array("hello".utf8), caFile: certs.caFile)
        #expect(response.status == 200)
        let json = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        #expect(json?["path"] as? String == "/api")
        #expect(json?["bytes"] as? Int == 5)

        // Without the CA, HTTPClient refuses too.
        do {
            _ = try await HTTPClient.send(method: "GET", url: URL(string: "https://localhost:\(server.port)/api")!)
            Issue.record("accepted an unknown CA")
        } catch {
            if case .tls(let host, _) = error { #expect(host == "localhost") } else { Issue.record("\(error)") }
        }
    }

    @Test func hostnameMismatchIsRejected() async throws {
        let certs = try TestCertificates.make(dnsName: "wrong.example")
        defer { certs.remove() }
        let server = try EchoServer(servingTLS: certs)
        defer { server.stop() }
        let recorder = EventRecorder()
        WebSocketClient(
            configuration: .init(url: URL(string: "wss://localhost:\(server.port)/")!, caFile: certs.caFile),
            queue: recorder.queue, onEvent: recorder.handler
        ).connect()
        #expect(await recorder.waitClosed()?.error == .tls(host: "localhost", reason: "hostname mismatch"))
        #expect(!recorder.isOpen)
        #expect(server.connections.get().isEmpty)
    }

    @Test func serverRejectsMissingCertificateFiles() {
        var configuration = WebSocketServer.Configuration()
        configuration.tlsCertificateFile = "/nonexistent/cert.pem"
        configuration.tlsPrivateKeyFile = "/nonexistent/key.pem"
        let server = WebSocketServer(configuration: configuration, queue: DispatchQueue(label: "t"))
        #expect(throws: WebSocketError.self) { try server.start() }
    }
}
