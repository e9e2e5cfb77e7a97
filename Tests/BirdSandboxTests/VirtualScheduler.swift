import BirdSandbox
import Synchronization

/// A virtual clock for scenario runners and replay players: scheduled work runs only when the
/// test advances time.
final class VirtualScheduler: ScenarioScheduler, Sendable {
    private struct Entry {
        var due: Double
        var order: Int
        var work: @Sendable () -> Void
    }
    private let state = Mutex<(now: Double, next: Int, pending: [Entry])>((0, 0, []))

    var now: Double { state.withLock { $0.now } }
    var pendingCount: Int { state.withLock { $0.pending.count } }

    func schedule(after seconds: Double, _ work: @escaping @Sendable () -> Void) {
        state.withLock { s in
            s.pending.append(Entry(due: s.now + max(0, seconds), order: s.next, work: work))
            s.next += 1
        }
    }

    /// Runs everything due within `seconds`, in time order, moving the clock to each due time.
    func advance(by seconds: Double) {
        let end = now + seconds
        while true {
            let entry: Entry? = state.withLock { s in
                guard
                    let index = s.pending.indices.min(by: {
                        (s.pending[$0].due, s.pending[$0].order) < (s.pending[$1].due, s.pending[$1].order)
                    }),
                    s.pending[index].due <= end
                else { return nil }
                let entry = s.pending.remove(at: index)
                s.now = entry.due
                return entry
            }
            guard let entry else { break }
            entry.work()
        }
        state.withLock { $0.now = end }
    }
}
