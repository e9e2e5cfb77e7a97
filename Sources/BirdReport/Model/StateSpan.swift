/// A stretch of time the connection spent in one state.
public struct StateSpan: Sendable, Equatable {
    /// The state.
    public var state: SessionState
    /// When it began (ms since the recording started).
    public var startMs: Double
    /// When it ended (the next state change, or the end of the recording).
    public var endMs: Double
    /// The connection id, for `connected` spans.
    public var connectionId: String?
    /// Whether the recording ended in this span.
    public var isLast: Bool

    /// A span.
    public init(state: SessionState, startMs: Double, endMs: Double, connectionId: String? = nil, isLast: Bool = false)
    {
        self.state = state
        self.startMs = startMs
        self.endMs = endMs
        self.connectionId = connectionId
        self.isLast = isLast
    }

    /// How long it lasted.
    public var durationMs: Double { endMs - startMs }
}

/// A `state` line: one transition.
public struct StateChange: Sendable, Equatable {
    /// When (ms).
    public var atMs: Double
    /// The state before.
    public var previous: SessionState
    /// The state after.
    public var current: SessionState
    /// The recorded cause (redacted by the writer).
    public var cause: String?
    /// The close code the cause carried.
    public var closeCode: Int?
    /// The connection id, on a change to `connected`.
    public var connectionId: String?

    /// A transition.
    public init(
        atMs: Double, previous: SessionState, current: SessionState, cause: String? = nil, closeCode: Int? = nil,
        connectionId: String? = nil
    ) {
        self.atMs = atMs
        self.previous = previous
        self.current = current
        self.cause = cause
        self.closeCode = closeCode
        self.connectionId = connectionId
    }
}
