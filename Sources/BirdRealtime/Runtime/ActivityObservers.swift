/// The observers of the connection's notifications (state changes, retries, errors, sign-in
/// errors, wire messages, network paths, endpoint resolutions, round trips), with a start-up buffer so that an observer registered at any time
/// sees the current connection from its `connecting` on.
///
/// Every notification delivered is also kept in one buffer of tagged items, in delivery order
/// (which is the order things happened). The buffer starts afresh with each transition into
/// `connecting` (a new connection attempt) and holds that connection's first ``maxItems``
/// notifications or ``maxBytes`` of wire text, whichever comes first; after that it keeps what
/// it has and says so once in the log. An observer registered later is owed the buffer's items
/// of its kinds: they reach it on the delivery queue before any newer notification, and owed
/// items of several observers are paid in one merged sequence, so a recorder that registers a
/// wire tap and a state observer together sees `connecting`, the handshake message, then
/// `connected`, as they happened.
final class ActivityObservers: @unchecked Sendable {
    /// Kinds of notification an observer wants.
    struct Kinds: OptionSet, Sendable {
        let rawValue: UInt8
        static let state = Kinds(rawValue: 1)
        static let retry = Kinds(rawValue: 2)
        static let error = Kinds(rawValue: 4)
        static let signinError = Kinds(rawValue: 8)
        static let wire = Kinds(rawValue: 16)
        static let network = Kinds(rawValue: 32)
        static let endpoint = Kinds(rawValue: 64)
        static let roundTrip = Kinds(rawValue: 128)
        static let all: Kinds = [.state, .retry, .error, .signinError, .wire, .network, .endpoint, .roundTrip]
    }

    typealias Handler = @Sendable (ClientActivity) -> Void

    /// Most notifications kept per connection.
    static let maxItems = 1_000
    /// Most bytes kept per connection (wire texts count their UTF-8 size, others 64).
    static let maxBytes = 1 << 20

    private struct Recorded {
        var sequence: UInt64
        var kind: Kinds
        var activity: ClientActivity
    }

    private struct Entry {
        var id: UInt64
        var kinds: Kinds
        var handler: Handler
        /// Buffered notifications not yet delivered to this observer.
        var owed: [Recorded]
    }

    private struct State {
        var entries: [Entry] = []
        var buffer: [Recorded] = []
        var bufferBytes = 0
        var bufferFull = false
        var nextSequence: UInt64 = 0
        var wireObservers = 0
    }

    private let state = Locked(State())
    private let deliverer: Deliverer
    private let log: @Sendable (LogLevel, String) -> Void

    init(deliverer: Deliverer, log: @escaping @Sendable (LogLevel, String) -> Void) {
        self.deliverer = deliverer
        self.log = log
    }

    /// Adds an observer of `kinds` and returns its id. What the buffer holds of those kinds
    /// reaches it first, on the delivery queue.
    func add(_ kinds: Kinds, _ handler: @escaping Handler) -> UInt64 {
        let id = BindingToken.nextId()
        let owes = state.withLock { s -> Bool in
            let owed = s.buffer.filter { kinds.contains($0.kind) }
            s.entries.append(Entry(id: id, kinds: kinds, handler: handler, owed: owed))
            if kinds.contains(.wire) { s.wireObservers += 1 }
            return !owed.isEmpty
        }
        if owes {
            // Pay what is owed on the delivery queue even if nothing new happens.
            deliverer.enqueue { [self] in deliver(nil) }
        }
        return id
    }

    /// Removes the observer with `id`; returns whether it was here.
    @discardableResult
    func remove(_ id: UInt64) -> Bool {
        state.withLock { s in
            guard let index = s.entries.firstIndex(where: { $0.id == id }) else { return false }
            if s.entries[index].kinds.contains(.wire) { s.wireObservers -= 1 }
            s.entries.remove(at: index)
            return true
        }
    }

    /// Whether a wire message should be handed over: someone taps the wire, or the buffer may
    /// still keep it. (Read from any thread; may lag behind the delivery queue, never ahead.)
    var wantsWire: Bool { state.withLock { s in s.wireObservers > 0 || !s.bufferFull } }

    /// Whether anyone taps the wire now.
    var hasWireObservers: Bool { state.withLock { $0.wireObservers > 0 } }

    /// Delivers `activity` (nil: only what is owed) to its observers after what each is owed,
    /// and keeps it in the buffer. Call on the delivery queue.
    func deliver(_ activity: ClientActivity?) {
        var overflowed = false
        let calls = state.withLock { s -> [(Handler, ClientActivity)] in
            var calls = Self.owedCalls(&s)
            guard let activity else { return calls }
            let kind = activity.kind
            if case .stateChange(let change) = activity, change.current == .connecting {
                s.buffer.removeAll(keepingCapacity: true)
                s.bufferBytes = 0
                s.bufferFull = false
            }
            if !s.bufferFull {
                let size = activity.bufferedSize
                if s.buffer.count < Self.maxItems && s.bufferBytes + size <= Self.maxBytes {
                    s.buffer.append(Recorded(sequence: s.nextSequence, kind: kind, activity: activity))
                    s.bufferBytes += size
                } else {
                    s.bufferFull = true
                    overflowed = true
                }
            }
            s.nextSequence += 1
            for entry in s.entries where entry.kinds.contains(kind) { calls.append((entry.handler, activity)) }
            return calls
        }
        if overflowed {
            log(
                .info,
                "start-up buffer full (\(Self.maxItems) notifications or \(Self.maxBytes >> 20) MiB of this connection kept); "
                    + "observers registered from now on see the rest of this connection from when they register")
        }
        for (handler, activity) in calls { handler(activity) }
    }

    /// Every observer's owed notifications, merged in the order they happened; clears them.
    private static func owedCalls(_ s: inout State) -> [(Handler, ClientActivity)] {
        var owed: [(sequence: UInt64, handler: Handler, activity: ClientActivity)] = []
        for index in s.entries.indices where !s.entries[index].owed.isEmpty {
            let handler = s.entries[index].handler
            for item in s.entries[index].owed { owed.append((item.sequence, handler, item.activity)) }
            s.entries[index].owed = []
        }
        guard !owed.isEmpty else { return [] }
        // Stable: the observers owed the same notification get it in registration order.
        let ordered = owed.enumerated().sorted { a, b in
            a.element.sequence != b.element.sequence ? a.element.sequence < b.element.sequence : a.offset < b.offset
        }
        return ordered.map { ($0.element.handler, $0.element.activity) }
    }
}

extension ClientActivity {
    /// The observer kind this notification goes to.
    var kind: ActivityObservers.Kinds {
        switch self {
        case .stateChange: return .state
        case .retryScheduled: return .retry
        case .error: return .error
        case .signinError: return .signinError
        case .wireMessage: return .wire
        case .networkPath: return .network
        case .endpoint: return .endpoint
        case .roundTrip: return .roundTrip
        }
    }

    /// What keeping it costs the start-up buffer.
    var bufferedSize: Int {
        if case .wireMessage(_, let text) = self { return text.utf8.count }
        return 64
    }
}
