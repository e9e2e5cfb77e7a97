/// Ping/pong liveness (docs/PROTOCOL.md § Liveness), pure: times are passed in as monotonic durations.
///
/// Every inbound message counts as activity. Rather than re-arming a timer per message, the
/// driver arms one check at `lastInbound + activityTimeout`; when it fires early (there was
/// activity since) the check is re-armed for the remainder.
struct Liveness: Sendable, Equatable {
    /// Inactivity after which the client pings (the smaller of the option and the handshake's).
    private(set) var activityTimeout: Duration
    /// How long to wait for any message after a ping.
    let pongTimeout: Duration
    private(set) var lastInbound: Duration = .zero
    private(set) var awaitingPong = false

    enum Action: Equatable, Sendable {
        /// Arm the activity check to fire after this long.
        case scheduleCheck(after: Duration)
        /// Send a ping and arm the pong timer.
        case ping(pongTimeout: Duration)
        /// The connection is dead: close with 4201 and reconnect.
        case timedOut
    }

    init(activityTimeout: Duration, pongTimeout: Duration) {
        self.activityTimeout = activityTimeout
        self.pongTimeout = pongTimeout
    }

    /// A connection was established at `now`, with this activity timeout in force.
    mutating func start(now: Duration, activityTimeout: Duration) -> Action {
        self.activityTimeout = activityTimeout
        lastInbound = now
        awaitingPong = false
        return .scheduleCheck(after: activityTimeout)
    }

    /// A message arrived at `now`. Returns an action only when it answered a ping.
    mutating func inbound(now: Duration) -> Action? {
        lastInbound = now
        guard awaitingPong else { return nil }
        awaitingPong = false
        return .scheduleCheck(after: activityTimeout)
    }

    /// The activity check fired at `now`.
    mutating func checkFired(now: Duration) -> Action {
        if awaitingPong { return .ping(pongTimeout: pongTimeout) }
        let idle = now - lastInbound
        if idle >= activityTimeout {
            awaitingPong = true
            return .ping(pongTimeout: pongTimeout)
        }
        return .scheduleCheck(after: activityTimeout - idle)
    }

    /// Check the connection now (the network changed under it): a ping, unless one is out
    /// already (then its pong timer decides). Returns nil in that case.
    mutating func probe() -> Action? {
        guard !awaitingPong else { return nil }
        awaitingPong = true
        return .ping(pongTimeout: pongTimeout)
    }

    /// The pong timer fired. Returns `.timedOut` when no message arrived since the ping.
    mutating func pongTimerFired() -> Action? {
        guard awaitingPong else { return nil }
        awaitingPong = false
        return .timedOut
    }
}
