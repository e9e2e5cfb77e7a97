import BirdWire

/// What one channel went through: when it was subscribed, its errors, the events it received
/// (counted per time bucket), and the stretches when it was not subscribed.
public struct ChannelSummary: Sendable, Equatable {
    /// The channel's name.
    public var name: String
    /// Its kind, from the name's prefix.
    public var kind: ChannelKind
    /// Each `subscribed` (ms).
    public var subscribedAtMs: [Double]
    /// Its `subscription_error`s.
    public var errors: [ChannelError]
    /// Events received.
    public var eventCount: Int
    /// Client events sent.
    public var sentCount: Int
    /// Events received by name, most frequent first (ties by name).
    public var eventNames: [NameCount]
    /// Events received per bucket of ``SessionSummary/bucketMs``.
    public var buckets: [Int]
    /// Stretches after the first subscription when the channel was not subscribed (events sent
    /// then were not received: no event is replayed after a gap).
    public var gaps: [Gap]
    /// The longest time between two events received while subscribed (ms), when it had two.
    public var longestQuietMs: Double?

    /// A channel seen nowhere yet.
    public init(name: String) {
        self.name = name
        self.kind = ChannelKind(channelName: name)
        self.subscribedAtMs = []
        self.errors = []
        self.eventCount = 0
        self.sentCount = 0
        self.eventNames = []
        self.buckets = []
        self.gaps = []
        self.longestQuietMs = nil
    }
}

/// A name and how often it was seen.
public struct NameCount: Sendable, Equatable {
    /// The name.
    public var name: String
    /// How often.
    public var count: Int

    /// A count.
    public init(name: String, count: Int) {
        self.name = name
        self.count = count
    }
}

/// A `subscription_error` on a channel.
public struct ChannelError: Sendable, Equatable {
    /// When (ms).
    public var atMs: Double
    /// The error type (`AuthError`, `Timeout`, …).
    public var type: String?
    /// The HTTP status of a failed authorization.
    public var status: Int?
    /// The message.
    public var message: String?

    /// An error.
    public init(atMs: Double, type: String? = nil, status: Int? = nil, message: String? = nil) {
        self.atMs = atMs
        self.type = type
        self.status = status
        self.message = message
    }
}

/// A stretch of time (ms); `open` when the recording ended inside it.
public struct Gap: Sendable, Equatable {
    /// Start (ms).
    public var startMs: Double
    /// End (ms).
    public var endMs: Double
    /// Whether the recording ended before the gap did.
    public var open: Bool

    /// A gap.
    public init(startMs: Double, endMs: Double, open: Bool = false) {
        self.startMs = startMs
        self.endMs = endMs
        self.open = open
    }

    /// Its length.
    public var durationMs: Double { endMs - startMs }
}
