// The connection's life as a value: state spans along time and marks for what happened at an
// instant (closes, retries, network loss and return, sign-ins). Built incrementally from the same
// client events the model gets; bounded, so a long or flapping session keeps flat memory.

import BirdRealtime
import Foundation

/// The connection's history: spans of states and marked instants, oldest first.
public struct Timeline: Sendable, Equatable {
    /// A stretch of time in one connection state.
    public struct Span: Sendable, Equatable {
        /// The state.
        public var state: ConnectionState
        /// When it began.
        public var start: Date
        /// Why it began, when known.
        public var cause: TransitionCause?
    }

    /// What a mark records.
    public enum MarkKind: Sendable, Equatable {
        /// The connection closed with this code (1006 for a drop, 4201 for a pong timeout).
        case close(code: Int)
        /// A reconnect attempt was scheduled (attempt number as the library counts, from 0).
        case retry(attempt: Int)
        /// The network went away (the client's monitor reported no usable path).
        case networkLost
        /// The network came back.
        case networkBack
        /// The endpoint provider gave no usable answer.
        case endpointFailed
        /// Signed in as a member.
        case signin
        /// Sign-in refused.
        case signinFailed
        /// Signed out.
        case signout

        /// Which mark wins a column that holds several (higher first).
        public var priority: Int {
            switch self {
            case .close: return 7
            case .networkLost: return 6
            case .signinFailed, .endpointFailed: return 5
            case .networkBack: return 4
            case .signin, .signout: return 3
            case .retry: return 2
            }
        }
    }

    /// Something that happened at an instant.
    public struct Mark: Sendable, Equatable {
        /// What.
        public var kind: MarkKind
        /// When.
        public var at: Date
        /// In words (a close's meaning, a retry's delay, the network path, the member).
        public var text: String
    }

    /// Most spans kept; older ones are dropped in chunks (`trimmedBefore` says from when on the
    /// history is whole).
    public let maxSpans: Int
    /// Most marks kept.
    public let maxMarks: Int
    /// State spans, oldest first; each lasts until the next one begins (the last until now).
    public private(set) var spans: [Span] = []
    /// Marks, oldest first.
    public private(set) var marks: [Mark] = []
    /// When history was dropped to stay within the bounds, the time before which it is gone.
    public private(set) var trimmedBefore: Date?
    /// Whether the network was last reported usable (nil: never reported).
    private var networkUsable: Bool?

    /// An empty timeline keeping at most `maxSpans` spans and `maxMarks` marks (each at least 8).
    public init(maxSpans: Int = 2_000, maxMarks: Int = 2_000) {
        self.maxSpans = max(8, maxSpans)
        self.maxMarks = max(8, maxMarks)
    }

    /// When the history begins (the first span or mark kept; after a trim, the time from which
    /// it is whole), or nil when it is empty.
    public var origin: Date? {
        if let cut = trimmedBefore { return cut }
        switch (spans.first?.start, marks.first?.at) {
        case let (s?, m?): return min(s, m)
        case let (s?, nil): return s
        case let (nil, m?): return m
        case (nil, nil): return nil
        }
    }

    /// Takes one client event into account (events that are not about the connection are ignored
    /// at the cost of a switch, so a flood of channel events costs nothing here).
    public mutating func record(_ event: ClientEvent, at: Date) {
        switch event {
        case .stateChanged(let change):
            begin(change.current, at: at, cause: change.cause)
            if let cause = change.cause {
                if let code = cause.closeCode { mark(.close(code: code), at: at, text: cause.text) }
                if cause == .signout { mark(.signout, at: at, text: "signed out") }
            }
        case .retryScheduled(let retry):
            mark(
                .retry(attempt: retry.attempt), at: at,
                text: RetryText.label(attempt: retry.attempt, delay: retry.delay.seconds))
        case .networkPath(let path):
            if path.usable != networkUsable {
                if !path.usable {
                    mark(.networkLost, at: at, text: "network down · \(path.description)")
                } else if networkUsable == false {
                    mark(.networkBack, at: at, text: "network up · \(path.description)")
                }
            }
            networkUsable = path.usable
        case .endpoint(.failed(let reason)):
            mark(.endpointFailed, at: at, text: "endpoint unavailable: \(reason)")
        case .signinSucceeded(let id, _):
            mark(.signin, at: at, text: "signed in as \(id)")
        case .signinFailed:
            mark(.signinFailed, at: at, text: "sign-in failed")
        default:
            break
        }
    }

    /// The span in force at `time` (nil before the first).
    public func span(at time: Date) -> Span? {
        guard let i = spanIndex(at: time) else { return nil }
        return spans[i]
    }

    /// When the span at `index` ends (the next one's start), or nil for the last.
    public func end(ofSpan index: Int) -> Date? {
        index + 1 < spans.count ? spans[index + 1].start : nil
    }

    /// Index of the span in force at `time` (the last one starting at or before it).
    public func spanIndex(at time: Date) -> Int? {
        var lo = 0, hi = spans.count  // first span starting after `time`
        while lo < hi {
            let mid = (lo + hi) / 2
            if spans[mid].start <= time { lo = mid + 1 } else { hi = mid }
        }
        return lo > 0 ? lo - 1 : nil
    }

    /// Index of the first mark at or after `time`.
    public func firstMark(atOrAfter time: Date) -> Int {
        var lo = 0, hi = marks.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if marks[mid].at < time { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    // MARK: - Building

    private mutating func begin(_ state: ConnectionState, at: Date, cause: TransitionCause?) {
        // Times out of order (a hostile recording) are taken as "now": spans stay sorted.
        let at = max(at, spans.last?.start ?? at)
        if let last = spans.last {
            // Same state again: one span (coalesced). A zero-length span is replaced.
            if last.state == state { return }
            if last.start == at {
                spans[spans.count - 1] = Span(state: state, start: at, cause: cause)
                if spans.count >= 2, spans[spans.count - 2].state == state { spans.removeLast() }
                return
            }
        }
        spans.append(Span(state: state, start: at, cause: cause))
        if spans.count > maxSpans {
            let drop = max(1, maxSpans / 8)
            trim(before: spans[drop].start)
        }
    }

    private mutating func mark(_ kind: MarkKind, at: Date, text: String) {
        let at = max(at, marks.last?.at ?? at)
        marks.append(Mark(kind: kind, at: at, text: text))
        if marks.count > maxMarks {
            let drop = max(1, maxMarks / 8)
            trim(before: marks[drop].at)
        }
    }

    /// Drops history before `cut` (in chunks, so the cost is amortised): marks before it, and
    /// spans that ended before it (the span in force at `cut` stays, its start kept).
    private mutating func trim(before cut: Date) {
        let cut = max(cut, trimmedBefore ?? cut)
        trimmedBefore = cut
        marks.removeFirst(firstMark(atOrAfter: cut))
        if let i = spanIndex(at: cut), i > 0 { spans.removeFirst(i) }
    }
}
