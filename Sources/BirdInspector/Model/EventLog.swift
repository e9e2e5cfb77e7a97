// The event log: a ring buffer bounded by entry count and by bytes, so memory stays flat under
// a flood. Entries carry sequence numbers that survive eviction (for selection and the paused
// marker).

import Foundation

/// One log line: a client event and when it happened.
public struct LogEntry: Sendable, Equatable {
    /// Monotonic sequence number (first entry is 1).
    public var seq: Int
    /// When it happened.
    public var time: Date
    /// What happened.
    public var event: ClientEvent

    /// An entry.
    public init(seq: Int, time: Date, event: ClientEvent) {
        self.seq = seq
        self.time = time
        self.event = event
    }

    /// Its one-line text (at most about 600 characters), made when asked: under a flood most
    /// entries are evicted without ever being drawn or searched, so none is made on arrival.
    public var summary: String {
        let full = LogText.summary(event)
        return full.utf8.count > 1024 ? String(full.prefix(600)) + "…" : full
    }

    /// Approximate memory cost, used for the byte bound.
    public var cost: Int {
        var n = 96
        switch event {
        case .event(let e):
            n += e.channel.utf8.count + e.event.utf8.count + (e.data?.utf8.count ?? 0) + (e.memberId?.utf8.count ?? 0)
        case .membersSnapshot(_, let members, _):
            n += members.reduce(0) { $0 + $1.id.utf8.count + ($1.info?.utf8.count ?? 0) + 32 }
        case .sent(let c, let e, let d): n += c.utf8.count + e.utf8.count + (d?.utf8.count ?? 0)
        default: n += 64
        }
        return n
    }
}

/// A ring buffer of log entries bounded by count and bytes.
public struct EventLog: Sendable {
    /// Most entries kept.
    public let maxEntries: Int
    /// Most bytes kept (approximate, see `LogEntry.cost`).
    public let maxBytes: Int
    private var storage: [LogEntry?]
    private var head = 0  // index of the oldest entry
    /// Number of entries held.
    public private(set) var count = 0
    /// Approximate bytes held.
    public private(set) var bytes = 0
    /// Sequence number of the newest entry (0 when none was ever appended).
    public private(set) var lastSeq = 0
    /// Entries evicted so far.
    public private(set) var evicted = 0

    /// An empty log (defaults: 10,000 entries, 32 MiB).
    public init(maxEntries: Int = 10_000, maxBytes: Int = 32 << 20) {
        self.maxEntries = max(1, maxEntries)
        self.maxBytes = max(1024, maxBytes)
        storage = []
    }

    /// Appends an entry, evicting the oldest while over either bound. Returns its sequence number.
    @discardableResult
    public mutating func append(_ event: ClientEvent, at time: Date) -> Int {
        lastSeq += 1
        let entry = LogEntry(seq: lastSeq, time: time, event: event)
        let cost = entry.cost
        while count > 0 && (count >= maxEntries || bytes + cost > maxBytes) { removeOldest() }
        if count == storage.count {
            if head != 0 {
                let size = storage.count
                storage = (0..<count).map { storage[(head + $0) % size] }
                head = 0
            }
            storage.append(entry)
        } else {
            storage[(head + count) % storage.count] = entry
        }
        count += 1
        bytes += cost
        return lastSeq
    }

    /// The entry at position `index` (0 = oldest held).
    public subscript(index: Int) -> LogEntry {
        guard let entry = storage[(head + index) % storage.count] else { preconditionFailure("empty slot") }
        return entry
    }

    /// Sequence number of the oldest entry held (lastSeq + 1 when empty).
    public var firstSeq: Int { lastSeq - count + 1 }

    /// The entry with sequence number `seq`, if still held.
    public func entry(seq: Int) -> LogEntry? {
        let index = seq - firstSeq
        guard index >= 0, index < count else { return nil }
        return self[index]
    }

    /// Removes everything.
    public mutating func removeAll() {
        storage = []
        head = 0
        count = 0
        bytes = 0
    }

    private mutating func removeOldest() {
        guard count > 0, let old = storage[head] else { return }
        bytes -= old.cost
        storage[head] = nil
        head = (head + 1) % storage.count
        count -= 1
        evicted += 1
    }
}
