import BirdWire
import Foundation
import WebSocket

/// Who may drive the control API: the rules that keep a web page the developer happens to open
/// from closing, restarting or publishing on the local sandbox. Checked from the request head,
/// before the body is read, and again by ``ControlAPI/handle(_:)``.
///
/// - `Origin`, when present, must be a loopback origin (`http://` or `https://` with a host
///   BirdWire's ``Loopback`` accepts — `localhost`, `127.x.y.z`, `[::1]` — any port): browsers
///   send it on every cross-origin request and on every POST and DELETE.
/// - `Host`, when present, must name a loopback host too (or the very host the sandbox was told
///   to listen on), so a DNS-rebound name (`evil.example` resolving to 127.0.0.1) cannot reach
///   the API even with requests that carry no `Origin`.
/// - A request with a body must say `Content-Type: application/json` (parameters allowed): a page
///   can send `text/plain` and form bodies without asking the browser first, JSON it cannot.
/// - No CORS grant: a preflight (`OPTIONS`) gets no `Access-Control-Allow-*` header, so a browser
///   never lets a page send a JSON body here or read an answer.
enum ControlAPIGate {
    /// Why the request may not reach the control API (status and message), or nil when it may.
    /// `listenHost` is the address the sandbox listens on (`--host`), also accepted as `Host`.
    static func refusal(method: String, headers: HTTPHeaders, hasBody: Bool, listenHost: String = "") -> (
        status: Int, message: String
    )? {
        if let origin = headers["Origin"], !isLoopbackOrigin(origin) {
            return (403, "the control API refuses requests from web pages (Origin \(brief(origin)) is not loopback)")
        }
        if let host = headers["Host"], !isLoopbackAuthority(host[...]), !names(host, listenHost) {
            return (403, "the control API answers only requests for a loopback host (Host \(brief(host)))")
        }
        if hasBody {
            guard let type = headers["Content-Type"], isJSONMediaType(type) else {
                let given = headers["Content-Type"].map { "not \(brief($0))" } ?? "none was given"
                return (415, "a control API body needs Content-Type: application/json (\(given))")
            }
        }
        return nil
    }

    /// Whether `origin` is `http(s)://` + a loopback host + an optional port, and nothing else.
    static func isLoopbackOrigin(_ origin: String) -> Bool {
        let text = origin.trimmingCharacters(in: .whitespaces)
        let lower = text.lowercased()
        for scheme in ["http://", "https://"] where lower.hasPrefix(scheme) {
            return isLoopbackAuthority(text.dropFirst(scheme.count))
        }
        return false
    }

    /// Whether `authority` is a loopback host (BirdWire's ``Loopback``: `localhost`, `127.x.y.z`,
    /// `[::1]`, `[::ffff:127.x.y.z]`), optionally with `:port` (1–65535).
    static func isLoopbackAuthority(_ authority: Substring) -> Bool {
        guard let (host, port) = Loopback.split(authority) else { return false }
        // A bare IPv6 address is not an authority (it needs brackets).
        guard !host.contains(":") || host.hasPrefix("[") else { return false }
        if let port {
            guard !port.isEmpty, port.utf8.count <= 5, port.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                let number = Int(port), (1...65535).contains(number)
            else { return false }
        }
        return Loopback.isLoopback(host: host)
    }

    /// Whether the `Host` value `host` (with or without a port) names `listenHost`, a concrete name
    /// or address (not a wildcard such as `0.0.0.0`).
    static func names(_ host: String, _ listenHost: String) -> Bool {
        let wanted = listenHost.lowercased()
        guard !wanted.isEmpty, wanted != "0.0.0.0", wanted != "::" else { return false }
        let bracketed = wanted.contains(":") ? "[\(wanted)]" : wanted
        let given = host.trimmingCharacters(in: .whitespaces).lowercased()
        return given == bracketed || given.hasPrefix(bracketed + ":")
    }

    /// Whether a Content-Type value is `application/json` (any case, parameters allowed).
    static func isJSONMediaType(_ value: String) -> Bool {
        let type = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return type.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
    }

    /// A header value for an error message: quoted, escaped, cut to 100 characters.
    private static func brief(_ value: String) -> String {
        JSONValue.string(String(value.prefix(100))).description
    }
}
