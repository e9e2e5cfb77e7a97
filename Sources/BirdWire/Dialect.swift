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
    package var eventPrefix: String { self == .bird ? "bird:" : "pusher:" }
    /// Prefix of internal protocol events: `bird_internal:` or `pusher_internal:`.
    package var internalPrefix: String { self == .bird ? "bird_internal:" : "pusher_internal:" }

    /// Key of the connection id in the handshake and auth requests: `connection_id` / `socket_id`.
    package var connectionIdKey: String { self == .bird ? "connection_id" : "socket_id" }
    /// Key of the presence identity in subscribe data and auth responses: `member_data` / `channel_data`.
    package var presenceDataKey: String { self == .bird ? "member_data" : "channel_data" }
    /// Key of a member's id in presence data, rosters, member events and client-event senders.
    package var presenceIdKey: String { self == .bird ? "member_id" : "user_id" }
    /// Key of a member's info in presence data: `member_info` / `user_info`.
    package var presenceInfoKey: String { self == .bird ? "member_info" : "user_info" }
    /// Key of the sign-in identity in sign-in requests and responses: `member_data` / `user_data`.
    package var signinDataKey: String { self == .bird ? "member_data" : "user_data" }
    /// Key of the member id inside the sign-in identity: `member_id` / `id`.
    package var signinIdKey: String { self == .bird ? "member_id" : "id" }
    /// The word between the two colons of a sign-in signature string: `member` / `user`.
    package var signinTag: String { self == .bird ? "member" : "user" }
    /// Prefix of a member's reserved channel: `#server-to-member-` / `#server-to-user-`.
    package var memberChannelPrefix: String { self == .bird ? "#server-to-member-" : "#server-to-user-" }
    /// Key of the count in connection-count events: `connection_count` / `subscription_count`.
    package var connectionCountKey: String { self == .bird ? "connection_count" : "subscription_count" }

    /// The edge host for a region (Bird's is assumed; override with an explicit host).
    package func defaultHost(region: String) -> String {
        self == .bird ? "ws-\(region).realtime.bird.com" : "ws-\(region).pusher.com"
    }

    /// The reserved channel of a member.
    package func memberChannel(memberId: String) -> String { memberChannelPrefix + memberId }
}
