/// Why a connection (or an HTTP request) failed. Messages never include secrets.
public enum WebSocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL is not usable (scheme, host).
    case invalidURL(String)
    /// The host name could not be resolved.
    case dnsFailure(host: String, message: String)
    /// Every address of the host refused the TCP connection.
    case connectionRefused(host: String, port: Int)
    /// The connection (TCP, TLS and opening handshake) did not complete in time.
    case connectTimeout(host: String, port: Int)
    /// A socket error.
    case network(String)
    /// TLS failed: certificate verification (reason from OpenSSL) or the handshake itself.
    case tls(host: String, reason: String)
    /// The server answered the upgrade with a status other than 101.
    case handshakeRejected(status: Int, statusLine: String)
    /// The server's 101 answer is not a valid WebSocket upgrade.
    case handshakeInvalid(String)
    /// The peer violated RFC 6455.
    case protocolViolation(WebSocketProtocolError)
    /// A send would grow the outbound buffer past its limit.
    case outboundBufferFull(limit: Int)
    /// The connection is not open.
    case notConnected
    /// An HTTP response could not be parsed.
    case httpMalformedResponse(String)
    /// The operation did not complete in time.
    case timeout

    /// A one-line description.
    public var description: String {
        switch self {
        case .invalidURL(let s): return "invalid URL: \(s)"
        case .dnsFailure(let host, let message): return "cannot resolve \(host): \(message)"
        case .connectionRefused(let host, let port): return "connection refused by \(host):\(port)"
        case .connectTimeout(let host, let port): return "timed out connecting to \(host):\(port)"
        case .network(let s): return "network error: \(s)"
        case .tls(let host, let reason): return "TLS error with \(host): \(reason)"
        case .handshakeRejected(_, let line): return "handshake rejected: \(line)"
        case .handshakeInvalid(let s): return "invalid handshake: \(s)"
        case .protocolViolation(let e): return "protocol violation: \(e)"
        case .outboundBufferFull(let limit): return "outbound buffer full (limit \(limit) bytes)"
        case .notConnected: return "not connected"
        case .httpMalformedResponse(let s): return "malformed HTTP response: \(s)"
        case .timeout: return "timed out"
        }
    }
}
