/// Protocol events (not app events), independent of dialect.
package enum ProtocolEvent: String, Sendable, CaseIterable {
    /// The handshake: the connection id and activity timeout (server to client).
    case connectionEstablished = "connection_established"
    /// An error from the server, with a code and message; for a channel when it names one.
    case error
    /// A liveness check; the other side answers `pong` (either direction).
    case ping
    /// The answer to `ping`.
    case pong
    /// A subscription request, signed for private and presence channels (client to server).
    case subscribe
    /// Leaves a channel (client to server).
    case unsubscribe
    /// The subscription is in place; for presence channels, with the roster.
    case subscriptionSucceeded = "subscription_succeeded"
    /// The subscription was refused.
    case subscriptionError = "subscription_error"
    /// A member joined a presence channel.
    case memberAdded = "member_added"
    /// A member left a presence channel.
    case memberRemoved = "member_removed"
    /// A channel's connection count changed (when the app enables it).
    case connectionCount = "connection_count"
    /// A sign-in request with a signed member identity (client to server).
    case signin
    /// The sign-in was accepted.
    case signinSuccess = "signin_success"

    /// Whether the wire carries this event with the internal prefix.
    var isInternal: Bool {
        switch self {
        case .subscriptionSucceeded, .memberAdded, .memberRemoved, .connectionCount: return true
        default: return false
        }
    }

    /// The event's name on the wire in `dialect`.
    package func wireName(_ dialect: Dialect) -> String {
        if self == .connectionCount && dialect == .pusher { return "pusher_internal:subscription_count" }
        return (isInternal ? dialect.internalPrefix : dialect.eventPrefix) + rawValue
    }

    /// The name app handlers bind to (always the Bird spelling), e.g. `bird:subscription_succeeded`.
    package var appName: String { "bird:" + rawValue }

    /// The protocol event a wire name denotes in `dialect`, or nil for app and client events.
    package init?(wireName: String, dialect: Dialect) {
        guard let match = ProtocolEvent.table(dialect)[wireName] else { return nil }
        self = match
    }

    /// Whether a wire name is in the protocol's reserved namespace of `dialect` (known or not).
    package static func isReserved(_ wireName: String, dialect: Dialect) -> Bool {
        // Both prefixes of a dialect start with its name (`bird`, `pusher`): most app event names
        // differ at the first byte, and are told apart without a prefix comparison.
        guard wireName.utf8.first == (dialect == .bird ? UInt8(ascii: "b") : UInt8(ascii: "p")) else { return false }
        return wireName.hasPrefix(dialect.eventPrefix) || wireName.hasPrefix(dialect.internalPrefix)
    }

    private static let birdTable = Dictionary(uniqueKeysWithValues: allCases.map { ($0.wireName(.bird), $0) })
    private static let pusherTable = Dictionary(uniqueKeysWithValues: allCases.map { ($0.wireName(.pusher), $0) })
    private static func table(_ dialect: Dialect) -> [String: ProtocolEvent] {
        dialect == .bird ? birdTable : pusherTable
    }
}

/// Names fixed by the public SDK documentation.
public enum BirdProtocol {
    /// Lifecycle event names that channel handlers bind to.
    public enum Event {
        /// After every successful (re-)subscription. Presence data: the roster.
        public static let subscriptionSucceeded = "bird:subscription_succeeded"
        /// A subscription was refused, failed authorization, or timed out.
        public static let subscriptionError = "bird:subscription_error"
        /// A member joined a presence channel (first connection of that member).
        public static let memberAdded = "bird:member_added"
        /// A member left a presence channel (last connection of that member).
        public static let memberRemoved = "bird:member_removed"
        /// The channel's connection count changed (app setting).
        public static let connectionCount = "bird:connection_count"
    }

    /// The protocol version the client speaks and edges accept (5–7).
    public static let version = 7
    /// Protocol versions an edge accepts.
    package static let acceptedVersions = 5...7
}
