/// A place in a channel's stream (Bird dialect, docs/PROTOCOL.md § Extensions): the edge's epoch
/// and the offset of an event. Offsets compare only within one epoch.
///
/// Persist ``ChannelEvent/position`` after the app has applied the event, and pass it to
/// ``BirdRealtime/subscribe(_:resumingFrom:)`` on the next launch: the edge replays what came after.
public struct StreamPosition: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The edge's epoch for the channel's stream (changes when the edge lost its history, e.g. a restart).
    public var epoch: String
    /// The offset of the last event processed (0: none yet).
    public var offset: Int

    /// A position; `offset` below 0 counts as 0.
    public init(epoch: String, offset: Int) {
        self.epoch = epoch
        self.offset = max(0, offset)
    }

    public var description: String { "\(offset)@\(epoch)" }
}

/// Whether a channel's latest subscription continued its stream without a gap
/// (docs/LIFECYCLE.md § Continuity). Read it from ``Channel/continuity`` or from the
/// `bird:subscription_succeeded` event's ``ChannelEvent/continuity``.
public enum ChannelContinuity: Sendable, Equatable, CustomStringConvertible {
    /// The first subscription, with no position to resume from: the stream starts now.
    case fresh
    /// The edge replays every event after the last one processed (before any live event): nothing is lost.
    case recovered
    /// The edge no longer held this many events after the last one processed (its history is
    /// bounded); they are lost. What it still held is replayed.
    case missed(Int)
    /// Whether events were missed cannot be known.
    case unknown(UnknownReason)

    /// Why continuity is ``unknown(_:)``.
    public enum UnknownReason: String, Sendable, Equatable, CustomStringConvertible {
        /// The edge's epoch changed (it restarted or lost its history): offsets from before mean nothing.
        case epochChanged = "epoch changed"
        /// The edge has no continuity: the Pusher dialect (no offsets on the wire) or an edge
        /// without the extension.
        case notSupported = "not supported by the edge"
        /// The edge did not say whether it could resume (or asked nothing to resume from).
        case notAnswered = "not answered"

        public var description: String { rawValue }
    }

    /// `true` when recovered, `false` when events were missed, nil when not known or nothing to resume.
    public var recovered: Bool? {
        switch self {
        case .recovered: return true
        case .missed: return false
        case .fresh, .unknown: return nil
        }
    }

    /// How many events were missed: 0 when recovered, nil when not known or nothing to resume.
    public var missed: Int? {
        switch self {
        case .recovered: return 0
        case .missed(let count): return count
        case .fresh, .unknown: return nil
        }
    }

    public var description: String {
        switch self {
        case .fresh: return "fresh"
        case .recovered: return "recovered"
        case .missed(let count): return "missed \(count)"
        case .unknown(let reason): return "unknown (\(reason))"
        }
    }
}
