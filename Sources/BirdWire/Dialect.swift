/// The two spellings of the wire protocol (docs/PROTOCOL.md § Dialects).
///
/// Bird Realtime is Pusher Channels protocol 7 under its own names. Names surfaced to app
/// handlers are always the Bird names; only the wire (and the auth endpoints' bodies) differ.
public enum Dialect: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Bird Realtime names (`bird:` events, `connection_id`, `member_data`, …). The default.
    case bird
    /// Pusher Channels names (`pusher:` events, `socket_id`, `channel_data`, …).
    case pusher

    public var description: String { rawValue }

    /// Prefix of protocol events: `bird:` or `pusher:`.
    public var eventPrefix: String { self == .bird ? "bird:" : "pusher:" }
    /// Prefix of internal protocol events: `bird_internal:` or `pusher_internal:`.
    public var internalPrefix: String { self == .bird ? "bird_internal:" : "pusher_internal:" }

    /// Key of the connection id in the handshake and auth requests: `connection_id` / `socket_id`.
    public var connectionIdKey: String { self == .bird ? "connection_id" : "socket_id" }
    /// Key of the presence identity in subscribe data and auth responses: `member_data` / `channel_data`.
    public var presenceDataKey: String { self == .bird ? "member_data" : "channel_data" }
    /// Key of a member's id in presence data, rosters, member events and client-event senders.
    public var presenceIdKey: String { self == .bird ? "member_id" : "user_id" }
    /// Key of a member's info in presence data: `member_info` / `user_info`.
    public var presenceInfoKey: String { self == .bird ? "member_info" : "user_info" }
    /// Key of the sign-in identity in sign-in requests and responses: `member_data` / `user_data`.
    public var signinDataKey: String { self == .bird ? "member_data" : "user_data" }
    /// Key of the member id inside the sign-in identity: `member_id` / `id`.
    public var signinIdKey: String { self == .bird ? "member_id" : "id" }
    /// The word between the two colons of a sign-in signature string: `member` / `user`.
    public var signinTag: String { self == .bird ? "member" : "user" }
    /// Prefix of a member's reserved channel: `#server-to-member-` / `#server-to-user-`.
    public var memberChannelPrefix: String { self == .bird ? "#server-to-member-" : "#server-to-user-" }
    /// Key of the count in connection-count events: `connection_count` / `subscription_count`.
    public var connectionCountKey: String { self == .bird ? "connection_count" : "subscription_count" }

    /// The edge host for a region (Bird's is assumed; override with an explicit host).
    public func defaultHost(region: String) -> String {
        self == .bird ? "ws-\(region).realtime.bird.com" : "ws-\(region).pusher.com"
    }

    /// The reserved channel of a member.
    public func memberChannel(memberId: String) -> String { memberChannelPrefix + memberId }
}
