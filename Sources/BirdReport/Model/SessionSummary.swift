import BirdRecording

/// What happened in a recorded session, as plain values: the state spans, every lost connection
/// and failed attempt, the outages and retries, the channels, the auth requests, the errors and
/// the other marked moments. Built from a ``Recording`` by ``init(recording:)``; rendered by
/// ``HTMLReport``; matched against the built-in scenarios by ``ScenarioMatcher``.
public struct SessionSummary: Sendable, Equatable {
    /// The recording's header.
    public var header: RecordingHeader
    /// The last entry's time (ms): the length of the recording.
    public var endMs: Double
    /// The states, back to back from 0 to ``endMs``.
    public var spans: [StateSpan]
    /// Every `state` line.
    public var changes: [StateChange]
    /// Connections lost and attempts failed, in order.
    public var ends: [ConnectionEnd]
    /// Times without a connection after one was established.
    public var outages: [Outage]
    /// Scheduled retries.
    public var retries: [RetryWait]
    /// Channels, in the order they were first seen (the header's first).
    public var channels: [ChannelSummary]
    /// Authorization requests.
    public var auth: [AuthRequest]
    /// Errors reported.
    public var errors: [ReportedError]
    /// Network changes, scenario steps, dropped entries.
    public var markers: [Marker]
    /// Pings the client sent (`wire` out `…:ping`), and whether anything arrived after each
    /// before the connection ended.
    public var pings: [Ping]
    /// `wire` lines in the recording.
    public var wireCount: Int
    /// Successful sign-ins.
    public var signinCount: Int
    /// Width of the event-rate buckets (ms).
    public var bucketMs: Double
    /// Lines of types this report does not know, by type.
    public var unknownTypes: [NameCount]
    /// Lines the reader skipped.
    public var skipped: [RecordingProblem]

    /// An empty summary for `header` (the builder fills it in).
    public init(header: RecordingHeader) {
        self.header = header
        self.endMs = 0
        self.spans = []
        self.changes = []
        self.ends = []
        self.outages = []
        self.retries = []
        self.channels = []
        self.auth = []
        self.errors = []
        self.markers = []
        self.pings = []
        self.wireCount = 0
        self.signinCount = 0
        self.bucketMs = 1000
        self.unknownTypes = []
        self.skipped = []
    }

    /// Lost connections (from `connected`).
    public var losses: [ConnectionEnd] { ends.filter(\.isLoss) }

    /// Attempts that failed before the handshake.
    public var failedAttempts: [ConnectionEnd] { ends.filter { !$0.isLoss } }

    /// The longest outage.
    public var longestOutage: Outage? { outages.max { $0.durationMs < $1.durationMs } }

    /// Auth requests that failed.
    public var failedAuth: [AuthRequest] { auth.filter(\.failed) }

    /// Time spent `connected` (ms).
    public var connectedMs: Double {
        spans.filter { $0.state.known == .connected }.reduce(0) { $0 + $1.durationMs }
    }

    /// The state the recording ended in.
    public var finalState: SessionState { spans.last?.state ?? SessionState(.initialized) }

    /// Events received on all channels.
    public var eventCount: Int { channels.reduce(0) { $0 + $1.eventCount } }
}

/// A ping the client sent.
public struct Ping: Sendable, Equatable {
    /// When (ms).
    public var atMs: Double
    /// Whether any message arrived after it on the same connection.
    public var answered: Bool

    /// A ping.
    public init(atMs: Double, answered: Bool) {
        self.atMs = atMs
        self.answered = answered
    }
}
