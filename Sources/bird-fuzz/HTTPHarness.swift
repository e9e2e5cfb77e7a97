import BirdSandbox
import BirdWire
import Foundation
import WebSocket

extension FuzzHarness {
    /// The sandbox's HTTP side, end to end in-process: request bytes over a loopback socket into a
    /// running `Sandbox` (HTTP head parser, body reading, router, control API, demo auth, HTTP API,
    /// WebSocket upgrade), responses checked.
    static let http = FuzzHarness(
        name: "http",
        summary: "bytes (raw, or 'S' + method/target/headers/body with optional API signing) -> loopback "
            + "socket -> in-process Sandbox (both dialects); responses must be HTTP with JSON bodies that parse",
        entry: { data, size in
            HTTPFuzz.run(data.fuzzBytes(count: size))
            return 0
        },
        // LeakSanitizer cannot see Swift's weak-reference side tables (their address is kept
        // shifted inside the object's reference count), so the server threads' `weak` captures
        // read as leaks: a false positive, not a finding.
        defaultFlags: ["-detect_leaks=0"])
}

/// The http harness.
///
/// The HTTP parsing and handlers of `WebSocket` and `BirdSandbox` are internal, so the harness
/// drives them the way a peer does: one loopback TCP connection per input to a `Sandbox` started
/// once per process (one per dialect). It writes the request bytes, half-closes, and reads until
/// the server closes. Inputs are either
/// - raw: the bytes as sent (any number of pipelined requests, or an upgrade plus frames), or
/// - structured, starting with `S`: `S<flags>\nMETHOD\nTARGET\nName: value\n…\n\nBODY`, sent as one
///   well-formed request with `Content-Length` and `Connection: close`. Flags: `p` the pusher-dialect
///   sandbox, `a` signed as an HTTP API request (auth_key, auth_timestamp, auth_version, body_md5,
///   auth_signature appended to the query), so the fuzzer reaches the handlers behind the signature
///   check. In TARGET, `{app}` and `{key}` stand for the app id and key.
///
/// Findings: a crash anywhere in the process; the server not closing within 5 s after the
/// half-close; a response that is not HTTP/1.1, lacks Content-Length (other than 101), or says
/// `application/json` with a body that does not parse.
/// Never sent: control calls with timed side effects on the whole server (`restart`, which stops
/// listening, and `burst`, which can publish a million events) — inputs naming them are skipped.
enum HTTPFuzz {
    static let appId = "fuzz-app"
    static let appKey = "fuzzkey"
    static let appSecret = "fuzzsecret"

    /// The running sandboxes: bird dialect, pusher dialect.
    static let sandboxes: [Sandbox] = Dialect.allCases.map { dialect in
        let configuration = SandboxConfiguration(
            host: "127.0.0.1", port: 0, appId: appId, appKey: appKey, appSecret: appSecret, dialect: dialect,
            clientEvents: true)
        do {
            let sandbox = try Sandbox(configuration: configuration)
            try sandbox.start()
            return sandbox
        } catch {
            fatalError("http harness: cannot start the \(dialect) sandbox: \(error)")
        }
    }

    static func run(_ bytes: [UInt8]) {
        let (request, pusher) = bytes.first == UInt8(ascii: "S") ? structured(bytes) : (bytes, rawDialectBit(bytes))
        guard !request.isEmpty, !touchesTimedControl(request) else { return }
        let sandbox = sandboxes[pusher ? 1 : 0]
        // Undo what an earlier input may have switched on.
        sandbox.clearAuthFailure()
        sandbox.acceptConnections()
        sandbox.omitHandshakeId(count: 0)
        let response = exchange(request, port: sandbox.endpoints.port)
        checkResponses(response, request: request)
    }

    // MARK: Inputs

    /// The dialect of a raw input: a bit of its length (so both sandboxes see every shape).
    static func rawDialectBit(_ bytes: [UInt8]) -> Bool { bytes.count & 1 == 1 }

    /// Builds one request from the structured form; returns it and whether it goes to the pusher sandbox.
    static func structured(_ bytes: [UInt8]) -> ([UInt8], Bool) {
        let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
        var lines = text.split(separator: "\n", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
        while lines.count < 4 { lines.append("") }
        let flags = lines[0]
        let method = lines[1].trimmingCharacters(in: ["\r"])
        var target = lines[2].trimmingCharacters(in: ["\r"])
            .replacingOccurrences(of: "{app}", with: appId).replacingOccurrences(of: "{key}", with: appKey)
        // Header lines up to a blank line; the rest is the body.
        var headers: [String] = []
        var rest = Substring(lines[3])
        while !rest.isEmpty {
            let end = rest.firstIndex(of: "\n") ?? rest.endIndex
            let line = rest[..<end].trimmingCharacters(in: ["\r"])
            rest = end < rest.endIndex ? rest[rest.index(after: end)...] : rest[end...]
            if line.isEmpty { break }
            headers.append(line)
        }
        let body = Array(rest.utf8)
        if flags.contains("a") { target = signed(method: method, target: target, body: body) }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n"
        for line in headers { head += line + "\r\n" }
        head += "Connection: close\r\n\r\n"
        return (Array(head.utf8) + body, flags.contains("p"))
    }

    /// `target` with the HTTP API's authentication parameters appended, signed with the app secret
    /// over the path and query exactly as the server derives them (`HTTPRequest`).
    static func signed(method: String, target: String, body: [UInt8]) -> String {
        var target = target
        target += target.contains("?") ? "&" : "?"
        target += "auth_key=\(appKey)&auth_timestamp=\(Int(Date().timeIntervalSince1970))&auth_version=1.0"
        if !body.isEmpty { target += "&body_md5=\(Signature.md5Hex(body))" }
        let request = HTTPRequest(method: method, target: target)
        let string = Signature.httpAPIString(method: request.method, path: request.path, query: request.query)
        return target + "&auth_signature=" + Signature.hmacSHA256Hex(key: appSecret, message: string)
    }

    /// Whether the bytes could name `restart` or `burst` anywhere, literally or percent-encoded
    /// (the server percent-decodes the path once). Errs on the side of skipping.
    static func touchesTimedControl(_ bytes: [UInt8]) -> Bool {
        let lower = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(lower.count)
        var i = 0
        while i < lower.count {
            if lower[i] == UInt8(ascii: "%"), i + 2 < lower.count, let h = hexValue(lower[i + 1]),
                let l = hexValue(lower[i + 2])
            {
                let b = h << 4 | l
                decoded.append(b >= 0x41 && b <= 0x5A ? b | 0x20 : b)
                i += 3
            } else {
                decoded.append(lower[i])
                i += 1
            }
        }
        for word in ["restart", "burst"] {
            let w = Array(word.utf8)
            if contains(lower, w) || contains(decoded, w) { return true }
        }
        return false
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count)
        where haystack[start] == needle[0] && haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }

    // MARK: Socket

    /// How long the server may take to finish after the half-close before it counts as a hang.
    static let deadlineMilliseconds: Int32 = 5000

    /// Sends `request` on a fresh loopback connection, half-closes, and returns what the server
    /// wrote until it closed (or reset) the connection.
    static func exchange(_ request: [UInt8], port: Int) -> [UInt8] {
        let fd = connectLoopback(port: port)
        defer { close(fd) }
        var timeout = timeval(tv_sec: Int(deadlineMilliseconds / 1000), tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

        var sent = 0
        while sent < request.count {
            let n = request.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return -1 }
                return send(fd, base + sent, request.count - sent, Int32(MSG_NOSIGNAL))
            }
            if n > 0 {
                sent += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                break  // the server closed early (a refused or malformed request): read what it said
            }
        }
        _ = shutdown(fd, Int32(SHUT_WR))

        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(deadlineMilliseconds) * 1_000_000
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else {
                fatalError(
                    "http harness: the server did not close the connection within \(deadlineMilliseconds) ms "
                        + "after the request was half-closed (\(response.count) bytes received)")
            }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32((deadline - now) / 1_000_000) + 1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                response.append(contentsOf: chunk[0..<n])
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                return response  // EOF, or a reset (the server closed with input unread)
            }
        }
    }

    /// A blocking TCP socket connected to 127.0.0.1:`port`. A connect interrupted by a signal
    /// (libFuzzer's -timeout alarm) is retried on a fresh socket.
    static func connectLoopback(port: Int) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        for _ in 0..<100 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { fatalError("http harness: socket(): \(String(cString: strerror(errno)))") }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if connected == 0 { return fd }
            let error = errno
            close(fd)
            guard error == EINTR else {
                fatalError("http harness: connect to port \(port): \(String(cString: strerror(error)))")
            }
        }
        fatalError("http harness: connect to port \(port) interrupted 100 times")
    }

    // MARK: Responses

    /// Checks each complete response in `bytes` (a reset may cut the last one short).
    static func checkResponses(_ bytes: [UInt8], request: [UInt8]) {
        var rest = bytes[...]
        while !rest.isEmpty {
            let prefix = Array("HTTP/1.1 ".utf8)
            guard rest.count >= prefix.count else { return }
            guard rest.prefix(prefix.count).elementsEqual(prefix) else {
                finding("the server wrote something that is not an HTTP/1.1 response", bytes, request)
            }
            guard let headEnd = find([13, 10, 13, 10], in: rest) else { return }
            let headText = String(decoding: rest[rest.startIndex..<headEnd], as: UTF8.self)
            let lines = headText.components(separatedBy: "\r\n")
            let statusLine = lines[0].split(separator: " ", maxSplits: 2)
            guard statusLine.count >= 2, let status = Int(statusLine[1]), (100...599).contains(status) else {
                finding("malformed status line \(lines[0].debugDescription)", bytes, request)
            }
            if status == 101 { return }  // WebSocket frames follow
            var length: Int?
            var json = false
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else {
                    finding("malformed response header \(line.debugDescription)", bytes, request)
                }
                let name = line[..<colon].lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if name == "content-length" { length = Int(value) }
                if name == "content-type" && value.hasPrefix("application/json") { json = true }
            }
            guard let length else { finding("a \(status) response without Content-Length", bytes, request) }
            let bodyStart = headEnd + 4
            guard rest.endIndex - bodyStart >= length else { return }
            let body = rest[bodyStart..<(bodyStart + length)]
            if json {
                do {
                    _ = try JSONValue(parsing: String(decoding: body, as: UTF8.self))
                } catch {
                    finding("a \(status) application/json body that is not JSON (\(error))", bytes, request)
                }
            }
            rest = rest[(bodyStart + length)...]
        }
    }

    static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var i = haystack.startIndex
        while i <= haystack.endIndex - needle.count {
            if haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    static func finding(_ what: String, _ response: [UInt8], _ request: [UInt8]) -> Never {
        fatalError(
            "http harness: \(what)\nrequest: \(String(decoding: request.prefix(2000), as: UTF8.self).debugDescription)\n"
                + "response: \(String(decoding: response.prefix(2000), as: UTF8.self).debugDescription)")
    }
}
