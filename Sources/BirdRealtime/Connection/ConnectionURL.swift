import Foundation

/// Builds the socket URL and checks transport security (docs/PROTOCOL.md § Framing, § Transport security).
enum ConnectionURL {
    /// The library version sent in the URL.
    static let libraryVersion = "0.1.0"

    /// Whether `host` is a loopback name the `allowInsecure` exception applies to.
    static func isLoopback(_ host: String) -> Bool {
        Loopback.isLoopback(host: host)
    }

    /// `ws[s]://HOST[:PORT]/app/KEY?protocol=7&client=swift&version=V`, or a configuration error.
    static func make(_ options: BirdRealtime.Options) throws(ConfigurationError) -> URL {
        let host = options.host ?? options.dialect.defaultHost(region: options.region)
        return try make(options, host: host, port: options.port, plain: options.allowInsecure)
    }

    /// The socket URL for an endpoint provider's answer, under the same rules as static options:
    /// plain `ws://` only for a loopback host and only with `allowInsecure`.
    static func make(_ options: BirdRealtime.Options, endpoint: RealtimeEndpoint) throws(ConfigurationError) -> URL {
        if !endpoint.useTLS && !options.allowInsecure {
            throw ConfigurationError(
                message: "the endpoint provider asked for plain ws:// to \(endpoint.host) but allowInsecure is off")
        }
        var host = endpoint.host
        if host.hasPrefix("[") && host.hasSuffix("]") && host.count > 2 { host = String(host.dropFirst().dropLast()) }
        // An answer may come from a server (a directory API): only host characters pass.
        guard
            host.unicodeScalars.allSatisfy({
                $0.isASCII && $0.value > 0x20 && $0.value < 0x7f && !"/?#@[]\\".unicodeScalars.contains($0)
            })
        else {
            throw ConfigurationError(
                message: "the endpoint provider's host \(host.debugDescription) is not a host name or address")
        }
        return try make(options, host: host, port: endpoint.port, plain: !endpoint.useTLS)
    }

    private static func make(
        _ options: BirdRealtime.Options, host: String, port: Int?, plain: Bool
    ) throws(ConfigurationError) -> URL {
        guard !options.appKey.isEmpty else { throw ConfigurationError(message: "appKey is empty") }
        guard !host.isEmpty else { throw ConfigurationError(message: "host is empty") }
        if plain {
            guard isLoopback(host) else {
                throw ConfigurationError(
                    message:
                        "allowInsecure is honoured only for localhost, 127.0.0.1 and [::1]; refusing plain ws:// to \(host)"
                )
            }
        }
        var hostPart = host
        if host.contains(":") && !host.hasPrefix("[") { hostPart = "[\(host)]" }
        if let port {
            guard (1...65535).contains(port) else { throw ConfigurationError(message: "port \(port) is out of range") }
            hostPart += ":\(port)"
        }
        let key =
            options.appKey.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"]))
            ?? options.appKey
        let text =
            "\(plain ? "ws" : "wss")://\(hostPart)/app/\(key)?protocol=\(BirdProtocol.version)&client=swift&version=\(libraryVersion)"
        guard let url = URL(string: text) else {
            throw ConfigurationError(message: "cannot form a URL for host \(host)")
        }
        return url
    }

    /// Checks that an auth endpoint uses TLS, or plain HTTP only to loopback with `allowInsecure`.
    static func checkEndpoint(_ url: URL, allowInsecure: Bool) throws(ConfigurationError) {
        let scheme = url.scheme?.lowercased() ?? ""
        let host = url.host ?? ""
        switch scheme {
        case "https":
            return
        case "http":
            guard allowInsecure, isLoopback(host) else {
                throw ConfigurationError(
                    message:
                        "plain http:// auth endpoints are allowed only for localhost, 127.0.0.1 and [::1] with allowInsecure; refusing \(host)"
                )
            }
        default:
            throw ConfigurationError(
                message: "auth endpoint must be https:// (got \(scheme.isEmpty ? "no scheme" : scheme))")
        }
    }
}
