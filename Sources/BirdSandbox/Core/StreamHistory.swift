/// How much of each channel's stream the sandbox keeps for resuming subscribers (Bird dialect,
/// docs/PROTOCOL.md § Extensions: continuity).
public struct HistoryLimits: Sendable, Equatable {
    /// Events kept per channel, newest first (0…1,000,000; 0 keeps none: every resume misses).
    public var maxEvents: Int
    /// Seconds an event is kept (> 0).
    public var maxAgeSeconds: Double

    /// The limits; by default the last 1,000 events of each channel, for at most 5 minutes.
    public init(maxEvents: Int = 1000, maxAgeSeconds: Double = 300) {
        self.maxEvents = maxEvents
        self.maxAgeSeconds = maxAgeSeconds
    }

    /// The largest ``maxEvents`` accepted.
    public static let maxEventsLimit = 1_000_000

    /// Why the limits are unusable, or nil.
    var problem: String? {
        guard (0...Self.maxEventsLimit).contains(maxEvents) else {
            return "history max events must be 0…\(Self.maxEventsLimit)"
        }
        guard maxAgeSeconds > 0, maxAgeSeconds.isFinite else { return "history max age must be > 0 seconds" }
        return nil
    }
}

/// The channels' streams as a value: offsets handed out per channel (from 1, never reused within
/// the epoch), the events still held, and the answer to a subscriber that asks to resume.
/// No I/O; time comes in as `now`.
struct StreamHistory {
    /// One event as sent: its offset, when it was published and its wire text (offset included).
    struct Entry: Equatable {
        var offset: Int
        var time: Double
        var text: String
    }

    /// One channel's stream: the last offset given and the events still held, oldest first.
    struct Channel {
        var head = 0
        var entries: [Entry] = []
        /// Index of the oldest entry still held (entries before it are dropped lazily).
        var start = 0

        var held: ArraySlice<Entry> { entries[start...] }

        /// Drops the events published before `cutoff`.
        mutating func expire(before cutoff: Double) {
            let old = held.prefix { $0.time < cutoff }.count
            if old > 0 { dropOldest(old) }
        }

        mutating func dropOldest(_ count: Int) {
            start += count
            if start > 64, start * 2 > entries.count {
                entries.removeFirst(start)
                start = 0
            }
        }
    }

    /// What a subscriber is told, and the events it is sent after `subscription_succeeded`.
    struct Answer: Equatable {
        var epoch: String
        /// The last offset given on the channel (0 before the first event).
        var head: Int
        /// Nil when the subscribe asked nothing.
        var recovered: Bool?
        var missed: Int?
        /// The held events after the position asked, oldest first.
        var replay: [String] = []
    }

    let epoch: String
    let limits: HistoryLimits
    private(set) var channels: [String: Channel] = [:]

    init(epoch: String, limits: HistoryLimits) {
        self.epoch = epoch
        self.limits = limits
    }

    /// Hands out the next offset of `channel` and keeps the event `text(offset)` makes.
    mutating func append(channel name: String, now: Double, text: (Int) -> String) -> (offset: Int, text: String) {
        var channel = channels.removeValue(forKey: name) ?? Channel()
        channel.head += 1
        let made = text(channel.head)
        if limits.maxEvents > 0 {
            channel.entries.append(Entry(offset: channel.head, time: now, text: made))
            let over = channel.held.count - limits.maxEvents
            if over > 0 { channel.dropOldest(over) }
        }
        channel.expire(before: now - limits.maxAgeSeconds)
        channels[name] = channel
        return (channel.head, made)
    }

    /// The answer to a subscribe on `channel` that asked to resume after `position` (nil: asked
    /// nothing).
    mutating func answer(channel name: String, resumingAfter position: (epoch: String, offset: Int)?, now: Double)
        -> Answer
    {
        channels[name]?.expire(before: now - limits.maxAgeSeconds)
        let channel = channels[name] ?? Channel()
        var answer = Answer(epoch: epoch, head: channel.head)
        guard let position else { return answer }
        guard position.epoch == epoch, position.offset <= channel.head else {
            // Another epoch (or a position this stream never reached): offsets mean nothing here.
            answer.recovered = false
            return answer
        }
        let held = channel.held.drop { $0.offset <= position.offset }
        answer.replay = held.map(\.text)
        // Offsets are consecutive: what lies between the position and the oldest held event is lost.
        let firstHeld = held.first?.offset ?? (channel.head + 1)
        let missed = firstHeld - 1 - position.offset
        answer.recovered = missed == 0
        if missed > 0 { answer.missed = missed }
        return answer
    }

    /// Drops events older than the age limit on every channel.
    mutating func expire(now: Double) {
        let cutoff = now - limits.maxAgeSeconds
        for name in Array(channels.keys) {
            channels[name]?.expire(before: cutoff)
        }
    }
}
