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
    /// then were not received, unless the subscription that ended the gap recovered them: Bird
    /// dialect continuity, ``Gap/continuity``).
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
    /// What the subscription that ended it said about continuity (Bird dialect: `recovered`,
    /// `missed`, `unknown`, `fresh`); nil when nothing was recorded.
    public var continuity: String?
    /// The events missed, as that subscription counted them (0 when recovered).
    public var missed: Int?

    /// A gap.
    public init(startMs: Double, endMs: Double, open: Bool = false, continuity: String? = nil, missed: Int? = nil) {
        self.startMs = startMs
        self.endMs = endMs
        self.open = open
        self.continuity = continuity
        self.missed = missed
    }

    /// Its length.
    public var durationMs: Double { endMs - startMs }

    /// What was lost, in words: `nothing missed (replayed)`, `37 events missed`, `events may have
    /// been missed`; nil for an open gap or when nothing was recorded about it.
    public var lossText: String? {
        guard !open else { return nil }
        switch continuity {
        case "recovered": return "nothing missed (replayed)"
        case "missed": return missed.map { ReportFormat.count($0, "event") + " missed" } ?? "events missed"
        case "unknown": return "events may have been missed"
        default: return nil
        }
    }
}
