/// The identity a connection signed in as (`signin()`).
public struct Member: Sendable, Equatable, CustomStringConvertible {
    /// The member id (`member_id`; `id` in the pusher dialect's `user_data`).
    public var memberId: String
    /// The member's info: `member_info` / `user_info` when present, else the whole identity object.
    public var info: JSONValue?

    /// Creates a member with its id and optional info.
    public init(memberId: String, info: JSONValue? = nil) {
        self.memberId = memberId
        self.info = info
    }

    public var description: String { "member \(memberId)" }
}

/// What an authorization endpoint (or a custom authorizer) answers.
///
/// Printing it (`description`, `dump`, string interpolation) shows neither the signature nor the
/// channel key.
public struct AuthResponse: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// `"<app_key>:<hex signature>"`.
    public var auth: String
    /// For presence channels and sign-in: the exact JSON string that was signed
    /// (`member_data`; `channel_data` / `user_data` in the pusher dialect).
    public var memberData: String?
    /// For end-to-end encrypted channels (`private-encrypted-…`): the channel key, standard
    /// padded base64 of 32 bytes (`shared_secret` in the endpoint's answer; the `pusher` server
    /// SDKs' `authenticate` returns it — decode it first if your SDK gives bytes). Required for
    /// those channels, ignored for others. Secret: the client keeps it in memory only.
    public var sharedSecret: String?

    /// Creates an answer, as a custom authorizer returns it.
    public init(auth: String, memberData: String? = nil, sharedSecret: String? = nil) {
        self.auth = auth
        self.memberData = memberData
        self.sharedSecret = sharedSecret
    }

    /// The response with the signature and the channel key redacted.
    public var description: String {
        let key = auth.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        var text = "AuthResponse(auth: \(key):\(Redaction.placeholder)"
        if let memberData { text += ", memberData: \(memberData)" }
        if sharedSecret != nil { text += ", sharedSecret: \(Redaction.placeholder)" }
        return text + ")"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// No children, so `dump` and mirrors show no secret.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

/// What a channel authorizer is asked to sign.
public struct ChannelAuthRequest: Sendable, Equatable {
    /// The channel's name.
    public var channelName: String
    /// The id of the connection the subscription is for (a new one after every reconnect).
    public var connectionId: String

    /// Creates a request to sign `channelName` for the connection `connectionId`.
    public init(channelName: String, connectionId: String) {
        self.channelName = channelName
        self.connectionId = connectionId
    }
}

/// An event as delivered to a channel: its name (Bird spelling for protocol events), payload and
/// the sender's member id for presence client events.
public struct ChannelEvent: Sendable, Equatable {
    /// The channel's name.
    public var channel: String
    /// The event's name (`bird:subscription_succeeded`, `client-typing`, an app event name…).
    public var name: String
    /// The payload exactly as received (a string `data` unwrapped, any other `data` verbatim),
    /// with its parsed value and, when it is not JSON, why; nil when there was none. Events the
    /// client builds itself (`bird:member_added`, `bird:subscription_error`…) carry their
    /// compact JSON.
    public var payload: EventPayload?
    /// The sender of a presence client event.
    public var memberId: String?
    /// For an event on an end-to-end encrypted channel (`private-encrypted-…`) that the client
    /// decrypted: the `data` exactly as it travelled — the `{"nonce","ciphertext"}` envelope —
    /// while ``payload`` holds the plaintext. Nil for every other event (protocol events on
    /// encrypted channels travel in clear and have none).
    public var ciphertext: String?
    /// The event's offset in the channel's stream (Bird dialect, an edge with continuity:
    /// docs/PROTOCOL.md § Extensions); nil for events without one (the Pusher dialect, client
    /// events, protocol events, member channels).
    public var offset: Int?
    /// The epoch ``offset`` belongs to; nil when there is no offset.
    public var epoch: String?
    /// On `bird:subscription_succeeded`: whether the subscription continued the channel's stream
    /// (the same value as ``Channel/continuity`` then); nil on every other event.
    public var continuity: ChannelContinuity?

    /// Where this event is in its channel's stream: persist it after applying the event, to
    /// resume from it later (``BirdRealtime/subscribe(_:resumingFrom:)``). Nil without an offset.
    public var position: StreamPosition? {
        guard let epoch, let offset else { return nil }
        return StreamPosition(epoch: epoch, offset: offset)
    }

    /// Whether ``payload`` is plaintext the client decrypted (``ciphertext`` is what travelled).
    public var wasDecrypted: Bool { ciphertext != nil }

    /// The payload's value: parsed JSON, or `.string` when it was not JSON; nil when there was
    /// none. Parsed on first access (once, from any thread); a handler that never reads it costs
    /// no parse. Setting it replaces the payload with the value's compact JSON.
    public var data: JSONValue? {
        get { payload?.value }
        set { payload = newValue.map { EventPayload(value: $0) } }
    }

    /// An event whose payload is `data` (its text is the compact JSON).
    public init(channel: String, name: String, data: JSONValue?, memberId: String? = nil) {
        self.init(channel: channel, name: name, payload: data.map { EventPayload(value: $0) }, memberId: memberId)
    }

    /// An event with a payload as received; `ciphertext` for one the client decrypted.
    public init(
        channel: String, name: String, payload: EventPayload?, memberId: String? = nil, ciphertext: String? = nil
    ) {
        self.channel = channel
        self.name = name
        self.payload = payload
        self.memberId = memberId
        self.ciphertext = ciphertext
    }

    /// An event with every field given at once (the delivery path builds each event in one go,
    /// with no copy of a half-built one).
    init(
        channel: String, name: String, payload: EventPayload?, memberId: String?, ciphertext: String?,
        offset: Int?, epoch: String?, continuity: ChannelContinuity?
    ) {
        self.channel = channel
        self.name = name
        self.payload = payload
        self.memberId = memberId
        self.ciphertext = ciphertext
        self.offset = offset
        self.epoch = epoch
        self.continuity = continuity
    }
}

/// Which way a protocol message travelled.
public enum WireDirection: String, Sendable, CustomStringConvertible {
    /// From the server to this client.
    case inbound
    /// From this client to the server.
    case outbound

    public var description: String { rawValue }
}

/// Severity of a log line.
public enum LogLevel: Int, Sendable, Comparable, CustomStringConvertible {
    /// The severities, least severe first: `debug`, `info`, `warning`, `error`.
    case debug, info, warning, error

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .debug: return "debug"
        case .info: return "info"
        case .warning: return "warning"
        case .error: return "error"
        }
    }
}
