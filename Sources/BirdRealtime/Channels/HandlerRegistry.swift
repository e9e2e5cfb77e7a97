/// The handlers bound to one channel (or to the member channel), by event name, plus bind-all
/// handlers. Bound and unbound from any thread; read at delivery time, outside the lock.
///
/// Each event name keeps its handlers as a ready-made array, so a delivery takes the lock only
/// to retain that array (no copy per event).
final class HandlerRegistry: @unchecked Sendable {
    typealias Handler = @Sendable (ChannelEvent) -> Void

    /// A handler as stored: a closure inside a struct keeps its own calling convention, so a
    /// delivery calls it directly (an array of bare closures stores them generically, and each
    /// call then went through a reabstraction thunk and a copy of the event).
    struct Bound: Sendable {
        let call: Handler
    }

    /// Handlers in binding order, with their tokens' ids alongside.
    private struct Bucket {
        var ids: [UInt64] = []
        var handlers: [Bound] = []

        mutating func append(id: UInt64, _ handler: @escaping Handler) {
            ids.append(id)
            handlers.append(Bound(call: handler))
        }

        /// Removes the handler with `id`; returns whether it was here.
        mutating func remove(id: UInt64) -> Bool {
            guard let index = ids.firstIndex(of: id) else { return false }
            ids.remove(at: index)
            handlers.remove(at: index)
            return true
        }
    }

    private struct State {
        var byEvent: [String: Bucket] = [:]
        var all = Bucket()
        /// The last lookup's answer: a stream of one event name (the common case) is matched by
        /// comparing names, not hashing them. Cleared by every bind and unbind.
        var last: Lookup?

        /// The handlers of `event` (specific ones first, then bind-all ones), remembered.
        mutating func lookup(_ event: String) -> Lookup {
            if let last, last.name == event { return last }
            let handlers: [Bound]
            if let specific = byEvent[event]?.handlers {
                handlers = all.handlers.isEmpty ? specific : specific + all.handlers
            } else {
                handlers = all.handlers
            }
            let found = Lookup(name: event, handlers: handlers)
            last = found
            return found
        }
    }

    private struct Lookup {
        let name: String
        let handlers: [Bound]
    }

    private let state = Locked(State())

    /// Binds `handler` to `event`, or to every event when `event` is nil.
    func add(event: String?, _ handler: @escaping Handler) -> BindingToken {
        let id = BindingToken.nextId()
        state.withLock { s in
            s.last = nil
            if let event {
                s.byEvent[event, default: Bucket()].append(id: id, handler)
            } else {
                s.all.append(id: id, handler)
            }
        }
        return BindingToken(id: id)
    }

    /// Removes the handler with `token`; returns whether it was here.
    @discardableResult
    func remove(_ token: BindingToken) -> Bool {
        state.withLock { s in
            s.last = nil
            if s.all.remove(id: token.id) { return true }
            guard let event = s.byEvent.first(where: { $0.value.ids.contains(token.id) })?.key else { return false }
            _ = s.byEvent[event]?.remove(id: token.id)
            if s.byEvent[event]?.ids.isEmpty == true { s.byEvent[event] = nil }
            return true
        }
    }

    /// The payloads of the events named `event`, as an async stream; the handler it binds is
    /// removed when the consumer stops.
    func stream(event: String) -> AsyncStream<JSONValue?> {
        let (stream, continuation) = AsyncStream<JSONValue?>.makeStream(bufferingPolicy: .unbounded)
        let token = add(event: event) { continuation.yield($0.data) }
        continuation.onTermination = { _ in self.remove(token) }
        return stream
    }

    /// Removes every handler.
    func removeAll() {
        state.withLock { $0 = State() }
    }

    /// Whether a delivery of `event` would reach anyone.
    func hasHandlers(for event: String) -> Bool {
        state.withLock { s in !s.lookup(event).handlers.isEmpty }
    }

    /// The handlers for `event`: specific ones first, then bind-all ones.
    func handlers(for event: String) -> [Bound] {
        state.withLock { s in s.lookup(event).handlers }
    }

    /// Calls the handlers of `event` (on the delivery queue; no lock held).
    func deliver(_ event: ChannelEvent) {
        for handler in handlers(for: event.name) { handler.call(event) }
    }
}
