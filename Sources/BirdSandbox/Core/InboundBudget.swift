/// How much one WebSocket connection may send the sandbox before it is closed as a flood.
///
/// Three token buckets per connection, each with a burst and a sustained rate: messages (text,
/// binary, and WebSocket pings and pongs), bytes, and messages the edge has to answer with an
/// error (invalid JSON, unknown or refused events, rejected client events …). A connection that
/// empties a bucket is closed with ``closeCode`` (1008 policy violation) and the edge stops
/// reading it, so one client cannot fill the sandbox's one queue and starve the others. The
/// defaults sit far above what a correct client sends (re-subscribing to a few hundred channels
/// at once, client events at their 10 per second) and far below what a flood sends.
public struct InboundBudget: Sendable, Equatable {
    /// Messages a connection may send at once.
    public var messageBurst: Double
    /// Messages per second a connection may keep sending.
    public var messagesPerSecond: Double
    /// Message bytes a connection may send at once.
    public var byteBurst: Double
    /// Message bytes per second a connection may keep sending.
    public var bytesPerSecond: Double
    /// Error answers a connection may earn at once.
    public var errorBurst: Double
    /// Error answers per second a connection may keep earning.
    public var errorsPerSecond: Double

    /// The close code for a connection over its budget: 1008 (policy violation), in the backoff
    /// band, so a client with a bug backs off instead of reconnecting straight into the same flood.
    public static let closeCode = 1008

    /// Creates a budget; the defaults are the sandbox's.
    public init(
        messageBurst: Double = 2000, messagesPerSecond: Double = 500, byteBurst: Double = 8 * 1024 * 1024,
        bytesPerSecond: Double = 2 * 1024 * 1024, errorBurst: Double = 50, errorsPerSecond: Double = 5
    ) {
        self.messageBurst = messageBurst
        self.messagesPerSecond = messagesPerSecond
        self.byteBurst = byteBurst
        self.bytesPerSecond = bytesPerSecond
        self.errorBurst = errorBurst
        self.errorsPerSecond = errorsPerSecond
    }

    /// Why the budget is unusable (each value must be a finite number > 0), or nil.
    var problem: String? {
        let values: [(String, Double)] = [
            ("messageBurst", messageBurst), ("messagesPerSecond", messagesPerSecond), ("byteBurst", byteBurst),
            ("bytesPerSecond", bytesPerSecond), ("errorBurst", errorBurst), ("errorsPerSecond", errorsPerSecond),
        ]
        for (name, value) in values where !(value > 0 && value.isFinite) {
            return "inbound budget \(name) must be a finite number > 0"
        }
        return nil
    }
}

/// A token bucket on an injected clock (seconds): `capacity` tokens, refilled at `rate` per second.
struct TokenBucket: Sendable, Equatable {
    let capacity: Double
    let rate: Double
    private(set) var tokens: Double
    private var last: Double

    init(capacity: Double, rate: Double, now: Double) {
        self.capacity = capacity
        self.rate = rate
        tokens = capacity
        last = now
    }

    /// Takes `cost` tokens at `now`; false (nothing taken) when there are not enough.
    mutating func take(_ cost: Double, now: Double) -> Bool {
        if now > last {
            tokens = min(capacity, tokens + (now - last) * rate)
            last = now
        }
        guard tokens >= cost else { return false }
        tokens -= cost
        return true
    }
}

/// One connection's use of its ``InboundBudget``.
struct InboundMeter: Sendable {
    private var messages: TokenBucket
    private var bytes: TokenBucket
    private var errors: TokenBucket
    private let budget: InboundBudget

    init(budget: InboundBudget, now: Double) {
        self.budget = budget
        messages = TokenBucket(capacity: budget.messageBurst, rate: budget.messagesPerSecond, now: now)
        bytes = TokenBucket(capacity: budget.byteBurst, rate: budget.bytesPerSecond, now: now)
        errors = TokenBucket(capacity: budget.errorBurst, rate: budget.errorsPerSecond, now: now)
    }

    /// Counts one message of `size` bytes; the close reason when the connection is over budget.
    mutating func admit(bytes size: Int, now: Double) -> String? {
        guard messages.take(1, now: now) else {
            return "message flood: over \(Self.amount(budget.messageBurst)) messages, "
                + "\(Self.amount(budget.messagesPerSecond))/s"
        }
        guard bytes.take(Double(size), now: now) else {
            return
                "message flood: over \(Self.amount(budget.byteBurst)) bytes, \(Self.amount(budget.bytesPerSecond)) B/s"
        }
        return nil
    }

    /// Counts one error answer; the close reason when the connection is over budget.
    mutating func admitError(now: Double) -> String? {
        guard errors.take(1, now: now) else {
            return "error flood: over \(Self.amount(budget.errorBurst)) bad messages, "
                + "\(Self.amount(budget.errorsPerSecond))/s"
        }
        return nil
    }

    /// A budget figure for a close reason: whole numbers without a fraction.
    private static func amount(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
