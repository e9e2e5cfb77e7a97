import Foundation

/// A throw-away CA (`CN=Bird Test CA`) and a server certificate for one DNS name (default
/// `localhost`, DNS SAN only), made with the `openssl` command line in a temporary directory
/// (removed by ``remove()``): valid for two days, or long expired (`openssl ca` with a start and
/// end date in 2020).
public struct TestCertificates: Sendable {
    /// The temporary directory holding the files.
    public let directory: URL
    /// The CA's certificate (PEM), for a client's trust store.
    public var caFile: String { directory.appendingPathComponent("ca.pem").path }
    /// The server's certificate (PEM).
    public var certificateFile: String { directory.appendingPathComponent("server.pem").path }
    /// The server's private key (PEM).
    public var keyFile: String { directory.appendingPathComponent("server.key").path }

    /// An `openssl` step that failed.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Makes the CA and a server certificate for `dnsName`; `expired`: valid only in January 2020.
    public static func make(dnsName: String = "localhost", expired: Bool = false) throws -> TestCertificates {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bird-test-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try "subjectAltName=DNS:\(dnsName)\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
            .write(to: dir.appendingPathComponent("ext.cnf"), atomically: true, encoding: .utf8)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try run(
            ["req", "-x509"] + ec + [
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Bird Test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ], in: dir)
        try run(["req"] + ec + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=\(dnsName)"], in: dir)
        if expired {
            // `openssl ca` is the OpenSSL 3.0 tool that takes explicit dates.
            let config = """
                [ ca ]
                default_ca = test
                [ test ]
                database = index.txt
                new_certs_dir = .
                serial = serial
                default_md = sha256
                policy = any
                unique_subject = no
                [ any ]
                commonName = supplied
                """
            try config.write(to: dir.appendingPathComponent("ca.cnf"), atomically: true, encoding: .utf8)
            try "".write(to: dir.appendingPathComponent("index.txt"), atomically: true, encoding: .utf8)
            try "01\n".write(to: dir.appendingPathComponent("serial"), atomically: true, encoding: .utf8)
            try run(
                [
                    "ca", "-batch", "-config", "ca.cnf", "-cert", "ca.pem", "-keyfile", "ca.key", "-in", "server.csr",
                    "-out", "server.pem", "-startdate", "20200101000000Z", "-enddate", "20200201000000Z",
                    "-extfile", "ext.cnf", "-notext",
                ], in: dir)
        } else {
            try run(
                [
                    "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                    "-out", "server.pem", "-days", "2", "-extfile", "ext.cnf",
                ], in: dir)
        }
        return TestCertificates(directory: dir)
    }

    /// Deletes the directory and everything in it.
    public func remove() { try? FileManager.default.removeItem(at: directory) }

    private static func run(_ arguments: [String], in dir: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = dir
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "openssl \(arguments.first ?? "") failed (is the openssl CLI installed?)")
        }
    }
}
