/// The handlers bound to one channel (or to the member channel), by event name, plus bind-all
/// handlers. Bound and unbound from any thread; read at delivery time, outside the lock.
final class HandlerRegistry: @unchecked Sendable {
    typealias Handler = @Sendable (ChannelEvent) -> Void

    private struct State {
        var byEvent: [String: [(id: UInt64, handler: Handler)]] = [:]
        var all: [(id: UInt64, handler: Handler)] = []
    }

    private let state = Locked(State())

    /// Binds `handler` to `event`, or to every event when `event` is nil.
    func add(event: String?, _ handler: @escaping Handler) -> BindingToken {
        let id = BindingToken.nextId()
        state.withLock { s in
            if let event {
                s.byEvent[event, default: []].append((id, handler))
            } else {
                s.all.append((id, handler))
            }
        }
        return BindingToken(id: id)
    }

    /// Removes the handler with `token`; returns whether it was here.
    @discardableResult
    func remove(_ token: BindingToken) -> Bool {
        state.withLock { s in
            if let index = s.all.firstIndex(where: { $0.id == token.id }) {
                s.all.remove(at: index)
                return true
            }
            for (event, entries) in s.byEvent {
                if let index = entries.firstIndex(where: { $0.id == token.id }) {
                    s.byEvent[event]?.remove(at: index)
                    if s.byEvent[event]?.isEmpty == true { s.byEvent[event] = nil }
                    return true
                }
            }
            return false
        }
    }

    /// Removes every handler.
    func removeAll() {
        state.withLock { $0 = State() }
    }

    /// Whether a delivery of `event` would reach anyone.
    func hasHandlers(for event: String) -> Bool {
        state.withLock { s in !s.all.isEmpty || s.byEvent[event] != nil }
    }

    /// The handlers for `event`: specific ones first, then bind-all ones.
    func handlers(for event: String) -> [Handler] {
        state.withLock { s in
            let specific = s.byEvent[event] ?? []
            if s.all.isEmpty { return specific.map(\.handler) }
            return specific.map(\.handler) + s.all.map(\.handler)
        }
    }

    /// Calls the handlers of `event` (on the delivery queue; no lock held).
    func deliver(_ event: ChannelEvent) {
        for handler in handlers(for: event.name) { handler(event) }
    }
}
