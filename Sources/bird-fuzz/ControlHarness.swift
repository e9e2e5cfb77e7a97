import BirdSandbox
import BirdWire
import WebSocket

extension FuzzHarness {
    /// The sandbox's control API, in-process with no sockets: head screening (loopback, Origin,
    /// Host, Content-Type), routes, every field's type and range, and the actions on an in-memory
    /// edge; what the API promises is checked after every input.
    static let control = FuzzHarness(
        name: "control",
        summary: "bytes (a route byte + JSON body, or 'S' + method/target/headers/body) -> ControlAPIProbe "
            + "(both dialects); answers must be JSON, refusals must hold, accepted values must be in range",
        entry: { data, size in
            ControlFuzz.run(data.fuzzBytes(count: size))
            return 0
        })
}

/// The control harness.
///
/// Inputs are either
/// - raw: the first byte picks a route (`ControlFuzz.routes`, modulo their count) and the dialect
///   (its top bit); the rest is the JSON body, sent as `POST` with `Content-Type: application/json`
///   from 127.0.0.1 — the fast way into each call's field validation; or
/// - structured, starting with `S`: `S<flags>\nMETHOD\nTARGET\nName: value\n…\n\nBODY` with the
///   headers exactly as given (flag `p`: pusher dialect, `r`: from 192.0.2.1, off loopback). In
///   TARGET, `{id}` stands for an open connection's id.
///
/// Findings (besides crashes): a status the API never answers; a body that is not a JSON object
/// (204 has none); an error without its `error` string; a 2xx for a caller off loopback, a
/// foreign Origin or Host, or a body without the JSON Content-Type; a 2xx that left a close code,
/// reason, refusal, restart or burst outside its documented range.
enum ControlFuzz {
    static let routes = [
        "close-all", "refuse", "handshake", "restart", "auth-failure", "publish", "burst", "connections/{id}/close",
        "connections/{id}/send", "connections/{id}/drop", "connections/{id}/silence", "connections",
    ]

    /// One probe per dialect, kept between inputs (reset before each).
    nonisolated(unsafe) static let probes = Dialect.allCases.map { ControlAPIProbe(dialect: $0) }

    static func run(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        let (request, pusher) = first == UInt8(ascii: "S") ? structured(bytes) : raw(bytes)
        let probe = probes[pusher ? 1 : 0]
        probe.reset()
        let response = probe.handle(request)
        check(response, request: request, probe: probe)
    }

    // MARK: Inputs

    static func raw(_ bytes: [UInt8]) -> (HTTPRequest, Bool) {
        let first = bytes[0]
        let route = routes[Int(first & 0x7F) % routes.count]
        let id = probes[first >= 0x80 ? 1 : 0].links.first?.id ?? "1.1"
        let request = HTTPRequest(
            method: "POST", target: "/sandbox/" + route.replacingOccurrences(of: "{id}", with: id),
            headers: ["Host": "127.0.0.1:6001", "Content-Type": "application/json"], body: Array(bytes.dropFirst()),
            remoteAddress: "127.0.0.1:5000")
        return (request, first >= 0x80)
    }

    static func structured(_ bytes: [UInt8]) -> (HTTPRequest, Bool) {
        let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
        var lines = text.split(separator: "\n", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
        while lines.count < 4 { lines.append("") }
        let flags = lines[0]
        let pusher = flags.contains("p")
        let id = probes[pusher ? 1 : 0].links.first?.id ?? "1.1"
        let target = lines[2].replacingOccurrences(of: "{id}", with: id)
        var headers = HTTPHeaders()
        var rest = Substring(lines[3])
        while !rest.isEmpty {
            let end = rest.firstIndex(of: "\n") ?? rest.endIndex
            let line = rest[..<end]
            rest = end < rest.endIndex ? rest[rest.index(after: end)...] : rest[end...]
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            headers.add(name: String(line[..<colon]), value: String(value))
        }
        let remote = flags.contains("r") ? "192.0.2.1:5000" : "127.0.0.1:5000"
        let request = HTTPRequest(
            method: lines[1], target: target.isEmpty ? "/" : target, headers: headers, body: Array(rest.utf8),
            remoteAddress: remote)
        return (request, pusher)
    }

    // MARK: Promises

    static func check(_ response: HTTPResponse, request: HTTPRequest, probe: ControlAPIProbe) {
        let status = response.status
        guard [200, 204, 400, 403, 404, 415].contains(status) else { fail("status \(status)", request, response) }
        let text = String(decoding: response.body, as: UTF8.self)
        if status == 204 {
            guard response.body.isEmpty else { fail("a 204 with a body", request, response) }
        } else {
            guard let value = try? JSONValue(parsing: text), value.objectValue != nil || value.arrayValue != nil else {
                fail("a body that is not JSON", request, response)
            }
            if status >= 400, value["error"]?.stringValue?.isEmpty != false {
                fail("an error without its message", request, response)
            }
        }
        guard (200..<300).contains(status) else { return }
        if !request.remoteAddress.hasPrefix("127.") { fail("served a caller off loopback", request, response) }
        if let origin = request.headers["Origin"], !looksLoopback(origin, schemes: true) {
            fail("served a foreign Origin", request, response)
        }
        if let host = request.headers["Host"], !looksLoopback(host, schemes: false) {
            fail("served a foreign Host", request, response)
        }
        if !request.body.isEmpty,
            request.headers["Content-Type"]?.lowercased().contains("application/json") != true
        {
            fail("took a body without the JSON Content-Type", request, response)
        }
        for (_, link) in probe.links {
            if let (code, reason) = link.closed {
                if !isSendable(code) || reason.utf8.count > 123 {
                    fail("closed with \(code) \(reason)", request, response)
                }
            }
        }
        if let refusal = probe.refusal {
            if !isSendable(refusal.code) || refusal.reason.utf8.count > 123 {
                fail("refusing with \(refusal.code)", request, response)
            }
            if let until = refusal.until, !(until > 1_800_000_000 && until <= 1_800_000_000 + 86_400) {
                fail("refusing until \(until)", request, response)
            }
        }
        if let failure = probe.authFailure, !(400...599).contains(failure.status) {
            fail("auth failing with \(failure.status)", request, response)
        }
        if !(0...1_000_000).contains(probe.omitHandshakeIds) {
            fail("omitting \(probe.omitHandshakeIds)", request, response)
        }
        for restart in probe.restarts
        where !isSendable(restart.code) || !(0...3600).contains(restart.downSeconds) {
            fail("restart \(restart)", request, response)
        }
        for burst in probe.bursts
        where !(0...1_000_000).contains(burst.count) || !(burst.rate == 0 || (0.01...100_000).contains(burst.rate)) {
            fail("burst \(burst)", request, response)
        }
    }

    /// An independent, deliberately simple reading of "loopback" for origins and hosts.
    static func looksLoopback(_ value: String, schemes: Bool) -> Bool {
        var rest = Substring(value.lowercased())
        if schemes {
            if rest.hasPrefix("http://") {
                rest = rest.dropFirst(7)
            } else if rest.hasPrefix("https://") {
                rest = rest.dropFirst(8)
            } else {
                return false
            }
        }
        return rest.hasPrefix("127.") || rest.hasPrefix("localhost") || rest.hasPrefix("[::1]")
    }

    static func isSendable(_ code: Int) -> Bool {
        (1000...1003).contains(code) || (1007...1014).contains(code) || (3000...4999).contains(code)
    }

    static func fail(_ what: String, _ request: HTTPRequest, _ response: HTTPResponse) -> Never {
        fatalError(
            "control API broke a promise: \(what): \(request.method) \(request.target) \(request.headers) "
                + "body \(String(decoding: request.body.prefix(300), as: UTF8.self)) -> \(response.status) "
                + String(decoding: response.body.prefix(300), as: UTF8.self))
    }
}
