/// The layers `bird-inspect doctor` checks, in order; each needs the ones before it.
public enum DoctorLayer: Int, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    /// DNS: the host's addresses.
    case resolve = 1
    /// TCP to one of the addresses.
    case connect
    /// TLS: certificate, chain and host name.
    case tls
    /// The WebSocket upgrade (HTTP 101).
    case upgrade
    /// The protocol handshake (`connection_established`).
    case handshake
    /// A protocol ping answered by a pong.
    case ping
    /// A public channel subscription.
    case subscribe
    /// The auth endpoint, and a private channel subscribed with its signature.
    case auth
    /// Sign-in through the member auth endpoint.
    case signin

    /// The step's name in output (`resolve`, `connect`, …).
    public var name: String {
        switch self {
        case .resolve: return "resolve"
        case .connect: return "connect"
        case .tls: return "tls"
        case .upgrade: return "upgrade"
        case .handshake: return "handshake"
        case .ping: return "ping"
        case .subscribe: return "subscribe"
        case .auth: return "auth"
        case .signin: return "signin"
        }
    }

    /// A short title for people (`DNS`, `TCP`, `TLS`, …), used in "skipped: TCP failed".
    public var title: String {
        switch self {
        case .resolve: return "DNS"
        case .connect: return "TCP"
        case .tls: return "TLS"
        case .upgrade: return "the WebSocket upgrade"
        case .handshake: return "the protocol handshake"
        case .ping: return "ping"
        case .subscribe: return "the public subscription"
        case .auth: return "the auth endpoint"
        case .signin: return "sign-in"
        }
    }

    /// The process exit code when this is the first failing layer: 10 + the layer's number
    /// (11 resolve … 19 signin), so 1 and 2 stay free for "could not run" and bad flags.
    public var exitCode: Int32 { Int32(10 + rawValue) }

    public var description: String { name }

    public static func < (a: DoctorLayer, b: DoctorLayer) -> Bool { a.rawValue < b.rawValue }
}

/// Exit codes of `bird-inspect doctor` other than the per-layer ones (``DoctorLayer/exitCode``).
public enum DoctorExit {
    /// Every layer passed (or was skipped for a reason that is not a failure).
    public static let passed: Int32 = 0
    /// The doctor could not run (for example, the embedded sandbox did not start).
    public static let couldNotRun: Int32 = 1
    /// Bad flags or values.
    public static let usage: Int32 = 2
}
