/// Handlers registered from any thread, each with a token for removal.
final class ObserverList<Handler>: @unchecked Sendable {
    private struct State {
        var entries: [(id: UInt64, handler: Handler)] = []
    }

    private let state = Locked(State())

    /// Adds a handler and returns its id.
    func add(_ handler: Handler) -> UInt64 {
        let id = BindingToken.nextId()
        state.withLock { s in s.entries.append((id, handler)) }
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

    /// The handlers, in registration order.
    var handlers: [Handler] { state.withLock { s in s.entries.map(\.handler) } }

    /// Whether any handler is registered.
    var isEmpty: Bool { state.withLock { $0.entries.isEmpty } }
}
