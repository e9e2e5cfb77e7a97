/// How a connection, or an attempt at one, ended.
public enum EndReason: Sendable, Equatable, Hashable {
    /// A close with this code (from the server, or the client's own, e.g. 4201 pong timeout).
    case close(Int)
    /// The TCP connection went away without a close frame (1006).
    case drop
    /// The edge refused the TCP connection (nothing listening).
    case refused
    /// Another network error: DNS, TLS, timeout, unreachable.
    case networkError
    /// The app called `disconnect()`.
    case disconnect
    /// A cause this report does not classify.
    case other

    /// Classifies a `state` line's `close_code` and `cause`.
    public init(closeCode: Int?, cause: String?) {
        let cause = cause ?? ""
        if let code = closeCode {
            self = code == 1006 ? .drop : .close(code)
        } else if cause.contains("connection lost") || cause.contains("socket dropped") {
            self = .drop
        } else if cause.hasPrefix("network error") {
            self = cause.contains("refused") ? .refused : .networkError
        } else if cause.contains("disconnect()") {
            self = .disconnect
        } else if cause == "pong timeout" {
            self = .close(4201)
        } else {
            self = .other
        }
    }

    /// The short label used in the summary and on the timeline: `4200`, `drop`, `refused`, ….
    public var label: String {
        switch self {
        case .close(let code): return String(code)
        case .drop: return "drop"
        case .refused: return "refused"
        case .networkError: return "network error"
        case .disconnect: return "disconnect()"
        case .other: return "other"
        }
    }

    /// The close code, when the end was a close.
    public var closeCode: Int? {
        if case .close(let code) = self { return code }
        return nil
    }
}

/// A connection that ended (from `connected`) or an attempt that failed (from `connecting`).
public struct ConnectionEnd: Sendable, Equatable {
    /// When (ms).
    public var atMs: Double
    /// The state it ended from: `connected` for a lost connection, `connecting` for an attempt.
    public var from: SessionState
    /// The state it went to.
    public var to: SessionState
    /// How it ended.
    public var reason: EndReason
    /// The recorded cause.
    public var cause: String?
    /// The wait before the next attempt, when the client scheduled one (the `retry` line that
    /// followed).
    public var retryWaitMs: Double?
    /// That retry's attempt number.
    public var retryAttempt: Int?

    /// An end.
    public init(
        atMs: Double, from: SessionState, to: SessionState, reason: EndReason, cause: String? = nil,
        retryWaitMs: Double? = nil, retryAttempt: Int? = nil
    ) {
        self.atMs = atMs
        self.from = from
        self.to = to
        self.reason = reason
        self.cause = cause
        self.retryWaitMs = retryWaitMs
        self.retryAttempt = retryAttempt
    }

    /// Whether an established connection was lost (as opposed to an attempt failing).
    public var isLoss: Bool { from.known == .connected }
}

/// Time without a connection: from losing one until the next `connected` (or the end).
public struct Outage: Sendable, Equatable {
    /// When the connection was lost (ms).
    public var startMs: Double
    /// When it was back, or the end of the recording.
    public var endMs: Double
    /// Whether a connection was back before the recording ended.
    public var recovered: Bool
    /// How the connection was lost.
    public var reason: EndReason

    /// An outage.
    public init(startMs: Double, endMs: Double, recovered: Bool, reason: EndReason) {
        self.startMs = startMs
        self.endMs = endMs
        self.recovered = recovered
        self.reason = reason
    }

    /// How long it lasted.
    public var durationMs: Double { endMs - startMs }
}

/// A scheduled retry (`retry` line): how long the client waited before the next attempt.
public struct RetryWait: Sendable, Equatable {
    /// When it was scheduled (ms).
    public var atMs: Double
    /// The wait (ms).
    public var waitMs: Double
    /// The attempt number (from 0).
    public var attempt: Int?
    /// Why the client is retrying.
    public var cause: String?

    /// A retry.
    public init(atMs: Double, waitMs: Double, attempt: Int? = nil, cause: String? = nil) {
        self.atMs = atMs
        self.waitMs = waitMs
        self.attempt = attempt
        self.cause = cause
    }
}
