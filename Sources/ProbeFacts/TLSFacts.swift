/// The outcome of a completed TLS handshake: the peer's certificate and the verdicts of the
/// same checks the client makes (trust store plus CA file, host name).
public struct TLSFacts: Sendable, Equatable {
    /// `TLSv1.3`, `TLSv1.2`.
    public var protocolVersion: String
    /// The negotiated cipher suite.
    public var cipher: String
    /// The peer's certificate, when it sent one.
    public var certificate: CertificateFacts?
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
