// A subscription's continuity as the inspector records it (the library's `ChannelContinuity`,
// plus the position it resumed after): what a `subscribed` line carries and gives back.

import BirdRealtime

/// Whether a (re)subscription continued its channel's stream (Bird dialect, docs/LIFECYCLE.md §
/// Continuity), and where it resumed: the `continuity` of a `subscribed` line.
public struct ContinuityRecord: Sendable, Equatable {
    /// The outcome, as the `continuity` key spells it.
    public enum Outcome: String, Sendable, Equatable {
        /// A first subscription: the stream starts now.
        case fresh
        /// Every event after the resume position is replayed: nothing lost.
        case recovered
        /// `missed` events were no longer held by the edge and are lost.
        case missed
        /// Whether events were lost cannot be known (`reason` says why).
        case unknown
    }

    /// The outcome.
    public var outcome: Outcome
    /// How many events were lost: 0 when recovered, the exact count when missed, nil otherwise.
    public var missed: Int?
    /// Why continuity is unknown, in the library's words (`epoch changed`, `not supported by the
    /// edge`, `not answered`); nil for the other outcomes.
    public var reason: String?
    /// The offset of the last event the inspector saw delivered on the channel before this
    /// subscription (what it resumed after); nil when none was seen or it is not known.
    public var offset: Int?
    /// The epoch of `offset`.
    public var epoch: String?

    /// A record.
    public init(outcome: Outcome, missed: Int? = nil, reason: String? = nil, offset: Int? = nil, epoch: String? = nil) {
        self.outcome = outcome
        self.missed = missed
        self.reason = reason
        self.offset = offset
        self.epoch = epoch
    }

    /// The library's continuity, resumed after `position` (nil: none known).
    public init(_ continuity: ChannelContinuity, resumedAfter position: StreamPosition?) {
        switch continuity {
        case .fresh: self.init(outcome: .fresh)
        case .recovered: self.init(outcome: .recovered, missed: 0)
        case .missed(let count): self.init(outcome: .missed, missed: max(0, count))
        case .unknown(let reason): self.init(outcome: .unknown, reason: reason.rawValue)
        }
        offset = position?.offset
        epoch = position?.epoch
    }

    /// Whether continuity is unknown because the edge has none (the Pusher dialect, or an edge
    /// without the extension): nothing to warn about on every reconnect.
    public var notSupported: Bool {
        outcome == .unknown && reason == ChannelContinuity.UnknownReason.notSupported.rawValue
    }
}

/// The last offset delivered on each channel (with its epoch), followed in delivery order: the
/// position a re-subscription resumes after, for its ``ContinuityRecord``. Mirrors the library's
/// own rule (docs/LIFECYCLE.md § Continuity) from what the inspector sees; a value, no I/O.
public struct ResumePositions: Sendable {
    private var last: [String: StreamPosition] = [:]

    /// No channel seen yet.
    public init() {}

    /// The position channel `name` last reached (nil: none seen, or forgotten).
    public func position(of name: String) -> StreamPosition? { last[name] }

    /// Takes a channel event in delivery order. For `bird:subscription_succeeded`, returns the
    /// position that subscription resumed after (nil for a fresh one or when none is known), and
    /// moves on as the library does: recovered keeps it, missed N skips N, anything else forgets.
    public mutating func observe(_ event: ChannelEvent) -> StreamPosition? {
        if event.name == BirdProtocol.Event.subscriptionSucceeded {
            let before = last[event.channel]
            switch event.continuity {
            case .recovered?:
                return before
            case .missed(let count)?:
                if let before {
                    let (sum, overflow) = before.offset.addingReportingOverflow(max(0, count))
                    last[event.channel] = overflow ? nil : StreamPosition(epoch: before.epoch, offset: sum)
                }
                return before
            case .unknown?:
                last[event.channel] = nil
                return before
            case .fresh?, nil:
                last[event.channel] = nil
                return nil
            }
        }
        if let position = event.position { last[event.channel] = position }
        return nil
    }
}
