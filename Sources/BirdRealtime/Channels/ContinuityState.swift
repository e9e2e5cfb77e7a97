/// One channel's continuity as a value (docs/LIFECYCLE.md § Continuity): the last offset
/// processed, the position sent with the subscribe in flight, the edge's answer turned into a
/// ``ChannelContinuity``, and the rule that an event at or before the last processed offset is
/// a duplicate and never delivered again. No I/O; held in the channel's subscription record.
struct ContinuityState: Equatable {
    /// The epoch the last offset belongs to; nil until the edge named one.
    private(set) var epoch: String?
    /// The offset of the last event processed (delivered) on this channel.
    private(set) var lastOffset: Int?
    /// Whether a subscription is a resume: the channel was subscribed before, or a position was supplied.
    private(set) var resuming: Bool
    /// The position sent with the subscribe in flight.
    private(set) var asked: StreamPosition?

    /// A channel's state; with `position` (persisted by the app), its first subscription resumes from there.
    init(resumingFrom position: StreamPosition? = nil) {
        epoch = position?.epoch
        lastOffset = position?.offset
        resuming = position != nil
    }

    /// The last position processed, when the edge has named an epoch.
    var position: StreamPosition? {
        guard let epoch, let lastOffset else { return nil }
        return StreamPosition(epoch: epoch, offset: lastOffset)
    }

    /// A subscribe is being sent: the position to send with it (nil when there is none, or
    /// when the dialect has no continuity), remembered until the answer.
    mutating func subscribing(dialectHasOffsets: Bool) -> StreamPosition? {
        asked = dialectHasOffsets ? position : nil
        return asked
    }

    /// The edge answered `subscription_succeeded`, with the stream's `head` offset and its
    /// continuity members (nil: the edge has none). Returns what the app is told.
    mutating func subscribed(head: Int?, continuity wire: WireContinuity?) -> ChannelContinuity {
        let wasResuming = resuming
        let asked = self.asked
        resuming = true
        self.asked = nil
        guard let wire else {
            // No continuity at this edge: offsets from elsewhere mean nothing here.
            epoch = nil
            lastOffset = nil
            return wasResuming ? .unknown(.notSupported) : .fresh
        }
        let head = head ?? 0
        if let asked, asked.epoch == wire.epoch, let recovered = wire.recovered {
            if recovered {
                // The replay follows: the last processed offset stays where it was.
                adopt(epoch: wire.epoch, floor: asked.offset)
                return .recovered
            }
            if let missed = wire.missed {
                // The replay starts after the missed ones (never beyond the head, so live
                // events always pass whatever the edge claims).
                let (sum, overflow) = asked.offset.addingReportingOverflow(missed)
                adopt(epoch: wire.epoch, floor: overflow ? head : min(sum, head))
                return .missed(missed)
            }
        }
        let epochChanged = (asked?.epoch ?? epoch).map { $0 != wire.epoch } ?? false
        // Nothing is replayed: the stream continues from its head.
        epoch = wire.epoch
        lastOffset = head
        guard wasResuming else { return .fresh }
        return .unknown(epochChanged ? .epochChanged : .notAnswered)
    }

    /// An event with `offset` arrived: true to deliver it (and it becomes the last processed),
    /// false for a duplicate (at or before the last processed offset).
    mutating func admit(offset: Int) -> Bool {
        if let lastOffset, offset <= lastOffset { return false }
        lastOffset = offset
        return true
    }

    /// Same epoch: the last processed offset becomes at least `floor`; another: exactly `floor`.
    private mutating func adopt(epoch newEpoch: String, floor: Int) {
        if epoch == newEpoch, let lastOffset, lastOffset > floor {
            return
        }
        epoch = newEpoch
        lastOffset = floor
    }
}
