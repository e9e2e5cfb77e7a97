import Foundation
import ProbeFacts
#if canImport(Glibc)
    import Glibc
#endif

/// Why a ``ConnectionProbe`` step did not complete. Messages never include secrets.
public enum ProbeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The step's deadline passed.
    case timedOut
    /// The peer refused the TCP connection (nothing listens there).
    case refused
    /// No route to the address (network down, firewall answering with an ICMP error).
    case unreachable(String)
    /// The peer closed the connection.
    case closed
    /// The step cannot run in this state (no connection, or TLS that failed verification).
    case notReady(String)
    /// Anything else, in words (DNS, socket, TLS handshake errors).
    case failed(String)

    /// A one-line description.
    public var description: String {
        switch self {
        case .timedOut: return "timed out"
        case .refused: return "connection refused"
        case .unreachable(let s): return "unreachable: \(s)"
        case .closed: return "connection closed by the peer"
        case .notReady(let s): return "not ready: \(s)"
        case .failed(let s): return s
        }
    }
}

/// One resolved address of a host.
public struct ProbeAddress: Sendable, Equatable, CustomStringConvertible {
    let address: SocketAddress

    /// `1.2.3.4:443` or `[::1]:443`.
    public var description: String { address.description }
    /// Whether this is an IPv6 address.
    public var isIPv6: Bool { address.family == AF_INET6 }

    public static func == (a: ProbeAddress, b: ProbeAddress) -> Bool { a.description == b.description }
}

/// What ``ConnectionProbe/receive(timeout:)`` got from an open WebSocket.
public enum ProbeMessage: Sendable, Equatable {
    /// A text message.
    case text(String)
    /// A binary message of this many bytes.
    case binary(Int)
    /// A pong frame.
    case pong
    /// The peer's close frame (code 1005 when it carried none); the probe answered it.
    case closed(code: Int, reason: String)
    /// The connection ended without a close frame (TCP closed or failed).
    case connectionLost(String)
    /// The peer broke RFC 6455 (the probe closed the connection).
    case protocolError(String)
    /// Nothing arrived before the deadline.
    case timedOut
}
