// Where client callbacks (delivered on another queue) leave messages for the main loop — and,
// when recording, the wire and auth entries. One queue, stamped in arrival order, so a recording
// has a single writer and one ordered stream. Bounded (InboxQueue): when the loop falls behind,
// channel events are dropped and a `dropped` message takes their place.

import BirdInspector
import Foundation
import Synchronization

/// One item for the main loop, with the monotonic instant it arrived.
struct InboxItem: Sendable {
    /// What arrived.
    enum Payload: Sendable {
        /// For `update` (client events, and for the recording too).
        case message(Message)
        /// For the recording only (wire and auth entries), with the wall time it happened.
        case recorded(RecordedEntry, at: Date)
    }

    let payload: Payload
    let instant: ContinuousClock.Instant
}

/// A thread-safe, bounded queue of messages, drained by the main loop in batches so a flood of
/// events never starves keyboard input.
final class MessageInbox: Sendable {
    private let queue: Mutex<InboxQueue<InboxItem>>

    /// An inbox with the standard bounds (docs/INSPECTOR.md); `BIRD_INSPECT_TEST_INBOX_LIMIT=N`
    /// lowers the entry bound for tests.
    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        var limits = InboxQueue<InboxItem>.Limits.standard
        if let text = environment["BIRD_INSPECT_TEST_INBOX_LIMIT"], let n = Int(text), n > 0 {
            limits.entries = min(n, limits.entries)
        }
        queue = Mutex(InboxQueue(limits: limits))
    }

    /// Adds a message (any thread); a channel event may be dropped when the inbox is full.
    func post(_ message: Message) {
        var kind = InboxQueue<InboxItem>.Kind.keep
        var bytes = 0
        if case .client(.event(let e), _) = message {
            kind = .event
            bytes = 64 + e.channel.utf8.count + e.event.utf8.count + (e.data?.utf8.count ?? 0)
        }
        _ = queue.withLock {
            $0.post(
                InboxItem(payload: .message(message), instant: ContinuousClock.now), kind: kind, bytes: bytes,
                at: Date())
        }
    }

    /// Counts a channel event on `channel` named `name` as dropped, before it is made into a
    /// message, when the inbox is full (true); false when it has room (then post the event). The
    /// cost asked about leaves out the payload, so `post` of the event can only agree (or keep it,
    /// if the loop took items meanwhile): under a flood, dropped events cost no payload text.
    func dropEventIfFull(channel: String, name: String) -> Bool {
        let bytes = 64 + channel.utf8.count + name.utf8.count
        return queue.withLock { $0.dropIfFull(kind: .event, bytes: bytes, at: Date()) }
    }

    /// Adds a recording-only entry (any thread); a channel event's wire line may be dropped when
    /// the inbox is full (protocol messages never are).
    func post(recorded entry: RecordedEntry) {
        let at = Date()
        var bytes = 0
        // Worked out before taking the lock, so the main loop's drain never waits for the scan.
        var channelEvent = false
        if case .wire(_, let text) = entry {
            bytes = 64 + text.utf8.count
            channelEvent = WireTextKind.isChannelEvent(text)
        }
        queue.withLock { q in
            var kind = InboxQueue<InboxItem>.Kind.keep
            if case .wire = entry {
                kind = q.isFull(adding: bytes) && !channelEvent ? .keep : .wire
            }
            // A line that is dropped is only counted: no item, no monotonic clock read.
            if q.dropIfFull(kind: kind, bytes: bytes, at: at) { return }
            q.post(
                InboxItem(payload: .recorded(entry, at: at), instant: ContinuousClock.now), kind: kind, bytes: bytes,
                at: at)
        }
    }

    /// Takes up to `limit` items, oldest first (a run of drops comes out as a `dropped` client
    /// message in its place). The instants are taken under the lock, so they never go backwards.
    func drain(limit: Int) -> [InboxItem] {
        // Only the take holds the lock (the client's delivery queue posts meanwhile); a `dropped`
        // element's instant is the take's, so instants still never go backwards.
        let (elements, instant) = queue.withLock { q in (q.take(limit: limit), ContinuousClock.now) }
        return elements.map { element in
            switch element {
            case .item(let item): return item
            case .dropped(let count, let wire, let since):
                return InboxItem(
                    payload: .message(.client(.dropped(count: count, wire: wire, since: since), at: Date())),
                    instant: instant)
            }
        }
    }

    /// Items waiting.
    var count: Int { queue.withLock { $0.count } }

    /// Takes everything still waiting and sums it up as one `dropped` event, nil when nothing
    /// waits: what a session ending past its deadline could not print or record. Recording-only
    /// items count as `wire` lines, other messages as events, and a `dropped` message adds its own
    /// counts.
    func drainAsDropped(since: Date = Date()) -> ClientEvent? {
        let left = drain(limit: Int.max)
        guard !left.isEmpty else { return nil }
        var events = 0
        var wire = 0
        for item in left {
            switch item.payload {
            case .message(.client(.dropped(let count, let droppedWire, _), _)):
                events += count
                wire += droppedWire
            case .recorded: wire += 1
            case .message: events += 1
            }
        }
        return .dropped(count: events, wire: wire, since: since)
    }
}
