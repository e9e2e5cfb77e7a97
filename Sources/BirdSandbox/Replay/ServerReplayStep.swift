import BirdWire

/// A client message the replay waits for: its `event` and channel (the envelope's `channel`, or
/// `data.channel` for `subscribe`/`unsubscribe`, which carry it there).
public struct ServerReplayExpectation: Sendable, Hashable, CustomStringConvertible {
    /// The wire event name, e.g. `bird:subscribe` or `client-typing`.
    public var event: String
    /// The channel, when the message names one.
    public var channel: String?

    /// An expectation.
    public init(event: String, channel: String? = nil) {
        self.event = event
        self.channel = channel
    }

    /// The event and channel of a protocol message, or nil when `text` is not one.
    public init?(message text: String) {
        guard let message = try? WireMessage.decode(text) else { return nil }
        event = message.event
        channel = message.channel ?? message.data?.object?["channel"]?.stringValue
    }

    /// `event` or `event on channel`, for the log.
    public var description: String { channel.map { "\(event) on \($0)" } ?? event }
}

/// One step of a segment, run in order on the connection the segment drives.
public enum ServerReplayStep: Sendable, Equatable {
    /// Send this text frame `after` seconds after the previous step (a recorded `wire` `in`).
    case send(text: String, after: Double)
    /// Send a binary frame of `bytes` zero bytes `after` seconds after the previous step (a
    /// recorded `<binary message, N bytes>`: the client's tap keeps only the size).
    case sendBinary(bytes: Int, after: Double)
    /// Wait for the client to send a matching message (a recorded `wire` `out`); go on after
    /// `timeout` seconds without one and log the mismatch.
    case expect(ServerReplayExpectation, timeout: Double)
}

/// How a segment ends: the recorded cause of the state change that closed it.
public enum ServerReplayEnd: Sendable, Equatable {
    /// The server closed with this code and reason: send that close frame.
    case close(code: Int, reason: String)
    /// A network error: close the TCP connection without a close frame (the client sees 1006).
    case drop
    /// A pong timeout: stop reading and answering (no pongs), so the client's own timer fires.
    case silence
    /// The client ended it (disconnect, drop, protocol violation, …): wait for the client to close.
    case awaitClientClose
    /// The recording ended with this connection open: keep it open, answering pings.
    case stayOpen

    /// A few words for the log.
    public var summary: String {
        switch self {
        case .close(let code, let reason): return "close \(code)" + (reason.isEmpty ? "" : " \"\(reason)\"")
        case .drop: return "drop the TCP connection"
        case .silence: return "go silent"
        case .awaitClientClose: return "wait for the client to close"
        case .stayOpen: return "stay open"
        }
    }
}

/// One recorded connection attempt and what the sandbox plays on the connection it is given.
public struct ServerReplaySegment: Sendable, Equatable {
    /// 1-based; the k-th accepted connection plays segment k.
    public var number: Int
    /// The line of the `state` entry that opened the segment.
    public var line: Int
    /// The connection id of the recorded handshake, when there was one (for the log).
    public var connectionId: String?
    /// The steps, in order.
    public var steps: [ServerReplayStep]
    /// How the segment ends, after the last step.
    public var end: ServerReplayEnd
    /// Seconds between the last step (or the accept) and the end.
    public var endAfter: Double
    /// The recorded cause of the end (the `state` line's `cause`), for the log.
    public var cause: String?

    /// A segment.
    public init(
        number: Int, line: Int = 0, connectionId: String? = nil, steps: [ServerReplayStep], end: ServerReplayEnd,
        endAfter: Double = 0, cause: String? = nil
    ) {
        self.number = number
        self.line = line
        self.connectionId = connectionId
        self.steps = steps
        self.end = end
        self.endAfter = endAfter
        self.cause = cause
    }

    /// A connection attempt that never reached the protocol (refused, TLS failure): the sandbox
    /// drops the connection right after accepting it.
    public var isRefused: Bool { steps.isEmpty && end == .drop }

    /// One line for the log: steps and end.
    public var summary: String {
        if isRefused { return "refused: drop right after accepting" + (cause.map { " (recorded: \($0))" } ?? "") }
        let sends = steps.filter { if case .expect = $0 { return false } else { return true } }.count
        let expects = steps.count - sends
        return "\(sends) to send, \(expects) to expect, then \(end.summary)"
            + (cause.map { " (recorded: \($0))" } ?? "")
    }
}
