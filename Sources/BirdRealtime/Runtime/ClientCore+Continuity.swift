/// Continuity (Bird dialect, docs/LIFECYCLE.md § Continuity): the position sent with every
/// subscribe, the edge's answer, and duplicates stopped before delivery. The rules are
/// `ContinuityState`'s (a value in the subscription record); this extension only performs them,
/// on the client's queue.
extension ClientCore {
    /// Adds the channel's last processed position (`epoch`, `offset`) to a subscribe's data, in
    /// the Bird dialect, and remembers it as asked.
    func addResumePosition(to data: inout JSONObject, channel name: String) {
        guard let position = records[name]?.continuity.subscribing(dialectHasOffsets: dialect == .bird) else { return }
        data["epoch"] = .string(position.epoch)
        data["offset"] = JSONValue(position.offset)
    }

    /// The edge answered a subscription: its continuity, kept in the record, to publish on the
    /// channel and the `bird:subscription_succeeded` event.
    func subscriptionContinued(_ message: WireMessage, channel name: String) -> StreamStamp {
        guard var record = records[name] else { return StreamStamp() }
        let continuity = record.continuity.subscribed(head: message.offset, continuity: message.continuity)
        records[name] = record
        switch continuity {
        case .missed(let count):
            log(.warning, "subscribed \(name): \(count) events missed (the edge no longer held them)")
        case .unknown(let reason) where reason != .notSupported:
            log(.warning, "subscribed \(name): continuity unknown (\(reason))")
        default:
            break
        }
        return StreamStamp(continuity: continuity)
    }

    /// An event with `offset` on subscribed channel `name`: its stamp, or nil for a duplicate of
    /// an event already delivered (dropped).
    func admit(offset: Int, channel name: String) -> StreamStamp? {
        guard records[name]?.continuity.admit(offset: offset) == true else {
            log(.debug, "dropped a duplicate event at offset \(offset) on \(name)")
            return nil
        }
        return StreamStamp(offset: offset, epoch: records[name]?.continuity.epoch)
    }

    /// The stamp of an event with `offset` (nil: none) on `name`, already admitted.
    func streamStamp(offset: Int?, channel name: String) -> StreamStamp? {
        guard let offset else { return nil }
        return StreamStamp(offset: offset, epoch: records[name]?.continuity.epoch)
    }
}
