import BirdWire

/// A sliding one-second window over a connection's client events (docs/PROTOCOL.md § Limits: ≤ 10 per second).
struct ClientEventRateLimiter: Sendable {
    /// Events allowed in any one-second window.
    let perSecond: Int
    private var recent: [Double] = []

    init(perSecond: Int = Limits.clientEventsPerSecond) {
        self.perSecond = perSecond
    }

    /// Whether an event at `now` (seconds) is allowed; an allowed event is counted.
    mutating func allow(now: Double) -> Bool {
        recent.removeAll { now - $0 >= 1 }
        guard recent.count < perSecond else { return false }
        recent.append(now)
        return true
    }
}
