/// An `auth` line: one authorization request and its result (never its body).
public struct AuthRequest: Sendable, Equatable {
    /// When the answer (or the failure) arrived (ms).
    public var atMs: Double
    /// The wall-clock `ts` of the line.
    public var timestamp: String?
    /// `channel` or `signin`.
    public var kind: String
    /// Scheme, host, port and path only.
    public var endpoint: String?
    /// The channel, for a channel request.
    public var channel: String?
    /// The HTTP status, when an answer came.
    public var status: Int?
    /// Why no answer came (refused, timeout, TLS).
    public var error: String?
    /// Request to answer (ms).
    public var durationMs: Double?

    /// A request.
    public init(
        atMs: Double, timestamp: String? = nil, kind: String, endpoint: String? = nil, channel: String? = nil,
        status: Int? = nil, error: String? = nil, durationMs: Double? = nil
    ) {
        self.atMs = atMs
        self.timestamp = timestamp
        self.kind = kind
        self.endpoint = endpoint
        self.channel = channel
        self.status = status
        self.error = error
        self.durationMs = durationMs
    }

    /// Whether it failed: no answer, or a status outside 2xx.
    public var failed: Bool {
        guard let status else { return true }
        return !(200..<300).contains(status)
    }

    /// The result in a word: the status, or `error`.
    public var resultLabel: String { status.map(String.init) ?? "no answer" }
}
