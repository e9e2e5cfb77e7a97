import BirdWire

/// Continuity (Bird dialect, docs/PROTOCOL.md § Extensions): offsets on channel events, the
/// stream's epoch and the resume answer on `subscription_succeeded`, then the replay.
extension Edge {
    /// A new epoch: random, so that a restarted sandbox never matches an old one.
    static func newEpoch() -> String {
        let value = UInt64.random(in: .min ... .max)
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Whether events on `channel` get offsets and are kept (Bird dialect; not member channels).
    func hasStream(_ channel: String) -> Bool {
        history != nil && ChannelKind(channelName: channel) != .member
    }

    /// `text` (an encoded message, ending with `}`) with `"offset":N` added as its last member.
    static func stamp(_ text: String, offset: Int) -> String {
        guard text.last == "}" else { return text }
        var stamped = text
        stamped.removeLast()
        stamped += ",\"offset\":"
        stamped += String(offset)
        stamped += "}"
        return stamped
    }

    /// The position a subscribe asks to resume after: `epoch` (a string) and `offset` (a
    /// non-negative integer) in its data, both or neither; nil otherwise (a fresh subscription).
    static func resumePosition(_ data: JSONObject) -> (epoch: String, offset: Int)? {
        guard let epoch = data["epoch"]?.stringValue, let offset = data["offset"]?.intValue, offset >= 0 else {
            return nil
        }
        return (epoch, offset)
    }

    /// Sends `subscription_succeeded` for `name` — with the stream's epoch, head and the resume
    /// answer when the channel has a stream — then the replayed events, before any live one.
    func sendSubscriptionSucceeded(
        _ connection: EdgeConnection, channel name: String, data: WirePayload,
        resume: (epoch: String, offset: Int)?
    ) {
        guard hasStream(name), let answer = history?.answer(channel: name, resumingAfter: resume, now: clock()) else {
            send(connection, .subscriptionSucceeded, channel: name, data: data)
            return
        }
        let message = WireMessage(
            event: ProtocolEvent.subscriptionSucceeded.wireName(dialect), channel: name, data: data,
            offset: answer.head,
            continuity: WireContinuity(epoch: answer.epoch, recovered: answer.recovered, missed: answer.missed))
        send(connection, message)
        if let resume {
            let outcome =
                answer.recovered == true
                ? "recovered" : answer.missed.map { "missed \($0)" } ?? "unknown (epoch \(resume.epoch))"
            log("resume \(connection.id) \(name) after \(resume.offset): \(outcome), replaying \(answer.replay.count)")
        }
        for text in answer.replay { send(connection, text: text) }
    }
}
