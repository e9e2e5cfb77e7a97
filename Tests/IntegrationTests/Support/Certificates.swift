import Foundation

/// A throw-away CA and a server certificate for one DNS name, made with the `openssl` command line
/// in a temporary directory (removed by ``remove()``).
struct Certificates {
    let directory: URL
    var caFile: String { directory.appendingPathComponent("ca.pem").path }
    var certificateFile: String { directory.appendingPathComponent("server.pem").path }
    var keyFile: String { directory.appendingPathComponent("server.key").path }

    static func make(dnsName: String = "localhost") throws -> Certificates {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bird-integ-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try "subjectAltName=DNS:\(dnsName)\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
            .write(to: dir.appendingPathComponent("ext.cnf"), atomically: true, encoding: .utf8)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try run(["req", "-x509"] + ec + ["-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Bird Integration CA",
                 "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"], in: dir)
        try run(["req"] + ec + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=\(dnsName)"], in: dir)
        try run(["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                 "-out", "server.pem", "-days", "2", "-extfile", "ext.cnf"], in: dir)
        return Certificates(directory: dir)
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
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "openssl \(arguments.first ?? "") failed"])
        }
    }
}
