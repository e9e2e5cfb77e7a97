/// What the runner found at each layer, as plain values: the input of ``Diagnosis``, which
/// turns facts into verdicts and hints. Tests build these directly, without sockets.

/// Layer 1: the resolver's answer.
public enum ResolveFacts: Sendable, Equatable {
    /// Addresses, in the resolver's order (`127.0.0.1:6001`, `[::1]:6001`).
    case resolved([String])
    /// The resolver's error text (`Name or service not known`).
    case failed(String)
    /// No answer within the step's time.
    case timedOut
}

/// Layer 2: one TCP attempt.
public struct ConnectAttempt: Sendable, Equatable {
    /// The address tried.
    public var address: String
    /// What happened.
    public var outcome: ConnectOutcome
    /// Milliseconds the attempt took.
    public var ms: Double

    /// Creates an attempt.
    public init(address: String, outcome: ConnectOutcome, ms: Double) {
        self.address = address
        self.outcome = outcome
        self.ms = ms
    }
}

/// How a TCP attempt ended.
public enum ConnectOutcome: Sendable, Equatable {
    /// The connection is open.
    case connected
    /// Refused: nothing listens there.
    case refused
    /// No route (the text is the system's).
    case unreachable(String)
    /// No answer in time (packets dropped).
    case timedOut
    /// Another socket error.
    case failed(String)
}

/// A certificate's fields (the peer's leaf).
public struct CertificateFacts: Sendable, Equatable {
    /// Subject, RFC 2253.
    public var subject: String
    /// Issuer, RFC 2253.
    public var issuer: String
    /// The subject's common name.
    public var commonName: String?
    /// DNS subject alternative names.
    public var dnsNames: [String]
    /// IP subject alternative names.
    public var ipAddresses: [String]
    /// Not before (Unix seconds).
    public var notBefore: Int
    /// Not after (Unix seconds).
    public var notAfter: Int

    /// Creates certificate facts.
    public init(
        subject: String, issuer: String, commonName: String? = nil, dnsNames: [String] = [],
        ipAddresses: [String] = [], notBefore: Int, notAfter: Int
    ) {
        self.subject = subject
        self.issuer = issuer
        self.commonName = commonName
        self.dnsNames = dnsNames
        self.ipAddresses = ipAddresses
        self.notBefore = notBefore
        self.notAfter = notAfter
    }

    /// The names the certificate is for: its SANs, else its common name.
    public var names: [String] {
        let sans = dnsNames + ipAddresses
        if !sans.isEmpty { return sans }
        return commonName.map { [$0] } ?? []
    }
}

/// Layer 3: a completed TLS handshake and the verification verdicts.
public struct TLSFacts: Sendable, Equatable {
    /// `TLSv1.3`.
    public var protocolVersion: String
    /// The cipher suite.
    public var cipher: String
    /// The leaf certificate, when one was sent.
    public var certificate: CertificateFacts?
    /// Subjects of the chain sent, leaf first.
    public var chainSubjects: [String]
    /// OpenSSL's verify result with the host checked (what the client sees); 0 is ok.
    public var verifyCode: Int
    /// OpenSSL's words for it.
    public var verifyReason: String
    /// The chain's verify result without the host check; 0 is ok.
    public var chainCode: Int
    /// OpenSSL's words for it.
    public var chainReason: String
    /// Whether the certificate names the host.
    public var hostMatches: Bool

    /// Creates TLS facts.
    public init(
        protocolVersion: String = "TLSv1.3", cipher: String = "", certificate: CertificateFacts?,
        chainSubjects: [String] = [], verifyCode: Int, verifyReason: String, chainCode: Int, chainReason: String,
        hostMatches: Bool
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

/// Layer 3's outcome.
public enum TLSOutcome: Sendable, Equatable {
    /// The handshake completed; verification verdicts inside.
    case completed(TLSFacts)
    /// The handshake failed (OpenSSL's words).
    case failed(String)
    /// No handshake in time.
    case timedOut
    /// The server closed the connection during the handshake.
    case closed
}

/// Layer 4: the server's answer to the upgrade request.
public struct UpgradeAnswer: Sendable, Equatable {
    /// The status line.
    public var statusLine: String
    /// The status code.
    public var status: Int
    /// Header fields, in order (name, value).
    public var headers: [HeaderLine]
    /// `Upgrade: websocket` present.
    public var upgradeWebSocket: Bool
    /// `Connection: Upgrade` present.
    public var connectionUpgrade: Bool
    /// `Sec-WebSocket-Accept` present.
    public var acceptPresent: Bool
    /// `Sec-WebSocket-Accept` right for the key sent.
    public var acceptValid: Bool
    /// The first bytes of a non-101 body.
    public var bodyPrefix: String

    /// Creates an answer.
    public init(
        statusLine: String, status: Int, headers: [HeaderLine] = [], upgradeWebSocket: Bool = false,
        connectionUpgrade: Bool = false, acceptPresent: Bool = false, acceptValid: Bool = false, bodyPrefix: String = ""
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

    /// The first value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name.lowercased() == lower }?.value
    }
}

/// Layer 4's outcome.
public enum UpgradeOutcome: Sendable, Equatable {
    /// The server answered (any status).
    case answered(UpgradeAnswer)
    /// The exchange failed (words: not HTTP, TLS bytes, a socket error).
    case failed(String)
    /// No answer in time.
    case timedOut
    /// The server closed the connection without answering.
    case closed
}

/// Layers 5–9: how the edge answered while a step waited for it.
public enum EdgeReply: Sendable, Equatable {
    /// A protocol message (the one the step was waiting for, or an error).
    case message(EdgeMessage)
    /// The edge closed the WebSocket with this code and reason.
    case closed(code: Int, reason: String)
    /// The connection ended without a close frame.
    case lost(String)
    /// The edge broke RFC 6455.
    case protocolError(String)
    /// Nothing decisive in time.
    case timedOut
}
