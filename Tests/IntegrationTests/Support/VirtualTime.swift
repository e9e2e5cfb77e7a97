import BirdRealtime
import Foundation
import TestSupport

// The IntegrationTests target does not depend on BirdRealtimeTestSupport (Package.swift), so the
// deliberate-disconnect test uses these small stand-ins for its ManualClock and ScriptedTransport,
// built on the library's public `RealtimeClock` and `Transport` protocols.

/// Virtual time: timers run (synchronously, on their queue) only when ``advance(by:)`` passes
/// their deadline.
final class VirtualClock: RealtimeClock, @unchecked Sendable {
    private struct Entry {
        let id: UInt64
        let deadline: Duration
        let queue: DispatchQueue
        let work: @Sendable () -> Void
    }

    private struct State {
        var now: Duration = .zero
        var entries: [Entry] = []
        var nextId: UInt64 = 0
    }

    private let state = Box(State())

    var uptime: Duration { state.withLock { $0.now } }
    var wallNow: Date { Date(timeIntervalSince1970: 1_800_000_000 + Double(uptime.components.seconds)) }

    func schedule(after delay: Duration, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void)
        -> any RealtimeTimer
    {
        let id = state.withLock { s -> UInt64 in
            s.nextId += 1
            s.entries.append(Entry(id: s.nextId, deadline: s.now + max(.zero, delay), queue: queue, work: work))
            return s.nextId
        }
        return Timer(clock: self, id: id)
    }

    private struct Timer: RealtimeTimer {
        let clock: VirtualClock
        let id: UInt64
        func cancel() { clock.state.withLock { s in s.entries.removeAll { $0.id == id } } }
    }

    /// How many timers are waiting.
    var pending: Int { state.withLock { $0.entries.count } }

    /// Moves time forward, running due timers in deadline order. Never call it from a timer's queue.
    func advance(by duration: Duration) {
        let target = uptime + duration
        while true {
            let next = state.withLock { s -> Entry? in
                guard let index = s.entries.indices.filter({ s.entries[$0].deadline <= target })
                    .min(by: { (s.entries[$0].deadline, s.entries[$0].id) < (s.entries[$1].deadline, s.entries[$1].id) })
                else {
                    s.now = max(s.now, target)
                    return nil
                }
                let entry = s.entries.remove(at: index)
                s.now = max(s.now, entry.deadline)
                return entry
            }
            guard let next else { return }
            next.queue.sync(execute: next.work)
        }
    }
}

/// In-memory sockets: every transport the client makes is recorded; the test plays the server.
final class ScriptedSockets: @unchecked Sendable {
    private let sockets = Box<[ScriptedSocket]>([])

    var factory: TransportFactory {
        { [sockets] configuration, queue, onEvents in
            let socket = ScriptedSocket(configuration: configuration, queue: queue, onEvents: onEvents)
            sockets.withLock { $0.append(socket) }
            return socket
        }
    }

    /// Every transport made so far.
    var all: [ScriptedSocket] { sockets.snapshot }
    /// How many transports were opened (`connect()` called).
    var opened: Int { sockets.snapshot.filter(\.connectCalled).count }
    var last: ScriptedSocket? { sockets.snapshot.last }

    /// An environment with these sockets, `clock`, and auth requests that fail as refused.
    func environment(clock: VirtualClock) -> RealtimeEnvironment {
        RealtimeEnvironment(clock: clock, makeTransport: factory, http: { _ in
            throw TransportFailure(message: "connection refused")
        })
    }
}

/// One scripted socket. Server-side methods deliver synchronously on the client's queue.
final class ScriptedSocket: Transport, @unchecked Sendable {
    let configuration: TransportConfiguration
    private let queue: DispatchQueue
    private let onEvents: @Sendable ([TransportEvent]) -> Void
    private let flags = Box((connect: false, closed: false, aborted: false, sent: [String]()))

    init(configuration: TransportConfiguration, queue: DispatchQueue, onEvents: @escaping @Sendable ([TransportEvent]) -> Void) {
        self.configuration = configuration
        self.queue = queue
        self.onEvents = onEvents
    }

    func connect() { flags.withLock { $0.connect = true } }
    func send(texts: [String]) throws { flags.withLock { $0.sent += texts } }
    func close(code: Int, reason: String) { flags.withLock { $0.closed = true } }
    func abort() { flags.withLock { $0.aborted = true } }

    var connectCalled: Bool { flags.withLock { $0.connect } }
    var closedByClient: Bool { flags.withLock { $0.closed || $0.aborted } }
    var sent: [String] { flags.withLock { $0.sent } }

    func deliver(_ event: TransportEvent) { queue.sync { onEvents([event]) } }

    /// Opens the socket and sends a handshake with `id`.
    func handshake(id: String) {
        deliver(.opened)
        deliver(.text(#"{"event":"bird:connection_established","data":"{\"connection_id\":\"\#(id)\",\"activity_timeout\":120}"}"#))
    }

    func serverClose(code: Int, reason: String = "") {
        deliver(.closed(TransportClose(code: code, reason: reason)))
    }

    func networkFailure() {
        deliver(.closed(TransportClose(code: 1006, failure: TransportFailure(message: "connection reset by peer"))))
    }
}
