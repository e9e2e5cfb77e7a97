import BirdWire

extension Edge {
    /// Delivers an app event to every subscriber of `channel` except `excluding`.
    /// Member channels (`#server-to-member-<id>`) reach every connection signed in as that member.
    /// Returns the number of connections reached.
    /// On a channel with a stream (Bird dialect) the event gets the next offset and is kept for
    /// resuming subscribers, whether anyone is subscribed now or not.
    @discardableResult
    func publish(channel: String, event: String, data: WirePayload?, excluding: String? = nil) -> Int {
        guard channels[channel] != nil || hasStream(channel) else { return 0 }
        let text = encode(WireMessage(event: event, channel: channel, data: data))
        return publish(encoded: text, channel: channel, excluding: excluding)
    }

    /// Delivers an already-encoded message (`text`, naming `channel`) `times` times in a row to
    /// every subscriber of `channel` except `excluding`: a burst encodes its message once (on a
    /// channel with a stream, each copy is stamped with its own offset and kept).
    /// Returns the number of connections reached.
    @discardableResult
    func publish(encoded text: String, channel: String, times: Int = 1, excluding: String? = nil) -> Int {
        guard times > 0 else { return 0 }
        if hasStream(channel) {
            let now = clock()
            var reached = 0
            for _ in 0..<times {
                guard
                    let (_, stamped) = history?.append(
                        channel: channel, now: now, text: { Edge.stamp(text, offset: $0) })
                else { break }
                reached = fanOut(stamped, channel: channel, times: 1, excluding: excluding)
            }
            return reached
        }
        return fanOut(text, channel: channel, times: times, excluding: excluding)
    }

    private func fanOut(_ text: String, channel: String, times: Int, excluding: String?) -> Int {
        guard let state = channels[channel] else { return 0 }
        var reached = 0
        for id in state.subscribers where id != excluding {
            if let peer = connections[id], !peer.silenced {
                for _ in 0..<times { send(peer, text: text) }
                reached += 1
            }
        }
        return reached
    }

    /// Whether an HTTP API publish may target `name`: a valid channel name, or a member channel.
    func isPublishableChannel(_ name: String) -> Bool {
        if Limits.isValidChannelName(name) { return true }
        let prefix = dialect.memberChannelPrefix
        guard name.hasPrefix(prefix) else {
            // Accept the other dialect's spelling too: server SDKs are Pusher's in both dialects.
            let other = Dialect.allCases.first { name.hasPrefix($0.memberChannelPrefix) }
            guard let other else { return false }
            return Limits.isValidChannelName(String(name.dropFirst(other.memberChannelPrefix.count)))
        }
        return Limits.isValidChannelName(String(name.dropFirst(prefix.count)))
    }

    /// The channel an HTTP API publish really reaches: another dialect's member-channel
    /// spelling is mapped to this dialect's.
    func deliveryChannel(_ name: String) -> String {
        for other in Dialect.allCases where other != dialect && name.hasPrefix(other.memberChannelPrefix) {
            return dialect.memberChannelPrefix + name.dropFirst(other.memberChannelPrefix.count)
        }
        return name
    }
}
