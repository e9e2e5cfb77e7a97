import Foundation
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

/// What a certificate says about itself (the peer's leaf, as sent in the TLS handshake).
public struct CertificateReport: Sendable, Equatable {
    /// The subject, RFC 2253 (`CN=a.example,O=Example`).
    public var subject: String
    /// The issuer, RFC 2253.
    public var issuer: String
    /// The subject's common name, when it has one.
    public var commonName: String?
    /// The DNS names of the subject alternative name extension.
    public var dnsNames: [String]
    /// The IP addresses of the subject alternative name extension, as text.
    public var ipAddresses: [String]
    /// Not valid before this time (Unix seconds).
    public var notBefore: Int
    /// Not valid after this time (Unix seconds).
    public var notAfter: Int

    /// Creates a report.
    public init(
        subject: String, issuer: String, commonName: String?, dnsNames: [String], ipAddresses: [String],
        notBefore: Int, notAfter: Int
    ) {
        self.subject = subject
        self.issuer = issuer
        self.commonName = commonName
        self.dnsNames = dnsNames
        self.ipAddresses = ipAddresses
        self.notBefore = notBefore
        self.notAfter = notAfter
    }
}

/// The outcome of a completed TLS handshake: the peer's certificate and the verdicts of the
/// same checks `WebSocketClient` and `HTTPClient` make (trust store plus CA file, host name).
public struct TLSReport: Sendable, Equatable {
    /// `TLSv1.3`, `TLSv1.2`.
    public var protocolVersion: String
    /// The negotiated cipher suite.
    public var cipher: String
    /// The peer's certificate, when it sent one.
    public var certificate: CertificateReport?
    /// Subjects of the chain the peer sent, leaf first.
    public var chainSubjects: [String]
    /// OpenSSL's verify result with the host name checked (0: verified) — what the client sees.
    public var verifyCode: Int
    /// OpenSSL's words for ``verifyCode`` (`ok`, `certificate has expired`, …).
    public var verifyReason: String
    /// The verify result of the chain alone, host name not checked (0: trusted and in date).
    public var chainCode: Int
    /// OpenSSL's words for ``chainCode``.
    public var chainReason: String
    /// Whether the certificate names the host (DNS or IP SAN, as OpenSSL matches them).
    public var hostMatches: Bool

    /// Whether the client would accept this connection.
    public var verified: Bool { verifyCode == 0 }

    /// Creates a report.
    public init(
        protocolVersion: String, cipher: String, certificate: CertificateReport?, chainSubjects: [String],
        verifyCode: Int, verifyReason: String, chainCode: Int, chainReason: String, hostMatches: Bool
    ) {
        self.protocolVersion = protocolVersion
        self.cipher = cipher
        self.certificate = certificate
        self.chainSubjects = chainSubjects
        self.verifyCode = verifyCode
        self.verifyReason = verifyReason
        self.chainCode = chainCode
        self.chainReason = chainReason
        self.hostMatches = hostMatches
    }
}

/// The server's answer to the WebSocket upgrade request, whatever it was.
public struct UpgradeReport: Sendable, Equatable {
    /// The status line as received (`HTTP/1.1 101 Switching Protocols`).
    public var statusLine: String
    /// The status code.
    public var status: Int
    /// Response header fields, in order.
    public var headers: [HTTPHeaderField]
    /// Whether `Upgrade` contains the token `websocket`.
    public var upgradeWebSocket: Bool
    /// Whether `Connection` contains the token `upgrade`.
    public var connectionUpgrade: Bool
    /// Whether a `Sec-WebSocket-Accept` field was present.
    public var acceptPresent: Bool
    /// Whether `Sec-WebSocket-Accept` is the value RFC 6455 requires for the key sent.
    public var acceptValid: Bool
    /// The first bytes of the body that came with a non-101 answer (at most 512), as text.
    public var bodyPrefix: String

    /// The first value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name.lowercased() == lower }?.value
    }

    /// Whether this is a valid WebSocket upgrade (101, the tokens, the right accept value, no
    /// extension we did not ask for).
    public var isWebSocket: Bool {
        status == 101 && upgradeWebSocket && connectionUpgrade && acceptValid
            && (header("Sec-WebSocket-Extensions") ?? "").isEmpty
    }

    /// Creates a report.
    public init(
        statusLine: String, status: Int, headers: [HTTPHeaderField], upgradeWebSocket: Bool,
        connectionUpgrade: Bool, acceptPresent: Bool, acceptValid: Bool, bodyPrefix: String
    ) {
        self.statusLine = statusLine
        self.status = status
        self.headers = headers
        self.upgradeWebSocket = upgradeWebSocket
        self.connectionUpgrade = connectionUpgrade
        self.acceptPresent = acceptPresent
        self.acceptValid = acceptValid
        self.bodyPrefix = bodyPrefix
    }
}

/// One HTTP header field.
public struct HTTPHeaderField: Sendable, Equatable {
    /// The name as received.
    public var name: String
    /// The value.
    public var value: String

    /// Creates a field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
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
