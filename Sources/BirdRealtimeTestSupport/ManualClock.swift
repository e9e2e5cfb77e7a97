import BirdRealtime
import Foundation

/// A clock whose time moves only when a test says so. Timers scheduled through it (the client's
/// backoff, liveness and subscribe timeouts) and `sleep` callers are resumed in deadline order
/// (ties in scheduling order) as ``advance(by:)`` passes their deadlines.
///
/// Each timer's work runs synchronously on the queue it was scheduled for (`queue.sync`), so when
/// `advance` returns, everything due has run. Never call `advance` from that queue.
public final class ManualClock: RealtimeClock, Clock, @unchecked Sendable {
    /// A point in virtual time: the offset from the clock's origin.
    public struct Instant: InstantProtocol, Sendable, Hashable, CustomStringConvertible {
        /// Time since the clock's origin.
        public var offset: Duration

        public init(offset: Duration) {
            self.offset = offset
        }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        public var description: String { "t+\(offset)" }
    }

    private enum Work {
        case timer(queue: DispatchQueue, work: @Sendable () -> Void)
        case sleeper(CheckedContinuation<Void, any Error>)
    }

    private struct Entry {
        let id: UInt64
        let deadline: Duration
        let work: Work
    }

    private struct State {
        var now: Duration = .zero
        var entries: [Entry] = []
        var nextId: UInt64 = 0
    }

    private let state = TestLock(State())
    /// The wall-clock time at virtual time zero.
    public let origin: Date

    /// Creates a clock at virtual time zero; `wallNow` starts at `origin`.
    public init(origin: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        self.origin = origin
    }

    // MARK: - Clock

    public var now: Instant { Instant(offset: uptime) }

    public var minimumResolution: Duration { .zero }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { s -> UInt64 in
            s.nextId += 1
            return s.nextId
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = state.withLock { s -> Bool in
                    if deadline.offset <= s.now { return true }
                    s.entries.append(Entry(id: id, deadline: deadline.offset, work: .sleeper(continuation)))
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let cancelled = state.withLock { s -> Entry? in
                guard let index = s.entries.firstIndex(where: { $0.id == id }) else { return nil }
                return s.entries.remove(at: index)
            }
            if case .sleeper(let continuation)? = cancelled?.work {
                continuation.resume(throwing: CancellationError())
            }
        }
    }

    // MARK: - RealtimeClock

    public var uptime: Duration { state.withLock { $0.now } }

    public var wallNow: Date { origin.addingTimeInterval(Self.seconds(uptime)) }

    public func schedule(after delay: Duration, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void)
        -> any RealtimeTimer
    {
        let id = state.withLock { s -> UInt64 in
            s.nextId += 1
            s.entries.append(
                Entry(id: s.nextId, deadline: s.now + max(.zero, delay), work: .timer(queue: queue, work: work)))
            return s.nextId
        }
        return ManualTimer(clock: self, id: id)
    }

    private struct ManualTimer: RealtimeTimer {
        let clock: ManualClock
        let id: UInt64
        func cancel() { clock.cancel(id) }
    }

    private func cancel(_ id: UInt64) {
        state.withLock { s in s.entries.removeAll { $0.id == id } }
    }

    // MARK: - Driving time

    /// Moves time forward by `duration`, running every timer and resuming every sleeper whose
    /// deadline is passed, in deadline order, each at its own deadline.
    public func advance(by duration: Duration) {
        let target = state.withLock { $0.now } + max(.zero, duration)
        advance(toOffset: target)
    }

    /// Moves time forward to `instant`.
    public func advance(to instant: Instant) {
        advance(toOffset: instant.offset)
    }

    /// Runs what is due now (timers scheduled with zero delay), without moving time.
    public func runDue() {
        advance(by: .zero)
    }

    private func advance(toOffset target: Duration) {
        while true {
            let next = state.withLock { s -> Entry? in
                let due = s.entries.enumerated().filter { $0.element.deadline <= target }
                guard
                    let first = due.min(by: { a, b in
                        a.element.deadline != b.element.deadline
                            ? a.element.deadline < b.element.deadline : a.element.id < b.element.id
                    })
                else {
                    if s.now < target { s.now = target }
                    return nil
                }
                s.entries.remove(at: first.offset)
                if s.now < first.element.deadline { s.now = first.element.deadline }
                return first.element
            }
            guard let next else { return }
            switch next.work {
            case .timer(let queue, let work):
                queue.sync(execute: work)
            case .sleeper(let continuation):
                continuation.resume()
            }
        }
    }

    /// How many timers and sleepers are waiting.
    public var pendingCount: Int { state.withLock { $0.entries.count } }

    /// The earliest deadline waiting, as time from now.
    public var nextDeadline: Duration? {
        state.withLock { s in s.entries.map(\.deadline).min().map { $0 - s.now } }
    }

    static func seconds(_ d: Duration) -> Double {
        let (s, atto) = d.components
        return Double(s) + Double(atto) / 1e18
    }
}
