// What the inspector keeps of the client's network path and endpoint reports (`network` and
// `endpoint` lines): records, not the library's `NetworkPath` and `EndpointResolution`, so a
// recording can give them back.

import Foundation

/// The network path the client's monitor reported (the library's `NetworkPath`; a `network` line).
public struct NetworkPathRecord: Sendable, Equatable {
    /// Whether the client can reach the network (a default route through an interface that is
    /// up, or a path the monitor cannot tell: those count as usable).
    public var usable: Bool
    /// The path in words: `default via eth0 (IPv4, IPv6)`, `no default route`, `unknown: …`.
    public var description: String

    /// A path.
    public init(usable: Bool, description: String) {
        self.usable = usable
        self.description = description
    }
}

/// What the client did about the endpoint of a connection attempt, when an endpoint (or
/// handshake headers) provider is set (the library's `EndpointResolution`; an `endpoint` line).
public enum EndpointRecord: Sendable, Equatable {
    /// The provider was asked; the attempt waits for it.
    case resolving
    /// The answer: host, port (nil: the default for TLS or not), TLS, the socket URL without its
    /// query string, and the names of the handshake headers (never their values).
    case resolved(host: String, port: Int?, tls: Bool, url: String?, headerNames: [String])
    /// No usable answer: why (the attempt backs off).
    case failed(String)

    /// `resolving`, `resolved` or `failed`: the `phase` key of an `endpoint` line.
    public var phase: String {
        switch self {
        case .resolving: return "resolving"
        case .resolved: return "resolved"
        case .failed: return "failed"
        }
    }

    /// `host:port` of a resolved endpoint (the port TLS implies when none was given), bracketing
    /// an IPv6 address.
    public static func hostPort(host: String, port: Int?, tls: Bool) -> String {
        let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(shown):\(port ?? (tls ? 443 : 80))"
    }
}
