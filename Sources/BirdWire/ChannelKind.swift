/// What a channel is, from its name's prefix.
public enum ChannelKind: String, Sendable, CaseIterable, CustomStringConvertible {
    /// No prefix: anyone may subscribe; no authorization.
    case `public`
    /// `private-`: subscriptions are signed by the app's backend. Includes the end-to-end
    /// encrypted `private-encrypted-` channels (`isEncrypted(channelName:)`).
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

    /// Whether client events may be sent on such a channel, going by kind alone; an encrypted
    /// channel is private but refuses them: ask `allowsClientEvents(channelName:)` with a name.
    public var allowsClientEvents: Bool { self == .private || self == .presence }

    // MARK: - End-to-end encrypted channels

    /// The prefix of end-to-end encrypted channels. They are `.private` channels (same
    /// authorization; the auth response adds the channel key as `shared_secret`) whose event data
    /// is sealed by the app's backend and opened by the subscribers (docs/ENCRYPTION.md).
    public static let encryptedChannelPrefix = "private-encrypted-"

    /// Whether the channel `name` is end-to-end encrypted (`private-encrypted-…`).
    public static func isEncrypted(channelName name: String) -> Bool {
        name.hasPrefix(encryptedChannelPrefix)
    }

    /// Whether client events may be sent on the channel `name`: private and presence channels,
    /// except encrypted ones (the edge would relay them in clear; Pusher refuses them too).
    public static func allowsClientEvents(channelName name: String) -> Bool {
        ChannelKind(channelName: name).allowsClientEvents && !isEncrypted(channelName: name)
    }
}
