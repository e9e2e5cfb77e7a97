import BirdSandbox
import BirdWire
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A `bird-sandbox` child process (`--port 0 --quiet`), its ready line read, its RSS and CPU time
/// readable from `/proc` so they are the edge's own. Or, for profiling only (`valgrind` cannot
/// run the `bird-sandbox` binary here), an edge embedded in this process.
final class SandboxProcess {
    let process = Process()
    let pid: Int32
    let port: Int
    let appKey: String
    let controlBase: String
    private var embedded: Sandbox?

    /// An edge inside this process (its RSS and CPU are then this process's, generator included).
    init(embeddedDialect dialect: String) throws {
        let sandbox = try Sandbox(
            configuration: SandboxConfiguration(port: 0, dialect: dialect == "pusher" ? .pusher : .bird))
        try sandbox.start()
        embedded = sandbox
        pid = getpid()
        port = sandbox.endpoints.port
        appKey = sandbox.endpoints.appKey
        controlBase = sandbox.endpoints.controlBase
    }

    init(binary: String, dialect: String) throws {
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--port", "0", "--quiet", "--dialect", dialect]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        pid = process.processIdentifier
        var line: [UInt8] = []
        while line.last != UInt8(ascii: "\n") {
            let chunk = out.fileHandleForReading.readData(ofLength: 1)
            if chunk.isEmpty { break }
            line.append(contentsOf: chunk)
            if line.count > 64 * 1024 { break }
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
            let port = (object["port"] as? NSNumber)?.intValue, let key = object["app_key"] as? String,
            let control = object["control"] as? String
        else {
            process.terminate()
            throw BenchError("bird-sandbox gave no ready line: \(String(decoding: line.prefix(200), as: UTF8.self))")
        }
        self.port = port
        appKey = key
        controlBase = control
    }

    /// VmRSS in KiB (-1 when unreadable).
    var rssKB: Int { Self.rssKB(pid: pid) }

    /// User + system CPU time in seconds (-1 when unreadable).
    var cpuSeconds: Double { Self.cpuSeconds(pid: pid) }

    /// CPU seconds per thread name (threads of one name added up), from `/proc/PID/task/*/stat`.
    var threadCPU: [String: Double] {
        var out: [String: Double] = [:]
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return out }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        for task in tasks {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8),
                let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")"), ticks > 0
            else { continue }
            let name = String(text[text.index(after: open)..<close])
            let fields = text[text.index(after: close)...].split(separator: " ")
            guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { continue }
            out[name, default: 0] += (user + system) / ticks
        }
        return out
    }

    func stop() {
        if let embedded {
            embedded.stop(grace: 0.2)
            return
        }
        process.terminate()
        process.waitUntilExit()
    }

    static func rssKB(pid: Int32) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return -1 }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? -1
        }
        return -1
    }

    /// utime + stime of `/proc/PID/stat` in seconds (-1 when unreadable).
    static func cpuSeconds(pid: Int32) -> Double {
        let split = cpuSplit(pid: pid)
        return split.user < 0 ? -1 : split.user + split.system
    }

    /// utime and stime of `/proc/PID/stat` (fields 14 and 15, counted after the command's `)`),
    /// in seconds; -1 each when unreadable.
    static func cpuSplit(pid: Int32) -> (user: Double, system: Double) {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return (-1, -1) }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After ")": state is field 3, so utime (14) and stime (15) are at offsets 11 and 12.
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]), ticks > 0 else {
            return (-1, -1)
        }
        return (user / ticks, system / ticks)
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A blocking HTTP/1.1 client for the control API, one keep-alive connection (reopened when the
/// edge closes it). Loopback, numeric IPv4 only.
final class ControlPoster {
    private let host: String
    private let port: Int
    private var fd: Int32 = -1

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    deinit { if fd >= 0 { Glibc.close(fd) } }

    /// POSTs `body` (JSON) to `path`; returns the status and body.
    func post(_ path: String, _ body: String) throws -> (status: Int, body: String) {
        for attempt in 0..<2 {
            if fd < 0 { try connect() }
            let bodyBytes = Array(body.utf8)
            let head =
                "POST \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(bodyBytes.count)\r\n\r\n"
            let request = Array(head.utf8) + bodyBytes
            if writeAll(request), let answer = readResponse() { return answer }
            Glibc.close(fd)
            fd = -1
            if attempt == 1 { break }
        }
        throw BenchError("control API \(path): no answer")
    }

    private func connect() throws {
        let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard s >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        _ = setsockopt(s, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(clamping: port).bigEndian
        _ = inet_pton(AF_INET, host, &address.sin_addr)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard rc == 0 else {
            Glibc.close(s)
            throw BenchError("connect to the control API: \(String(cString: strerror(errno)))")
        }
        fd = s
    }

    private func writeAll(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return true }
            var sent = 0
            while sent < raw.count {
                let n = send(fd, base + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                if n > 0 { sent += n } else if n < 0 && errno == EINTR { continue } else { return false }
            }
            return true
        }
    }

    private func readResponse() -> (status: Int, body: String)? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var headEnd: Int?
        var contentLength = 0
        while true {
            if let end = headEnd, data.count >= end + contentLength {
                let head = String(decoding: data[..<end], as: UTF8.self)
                let parts = head.split(separator: " ", maxSplits: 2)
                let status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
                if head.lowercased().contains("connection: close") {
                    Glibc.close(fd)
                    fd = -1
                }
                return (status, String(decoding: data[end..<(end + contentLength)], as: UTF8.self))
            }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            data.append(contentsOf: buffer[0..<n])
            if headEnd == nil, let end = Self.headEnd(data) {
                headEnd = end
                let head = String(decoding: data[..<end], as: UTF8.self).lowercased()
                for line in head.split(separator: "\r\n") where line.hasPrefix("content-length:") {
                    let value = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                    contentLength = min(max(0, value), 16 << 20)
                }
            }
        }
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4)
        where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i + 4
        }
        return nil
    }
}
