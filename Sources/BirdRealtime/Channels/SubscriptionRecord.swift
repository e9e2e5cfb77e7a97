/// The driver's per-channel subscription state (queue-confined).
struct SubscriptionRecord {
    enum Phase: Equatable {
        /// Not subscribed on this connection (waiting for `connected`, or refused/failed).
        case idle
        /// Waiting for the authorizer.
        case authorizing
        /// `subscribe` sent; waiting for the answer.
        case pending
        /// Subscribed on this connection.
        case subscribed
        /// No answer within the subscribe timeout (a late success is still accepted).
        case timedOut
    }

    let channel: Channel
    var phase: Phase = .idle
    /// Bumped whenever an authorization or a timeout in flight becomes void (the client's
    /// ``SubscribeTimeouts`` holds the timeout).
    var token = 0
    /// This connection's member id on a presence channel (from the signed member data).
    var myId: String?
    /// The key and decryption state of an end-to-end encrypted channel; nil for other channels.
    var encryption: EncryptedChannelState?
    /// The channel's place in its stream and the duplicate rule (kept across connections).
    var continuity: ContinuityState

    init(channel: Channel) {
        self.channel = channel
        continuity = ContinuityState(resumingFrom: channel.initialPosition)
        if channel.isEncrypted { encryption = EncryptedChannelState() }
    }
}
