/// Round-trip time of the protocol's ping/pong (docs/PROTOCOL.md § Liveness), pure: times are
/// monotonic durations passed in.
///
/// Pongs carry no id, so one measurement is open at a time: it starts at the first ping sent
/// since the last pong and ends at the next pong. A pong with no ping out measures nothing.
struct RoundTripMeter: Sendable, Equatable {
    /// When the oldest unanswered ping was sent.
    private(set) var sentAt: Duration?
    /// The latest measurement.
    private(set) var last: Duration?

    /// A ping was sent at `now` (a later ping while one is out keeps the earlier start).
    mutating func pingSent(now: Duration) {
        if sentAt == nil { sentAt = now }
    }

    /// A pong arrived at `now`: the round-trip time, or nil when no ping was out.
    mutating func pongReceived(now: Duration) -> Duration? {
        guard let start = sentAt else { return nil }
        sentAt = nil
        let rtt = max(.zero, now - start)
        last = rtt
        return rtt
    }

    /// The connection ended: a pong on the next one does not answer this one's ping.
    mutating func connectionEnded() {
        sentAt = nil
    }
}
