/// The subscribe timeouts of every channel waiting for its answer, served by one timer: a
/// deadline per channel (with the subscription's token) in a ``DeadlineQueue``, and the driver's
/// one `subscribe` timer armed for the earliest of them.
///
/// A deadline that goes away (the answer came, the channel was refused or unsubscribed, the
/// connection was lost) is removed at once; the timer is not re-armed for it. It fires at the
/// time it was armed for, finds nothing due and is armed for the earliest deadline left, so each
/// timeout still fires at its own deadline. Re-arming on every answer would make a timer per
/// subscription again: on Linux a Dispatch timer lives until its deadline even when cancelled.
/// The timer is cancelled when no deadline is left.
struct SubscribeTimeouts {
    /// What the driver does with its one timer.
    enum TimerAction: Equatable {
        /// Arm the timer to fire after this delay, replacing the one armed.
        case arm(after: Duration)
        /// Cancel the timer.
        case cancel
    }

    /// A channel whose subscribe was not answered in time, with the token it was sent with.
    struct Due: Equatable {
        let channel: String
        let token: Int
    }

    private var deadlines = DeadlineQueue<String, Int>()
    /// The time the armed timer fires at; nil when none is armed.
    private(set) var armedFor: Duration?

    /// How many channels wait for an answer.
    var count: Int { deadlines.count }

    /// Whether `channel` waits for an answer.
    func isWaiting(_ channel: String) -> Bool { deadlines.contains(channel) }

    /// `channel`'s subscribe (with `token`) was sent at `now`; it times out at `now + timeout`
    /// (a negative timeout counts as zero). Replaces the channel's previous deadline.
    mutating func start(_ channel: String, token: Int, now: Duration, timeout: Duration) -> TimerAction? {
        let deadline = now + max(.zero, timeout)
        deadlines.set(channel, at: deadline, value: token)
        if let armedFor, armedFor <= deadline { return nil }
        armedFor = deadline
        return .arm(after: deadline - now)
    }

    /// `channel` no longer waits for an answer.
    mutating func stop(_ channel: String) -> TimerAction? {
        guard deadlines.remove(channel) != nil, deadlines.isEmpty else { return nil }
        return disarm()
    }

    /// No channel waits for an answer any more (the connection is gone).
    mutating func stopAll() -> TimerAction? {
        deadlines.removeAll()
        return disarm()
    }

    /// The timer fired at `now`: the channels whose deadline has passed, earliest first, and
    /// the timer for the earliest deadline left.
    mutating func timerFired(now: Duration) -> (due: [Due], next: TimerAction?) {
        armedFor = nil
        let due = deadlines.removeDue(now: now).map { Due(channel: $0.key, token: $0.value) }
        guard let next = deadlines.earliest else { return (due, nil) }
        armedFor = next
        return (due, .arm(after: next - now))
    }

    private mutating func disarm() -> TimerAction? {
        guard armedFor != nil else { return nil }
        armedFor = nil
        return .cancel
    }
}
