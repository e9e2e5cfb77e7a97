/// The decryption side of one `private-encrypted-` channel, as a value: the channel key of the
/// current subscription, the re-authorise-once rule and the events held while a fresh key is
/// fetched. Each input returns the actions to perform; the driver (`ClientCore+Encryption`) does
/// the I/O (auth requests, deliveries, reports). Queue-confined, like the subscription record
/// that holds it.
///
/// The rule, as pusher-js and pusher-websocket-swift apply it: an event whose payload does not
/// authenticate under the key (the master key may have rotated) makes the client fetch a fresh
/// key once — a new auth request on the same connection, without unsubscribing — and try that
/// event again; if it fails again it is reported, not delivered. Unlike those clients, events
/// that arrive while the fresh key is fetched are held and handled after it, in arrival order,
/// so handlers never see a channel's events out of order. Any failure other than
/// authentication (not JSON, bad base64, a wrong nonce length, too large) is reported at once:
/// no key could open it.
struct EncryptedChannelState {
    /// One sealed event as received.
    struct Sealed: Equatable {
        /// The event's name.
        var name: String
        /// The event's `data` text (the `{"nonce","ciphertext"}` envelope), "" when it had none.
        var text: String
        /// The sender of a presence client event (never set on encrypted channels today).
        var memberId: String?
        /// The event's offset in the channel's stream, if it had one.
        var offset: Int? = nil
        /// Whether a fresh key was already fetched for this event (it gets one refresh, no more).
        var refreshed = false
    }

    /// What the driver does.
    enum Action: Equatable {
        /// Deliver `event` with its plaintext (the envelope stays available as the ciphertext).
        case deliver(Sealed, plaintext: String)
        /// Report `event` as not delivered, for `problem`.
        case report(Sealed, DecryptionProblem)
        /// Fetch a fresh key (a new auth request for the current connection); answer with
        /// ``keyRefreshed(token:key:)`` or ``keyRefreshFailed(token:_:)`` carrying `token`.
        case fetchKey(token: Int)
    }

    /// Events held while a fresh key is fetched, at most this many…
    static let maxHeldEvents = 1_000
    /// …and at most this many bytes of payload text.
    static let maxHeldBytes = 4 << 20

    /// The channel key of the current subscription; nil while not subscribed.
    private(set) var key: EncryptionKey?
    /// The token of the refresh in flight, if any.
    private(set) var refreshing: Int?
    /// Events waiting for the refresh in flight, in arrival order (the one that started it first).
    private(set) var held: [Sealed] = []
    private var heldBytes = 0
    private var nextToken = 0

    /// The largest payload text decrypted (`EncryptedPayload.defaultMaxTextBytes`).
    let maxTextBytes: Int

    init(maxTextBytes: Int = EncryptedPayload.defaultMaxTextBytes) {
        self.maxTextBytes = maxTextBytes
    }

    // MARK: - Inputs

    /// A subscription's authorization brought the channel's key (every (re)subscription fetches a
    /// fresh one). A refresh still in flight is void: this key is at least as fresh.
    mutating func subscribed(key: EncryptionKey) -> [Action] {
        self.key = key
        guard refreshing != nil else { return [] }
        refreshing = nil
        return drain()
    }

    /// An event arrived on the channel.
    mutating func receive(_ event: Sealed) -> [Action] {
        if refreshing != nil { return hold(event) }
        return attempt(event)
    }

    /// The fresh key of refresh `token` arrived: the held events are tried with it, in order.
    mutating func keyRefreshed(token: Int, key: EncryptionKey) -> [Action] {
        guard refreshing == token else { return [] }
        refreshing = nil
        self.key = key
        return drain()
    }

    /// Refresh `token` failed (the auth endpoint refused, or answered no usable key): the event
    /// that asked for it is reported; the events held behind it are tried with the key in hand.
    mutating func keyRefreshFailed(token: Int, _ error: RealtimeAuthError) -> [Action] {
        guard refreshing == token else { return [] }
        refreshing = nil
        guard !held.isEmpty else { return [] }
        let first = held.removeFirst()
        heldBytes -= first.text.utf8.count
        return [.report(first, .keyRefreshFailed(error))] + drain()
    }

    /// The subscription ended (connection lost, or the server refused it): the key is forgotten;
    /// events held for a refresh are reported (`.connectionLost`), since the refresh is void.
    mutating func unsubscribed() -> [Action] {
        key = nil
        refreshing = nil
        let dropped = held
        held = []
        heldBytes = 0
        return dropped.map { .report($0, .connectionLost) }
    }

    // MARK: - Handling

    /// Tries the held events in order until one needs a refresh (or none is left).
    private mutating func drain() -> [Action] {
        var actions: [Action] = []
        while refreshing == nil, !held.isEmpty {
            let event = held.removeFirst()
            heldBytes -= event.text.utf8.count
            // May start a refresh: the event then goes back to the front of the held ones.
            actions += attempt(event)
        }
        return actions
    }

    private mutating func attempt(_ event: Sealed) -> [Action] {
        guard let key else { return [.report(event, .noKey)] }
        do {
            let plaintext = try EncryptedPayload.decrypt(event.text, with: key, maxTextBytes: maxTextBytes)
            return [.deliver(event, plaintext: plaintext)]
        } catch {
            guard error.warrantsKeyRefresh, !event.refreshed else { return [.report(event, .data(error))] }
            nextToken += 1
            refreshing = nextToken
            var retry = event
            retry.refreshed = true
            held.insert(retry, at: 0)
            heldBytes += retry.text.utf8.count
            return [.fetchKey(token: nextToken)]
        }
    }

    private mutating func hold(_ event: Sealed) -> [Action] {
        let size = event.text.utf8.count
        guard held.count < Self.maxHeldEvents, heldBytes + size <= Self.maxHeldBytes else {
            return [.report(event, .backlogFull(events: Self.maxHeldEvents, bytes: Self.maxHeldBytes))]
        }
        held.append(event)
        heldBytes += size
        return []
    }
}
