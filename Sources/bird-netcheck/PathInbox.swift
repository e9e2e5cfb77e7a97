import BirdRealtime
import Foundation

/// Paths reported by a monitor, stamped with their arrival time, for a thread that waits on them.
final class PathInbox: @unchecked Sendable {
    private let lock = NSCondition()
    private var paths: [(path: NetworkPath, at: ContinuousClock.Instant)] = []

    /// The monitor's `onChange`.
    func post(_ path: NetworkPath) {
        let now = ContinuousClock.now
        lock.lock()
        paths.append((path, now))
        lock.signal()
        lock.unlock()
    }

    /// Drops what has arrived so far.
    func drain() {
        lock.lock()
        paths.removeAll()
        lock.unlock()
    }

    /// The first path satisfying `accept`, with its arrival time; `nil` at `deadline` (no deadline:
    /// wait for ever). Paths that do not satisfy it are consumed and passed to `skipped`.
    func wait(
        until deadline: Date?, skipped: (NetworkPath) -> Void = { _ in },
        for accept: (NetworkPath) -> Bool
    ) -> (path: NetworkPath, at: ContinuousClock.Instant)? {
        lock.lock()
        defer { lock.unlock() }
        while true {
            while !paths.isEmpty {
                let next = paths.removeFirst()
                if accept(next.path) { return next }
                skipped(next.path)
            }
            if let deadline {
                guard lock.wait(until: deadline) else { return nil }
            } else {
                lock.wait()
            }
        }
    }
}
