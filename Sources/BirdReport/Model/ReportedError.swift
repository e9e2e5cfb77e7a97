/// An error the session reported: an `error`, `subscription_error`, `signin_error` or
/// `command_error` line.
public struct ReportedError: Sendable, Equatable {
    /// When (ms).
    public var atMs: Double
    /// The wall-clock `ts` of the line.
    public var timestamp: String?
    /// The line's type.
    public var kind: String
    /// The error code (`error` lines) or HTTP status (`subscription_error`).
    public var code: Int?
    /// The channel it names.
    public var channel: String?
    /// The message.
    public var message: String
    /// More: the close reason, the subscription error's type, the command.
    public var detail: String?

    /// An error.
    public init(
        atMs: Double, timestamp: String? = nil, kind: String, code: Int? = nil, channel: String? = nil,
        message: String, detail: String? = nil
    ) {
        self.atMs = atMs
        self.timestamp = timestamp
        self.kind = kind
        self.code = code
        self.channel = channel
        self.message = message
        self.detail = detail
    }
}
