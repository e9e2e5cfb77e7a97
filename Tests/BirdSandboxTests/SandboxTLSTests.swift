import BirdWire
import Foundation
import Testing
import WebSocket

@testable import BirdSandbox

/// `--tls-cert/--tls-key`: the sandbox serves wss:// and https:// with a certificate the test makes.
@Suite(.serialized) struct SandboxTLSTests {
    /// A self-signed certificate for 127.0.0.1 made with the openssl CLI; nil when it is missing.
    private func makeCertificate() throws -> (cert: String, key: String)? {
        let openssl = "/usr/bin/openssl"
        guard FileManager.default.isExecutableFile(atPath: openssl) else { return nil }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bird-sandbox-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let cert = dir.appendingPathComponent("cert.pem").path
        let key = dir.appendingPathComponent("key.pem").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
            "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return (cert, key)
    }

    @Test func servesWSSAndHTTPS() async throws {
        guard let (cert, key) = try makeCertificate() else {
            Issue.record("openssl CLI unavailable: cannot make a test certificate (apt-get install openssl)")
            return
        }
        let sandbox = try Sandbox(
            configuration: SandboxConfiguration(port: 0, tlsCertificateFile: cert, tlsPrivateKeyFile: key))
        try sandbox.start()
        defer { sandbox.stop(grace: 0) }
        let endpoints = sandbox.endpoints
        #expect(endpoints.webSocketURL.hasPrefix("wss://127.0.0.1:"))
        #expect(endpoints.httpBase.hasPrefix("https://"))
        let client = TestClient(endpoints.webSocketURL + "?protocol=7", caFile: cert)
        let id = await client.connectionId()
        #expect(id != nil, "no handshake over wss: \(String(describing: client.closeInfo))")
        let url = try #require(URL(string: endpoints.controlBase + "/connections"))
        let response = try await HTTPClient.send(method: "GET", url: url, caFile: cert)
        #expect(response.status == 200)
        let listed = try JSONValue(parsing: String(decoding: response.body, as: UTF8.self))
        #expect(listed[0]?["id"]?.stringValue == id)
    }

    @Test func missingCertificateFilesFailToStart() throws {
        let sandbox = try Sandbox(
            configuration: SandboxConfiguration(
                port: 0, tlsCertificateFile: "/nonexistent/c.pem", tlsPrivateKeyFile: "/nonexistent/k.pem"))
        #expect(throws: SandboxError.self) { try sandbox.start() }
    }
}
