/// Where one connection attempt goes, as an endpoint provider answers it
/// (``BirdRealtime/Options/endpointProvider``): the edge's host, port and whether to use TLS.
///
/// The answer goes through the same rules as static options (docs/PROTOCOL.md § Transport
/// security): plain `ws://` (`useTLS == false`) is honoured only for `localhost`, `127.0.0.1` and
/// `[::1]`, and only with `Options.allowInsecure`; TLS is always verified (with `Options.caFile`
/// when set). The path and query of the socket URL (`/app/KEY?protocol=7&…`) come from the
/// options as usual.
public struct RealtimeEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The edge's host name or IP address (an IPv6 address with or without brackets).
    public var host: String
    /// The port; nil means 443 with TLS, 80 without.
    public var port: Int?
    /// Whether to connect with TLS (`wss://`); `false` needs a loopback host and `allowInsecure`.
    public var useTLS: Bool

    /// Creates an endpoint.
    public init(host: String, port: Int? = nil, useTLS: Bool = true) {
        self.host = host
        self.port = port
        self.useTLS = useTLS
    }

    /// `wss://edge.example.com:443`, without the path.
    public var description: String {
        var hostPart = host
        if host.contains(":") && !host.hasPrefix("[") { hostPart = "[\(host)]" }
        return "\(useTLS ? "wss" : "ws")://\(hostPart)\(port.map { ":\($0)" } ?? "")"
    }
}

/// What the client is doing about the endpoint of the connection attempt under way, when an
/// endpoint provider or a handshake headers provider is set (`onEndpointResolution`, and
/// ``ClientActivity/endpoint(_:)`` in `onActivity`). The state is `connecting` throughout.
public enum EndpointResolution: Sendable, Equatable, CustomStringConvertible {
    /// The providers were asked; the client waits for them (at most `Options.endpointTimeout`).
    case resolving
    /// The answer: the endpoint (the static one when only headers are provided), the socket URL
    /// about to be opened, and the names of the handshake headers (values are never reported).
    case resolved(endpoint: RealtimeEndpoint, url: String, headerNames: [String])
    /// No usable answer (the reason names the provider); the client takes the backoff path with
    /// ``StateChangeCause/endpointUnavailable(_:)``.
    case failed(String)

    public var description: String {
        switch self {
        case .resolving: return "resolving endpoint"
        case .resolved(let endpoint, _, let names):
            return names.isEmpty
                ? "endpoint \(endpoint)" : "endpoint \(endpoint) (headers: \(names.joined(separator: ", ")))"
        case .failed(let reason): return "endpoint unavailable: \(reason)"
        }
    }
}

/// Which network path monitor a client uses (``BirdRealtime/Options/networkMonitor``).
public enum NetworkMonitorChoice: Sendable {
    /// The platform's monitor: ``NetlinkPathMonitor`` on Linux; on other platforms none yet (the
    /// same as ``disabled``). Not started for a loopback edge (`localhost`, `127.0.0.1`, `[::1]`)
    /// given as a static host, which is reachable whatever the routes say.
    case system
    /// No monitor: the client retries with backoff whatever the network does.
    case disabled
    /// This monitor (a test's `ManualNetworkPathMonitor`, or one an app already runs), used for
    /// every host, loopback included. One monitor serves one client.
    case custom(any NetworkPathMonitor)
}
