// Where client callbacks (delivered on another queue) leave messages for the main loop — and,
// when recording, the wire and auth entries. One queue, stamped in arrival order, so a recording
// has a single writer and one ordered stream.

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
        case transcript(TranscriptEntry, at: Date)
    }

    let payload: Payload
    let instant: ContinuousClock.Instant
}

/// A thread-safe queue of messages, drained by the main loop in bounded batches so a flood of
/// events never starves keyboard input.
final class MessageInbox: Sendable {
    private let items = Mutex<[InboxItem]>([])

    /// Adds a message (any thread).
    func post(_ message: Message) {
        items.withLock { $0.append(InboxItem(payload: .message(message), instant: ContinuousClock.now)) }
    }

    /// Adds a recording-only entry (any thread).
    func post(transcript entry: TranscriptEntry) {
        let at = Date()
        items.withLock { $0.append(InboxItem(payload: .transcript(entry, at: at), instant: ContinuousClock.now)) }
    }

    /// Takes up to `limit` items, oldest first. The instants are taken under the lock, so they never
    /// go backwards in this order.
    func drain(limit: Int) -> [InboxItem] {
        items.withLock { queue in
            let n = min(limit, queue.count)
            let batch = Array(queue.prefix(n))
            queue.removeFirst(n)
            return batch
        }
    }
}
