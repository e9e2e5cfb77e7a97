/// What a channel is, from its name's prefix.
public enum ChannelKind: String, Sendable, CaseIterable, CustomStringConvertible {
    /// No prefix: anyone may subscribe; no authorization.
    case `public`
    /// `private-`: subscriptions are signed by the app's backend.
    case `private`
    /// `presence-`: signed, and carries a roster of members.
    case presence
    /// The reserved per-member channel (`#server-to-member-…` / `#server-to-user-…`).
    case member

    public var description: String { rawValue }

    /// The kind of the channel `name`.
    public init(channelName name: String) {
        if name.hasPrefix("presence-") {
            self = .presence
        } else if name.hasPrefix("private-") {
            self = .private
        } else if name.hasPrefix("#server-to-") {
            self = .member
        } else {
            self = .public
        }
    }

    /// Whether subscribing needs a signature.
    public var requiresAuthorization: Bool { self == .private || self == .presence }

    /// Whether client events may be sent on such a channel.
    public var allowsClientEvents: Bool { self == .private || self == .presence }
}
