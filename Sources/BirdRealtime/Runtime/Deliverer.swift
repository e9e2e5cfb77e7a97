import Foundation

/// Runs handler work on the delivery queue in the order it was enqueued, coalescing bursts into
/// one queue hop: work enqueued while a drain is scheduled or running joins that drain.
/// No lock is held while handler work runs.
final class Deliverer: @unchecked Sendable {
    private struct Buffer {
        var items: [@Sendable () -> Void] = []
        var scheduled = false
    }

    let queue: DispatchQueue
    private let buffer = Locked(Buffer())

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// Enqueues `work` to run on the delivery queue after everything enqueued before it.
    func enqueue(_ work: @escaping @Sendable () -> Void) {
        let schedule = buffer.withLock { b -> Bool in
            b.items.append(work)
            if b.scheduled { return false }
            b.scheduled = true
            return true
        }
        if schedule {
            queue.async { self.drain() }
        }
    }

    private func drain() {
        while true {
            let items = buffer.withLock { b -> [@Sendable () -> Void] in
                if b.items.isEmpty {
                    b.scheduled = false
                    return []
                }
                let items = b.items
                b.items = []
                b.items.reserveCapacity(min(items.count, 1024))
                return items
            }
            if items.isEmpty { return }
            for item in items { item() }
        }
    }
}
