/// Observers of connection-level notifications (state changes, retries, errors) that never miss
/// the client's first transition.
///
/// The client connects on its own queue right after `init` (PROTOCOL.md B.1). With a delivery
/// queue other than the caller's, that first transition (and an error it carries, such as unusable
/// options) can be delivered before the lines after `init` have registered their observers. So the
/// notifications of the automatic start are kept until a newer notification is delivered, and
/// every observer registered meanwhile receives them first: `bird.onStateChange { … }` right after
/// `init` always sees `initialized → connecting`, whatever the queues.
final class ReplayingObserverList<Value: Sendable>: @unchecked Sendable {
    typealias Handler = @Sendable (Value) -> Void

    private struct Entry {
        var id: UInt64
        var handler: Handler
        /// Start-up notifications still owed to this observer.
        var owed: [Value]
    }

    private struct State {
        var entries: [Entry] = []
        /// The start-up notifications delivered so far, while no newer one has been.
        var startup: [Value] = []
    }

    private let state = Locked(State())
    private let deliverer: Deliverer

    init(deliverer: Deliverer) {
        self.deliverer = deliverer
    }

    /// Adds a handler and returns its id. The start-up notifications reach it first.
    func add(_ handler: @escaping Handler) -> UInt64 {
        let id = BindingToken.nextId()
        let owes = state.withLock { s -> Bool in
            s.entries.append(Entry(id: id, handler: handler, owed: s.startup))
            return !s.startup.isEmpty
        }
        if owes {
            // Pay what is owed on the delivery queue even if nothing new happens.
            deliverer.enqueue { [self] in deliver(nil, startup: false) }
        }
        return id
    }

    /// Removes the handler with `id`; returns whether it was here.
    @discardableResult
    func remove(_ id: UInt64) -> Bool {
        state.withLock { s in
            guard let index = s.entries.firstIndex(where: { $0.id == id }) else { return false }
            s.entries.remove(at: index)
            return true
        }
    }

    /// Whether any handler is registered.
    var isEmpty: Bool { state.withLock { $0.entries.isEmpty } }

    /// Delivers `value` (nil: only what is owed) to every handler, after what each is owed.
    /// `startup` marks the automatic start's notifications. Call on the delivery queue.
    func deliver(_ value: Value?, startup: Bool) {
        let calls = state.withLock { s -> [(Handler, [Value])] in
            if let value {
                if startup { s.startup.append(value) } else { s.startup = [] }
            }
            var calls: [(Handler, [Value])] = []
            for i in s.entries.indices {
                var values = s.entries[i].owed
                s.entries[i].owed = []
                if let value { values.append(value) }
                if !values.isEmpty { calls.append((s.entries[i].handler, values)) }
            }
            return calls
        }
        for (handler, values) in calls {
            for value in values { handler(value) }
        }
    }
}
