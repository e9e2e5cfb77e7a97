/// What a certificate says about itself (the peer's leaf, as sent in the TLS handshake).
public struct CertificateFacts: Sendable, Equatable {
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
