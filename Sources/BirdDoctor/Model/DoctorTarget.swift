import BirdWire

/// What a doctor run checks, with every default resolved: where to connect, how, and which
/// channels and endpoints to try. Built from ``DoctorOptions`` (or for the embedded sandbox).
public struct DoctorTarget: Sendable, Equatable {
    /// The edge host.
    public var host: String
    /// The edge port.
    public var port: Int
    /// Whether the connection uses TLS (`wss://`).
    public var tls: Bool
    /// The app key in the socket path.
    public var appKey: String
    /// The wire dialect.
    public var dialect: Dialect
    /// An extra CA file trusted for the edge and the auth endpoints.
    public var caFile: String?
    /// The time each step may take.
    public var timeout: Duration
    /// The public channel subscribed in layer 7.
    public var publicChannel: String
    /// The private or presence channel authorized and subscribed in layer 8.
    public var authChannel: String
    /// The channel auth endpoint, when configured.
    public var authEndpoint: String?
    /// Headers sent to the auth endpoints (values are secrets).
    public var authHeaders: [HeaderLine]
    /// The sign-in endpoint, when configured.
    public var memberAuthEndpoint: String?
    /// The app secret when it is known (the embedded sandbox's): signatures are then verified
    /// here too. Never shown.
    public var knownSecret: String?
    /// "embedded sandbox" when the run is against it; nil otherwise.
    public var note: String?
    /// The region the host came from (nil when `--host` named it): hints mention it.
    public var region: String?

    /// Creates a target.
    public init(
        host: String, port: Int, tls: Bool, appKey: String, dialect: Dialect = .bird, caFile: String? = nil,
        timeout: Duration = .seconds(5), publicChannel: String = DoctorOptions.defaultChannel,
        authChannel: String = "private-" + DoctorOptions.defaultChannel, authEndpoint: String? = nil,
        authHeaders: [HeaderLine] = [], memberAuthEndpoint: String? = nil, knownSecret: String? = nil,
        note: String? = nil, region: String? = nil
    ) {
        self.host = host
        self.port = port
        self.tls = tls
        self.appKey = appKey
        self.dialect = dialect
        self.caFile = caFile
        self.timeout = timeout
        self.publicChannel = publicChannel
        self.authChannel = authChannel
        self.authEndpoint = authEndpoint
        self.authHeaders = authHeaders
        self.memberAuthEndpoint = memberAuthEndpoint
        self.knownSecret = knownSecret
        self.note = note
        self.region = region
    }

    /// The client name and version sent in the socket URL.
    public static let clientQuery = "protocol=\(BirdProtocol.version)&client=bird-doctor&version=0.1.0"

    /// The host as it appears in URLs and the Host header (`[::1]` for IPv6 literals).
    public var hostPart: String { host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host }

    /// `/app/<key>?protocol=7&client=bird-doctor&version=…` (the key percent-encoded).
    public var requestTarget: String {
        "/app/\(DoctorTarget.percentEncodePath(appKey))?\(DoctorTarget.clientQuery)"
    }

    /// The Host header: the port only when it is not the scheme's default.
    public var hostHeader: String { port == (tls ? 443 : 80) ? hostPart : "\(hostPart):\(port)" }

    /// `ws[s]://host[:port]/app/<key>` (no query), for people.
    public var url: String { "\(tls ? "wss" : "ws")://\(hostHeader)/app/\(appKey)" }

    /// Everything that must never appear in output: header values (and their tokens), secret
    /// query values of the endpoints' URLs, and the known secret. Signatures are redacted by
    /// pattern in the renderers.
    public var secrets: [String] {
        var out: [String] = []
        for header in authHeaders {
            out.append(header.value)
            // `Bearer <token>`: the token alone too (not the scheme word, which is shown).
            if let space = header.value.firstIndex(of: " ") {
                out.append(header.value[header.value.index(after: space)...].trimmingCharacters(in: " "))
            }
        }
        for endpoint in [authEndpoint, memberAuthEndpoint].compactMap({ $0 }) {
            out += Redaction.endpointSecrets(endpoint)
        }
        if let knownSecret { out.append(knownSecret) }
        return out.filter { $0.count >= 4 }
    }

    static func percentEncodePath(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF")
                out += "%\(digits[Int(byte >> 4)])\(digits[Int(byte & 0x0F)])"
            }
        }
        return out
    }
}

extension HeaderLine {
    /// Parses `Name: value`; nil without a name before a colon.
    public init?(parsing line: String) {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let name = line[..<colon].trimmingCharacters(in: " \t")
        guard !name.isEmpty, !name.contains(" ") else { return nil }
        self.init(name: name, value: line[line.index(after: colon)...].trimmingCharacters(in: " \t"))
    }

    /// `Name: <redacted>` (`Authorization: Bearer <redacted>`: a scheme word is kept), for
    /// output. Every value is treated as a secret, whatever the header's name.
    public var redacted: String {
        Redaction.headerLine(name: name, value: value)
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        var s = self
        while let first = s.first, set.contains(first) { s = s.dropFirst() }
        while let last = s.last, set.contains(last) { s = s.dropLast() }
        return String(s)
    }
}
