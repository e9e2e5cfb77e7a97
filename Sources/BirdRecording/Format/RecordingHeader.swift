import BirdWire
import Foundation

/// The first line of a recording (docs/RECORDING.md): what wrote it, against which edge, and the
/// channels subscribed at the start. Read back, every key but `version` is optional (a header from
/// another writer with fewer or other keys still reads; a key of the wrong type reads as absent).
public struct RecordingHeader: Sendable, Equatable {
    /// Format version.
    public var version: Int
    /// The header's `ts` as written (UTC ISO-8601), when present.
    public var timestamp: String?
    /// The program that wrote it ("bird-inspect 0.1.0").
    public var tool: String?
    /// `bird` or `pusher`.
    public var dialect: String?
    /// Edge host.
    public var host: String?
    /// Edge port (0…65535).
    public var port: Int?
    /// Whether the socket used TLS.
    public var tls: Bool?
    /// The application key (public; never the secret).
    public var appKey: String?
    /// Channels subscribed at the start.
    public var channels: [String]

    /// A header.
    public init(
        version: Int = RecordingFormat.version, timestamp: String? = nil, tool: String? = nil, dialect: String? = nil,
        host: String? = nil, port: Int? = nil, tls: Bool? = nil, appKey: String? = nil, channels: [String] = []
    ) {
        self.version = version
        self.timestamp = timestamp
        self.tool = tool
        self.dialect = dialect
        self.host = host
        self.port = port
        self.tls = tls
        self.appKey = appKey
        self.channels = channels
    }

    /// The header's fields from its line (`version` checked by the reader).
    init(version: Int, fields f: RecordingFields) {
        self.init(
            version: version, timestamp: f.string("ts"), tool: f.string("tool"), dialect: f.string("dialect"),
            host: f.string("host"), port: f.int("port").flatMap { (0...65535).contains($0) ? $0 : nil },
            tls: f.bool("tls"), appKey: f.string("app_key"),
            channels: f.value("channels")?.arrayValue?.compactMap(\.stringValue) ?? [])
    }

    /// When the recording started (the `ts`), when readable.
    public var startedAt: Date? { timestamp.flatMap(RecordingTime.parse) }
}
