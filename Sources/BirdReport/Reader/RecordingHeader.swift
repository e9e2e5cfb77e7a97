import BirdWire

/// The first line of a recording (docs/RECORDING.md): what wrote it, against which edge, and
/// the channels subscribed at the start. Every field but `version` is optional, so a header
/// from a later writer with fewer or other keys still reads.
public struct RecordingHeader: Sendable, Equatable {
    /// The format version (1 or 2).
    public var version: Int
    /// The header's wall-clock `ts` (UTC ISO-8601), when present.
    public var startedAt: String?
    /// The writer, e.g. `bird-inspect 0.1.0`.
    public var tool: String?
    /// `bird` or `pusher`.
    public var dialect: String?
    /// The edge's host.
    public var host: String?
    /// The edge's port.
    public var port: Int?
    /// Whether the edge was reached over TLS.
    public var tls: Bool?
    /// The application key (public).
    public var appKey: String?
    /// The channels subscribed at the start.
    public var channels: [String]

    /// A header with only a version (tests, and recordings whose header has nothing else).
    public init(
        version: Int, startedAt: String? = nil, tool: String? = nil, dialect: String? = nil, host: String? = nil,
        port: Int? = nil, tls: Bool? = nil, appKey: String? = nil, channels: [String] = []
    ) {
        self.version = version
        self.startedAt = startedAt
        self.tool = tool
        self.dialect = dialect
        self.host = host
        self.port = port
        self.tls = tls
        self.appKey = appKey
        self.channels = channels
    }

    /// Reads the header's fields from its object; keys of the wrong type count as absent.
    init(version: Int, object: JSONObject) {
        self.init(
            version: version, startedAt: object["ts"]?.stringValue, tool: object["tool"]?.stringValue,
            dialect: object["dialect"]?.stringValue, host: object["host"]?.stringValue,
            port: object["port"]?.intValue, tls: object["tls"]?.boolValue, appKey: object["app_key"]?.stringValue,
            channels: object["channels"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    }
}
