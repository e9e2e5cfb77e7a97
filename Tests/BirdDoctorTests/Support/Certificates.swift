import Foundation

/// A throw-away CA and a server certificate made with the `openssl` command line in a temporary
/// directory: for `dnsName` (default `localhost`), valid for two days — or long expired
/// (`openssl ca` with a start and end date in 2020).
struct DoctorCertificates {
    let directory: URL
    var caFile: String { directory.appendingPathComponent("ca.pem").path }
    var certificateFile: String { directory.appendingPathComponent("server.pem").path }
    var keyFile: String { directory.appendingPathComponent("server.key").path }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func make(dnsName: String = "localhost", expired: Bool = false) throws -> DoctorCertificates {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try "subjectAltName=DNS:\(dnsName)\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
            .write(to: dir.appendingPathComponent("ext.cnf"), atomically: true, encoding: .utf8)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try run(
            ["req", "-x509"] + ec + [
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Bird Doctor Test CA",
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
        return DoctorCertificates(directory: dir)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

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
