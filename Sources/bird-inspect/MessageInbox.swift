// Where client callbacks (delivered on another queue) leave messages for the main loop.

import BirdInspector
import Foundation
import Synchronization

/// A thread-safe queue of messages, drained by the main loop in bounded batches so a flood of
/// events never starves keyboard input.
final class MessageInbox: Sendable {
    private let messages = Mutex<[Message]>([])

    /// Adds a message (any thread).
    func post(_ message: Message) {
        messages.withLock { $0.append(message) }
    }

    /// Takes up to `limit` messages, oldest first.
    func drain(limit: Int) -> [Message] {
        messages.withLock { queue in
            let n = min(limit, queue.count)
            let batch = Array(queue.prefix(n))
            queue.removeFirst(n)
            return batch
        }
    }
}
