/// The limits an edge enforces (docs/PROTOCOL.md § Limits), shared by the client (to refuse early with a
/// clear error) and the sandbox (to enforce).
public enum Limits {
    /// Longest channel name.
    public static let maxChannelNameLength = 200
    /// Longest event name.
    public static let maxEventNameLength = 200
    /// Largest app or client event payload, in bytes.
    public static let maxPayloadBytes = 10 * 1024
    /// Most members in one presence channel.
    public static let maxPresenceMembers = 100
    /// Largest `member_info`, in bytes of JSON.
    public static let maxMemberInfoBytes = 2 * 1024
    /// Client events a connection may send per second.
    public static let clientEventsPerSecond = 10
    /// Most channels named by one HTTP API publish.
    public static let maxChannelsPerPublish = 100
    /// Most events in one HTTP API batch.
    public static let maxBatchEvents = 10
    /// Prefix client events must carry.
    public static let clientEventPrefix = "client-"

    /// Whether `name` is a channel name an app may use: 1–200 of `[A-Za-z0-9_\-=@,.;]`.
    /// (The `#server-to-…` member channels are the edge's own and are not valid here.)
    public static func isValidChannelName(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard !utf8.isEmpty, utf8.count <= maxChannelNameLength else { return false }
        for b in utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                continue
            case UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "="), UInt8(ascii: "@"),
                UInt8(ascii: ","), UInt8(ascii: "."), UInt8(ascii: ";"):
                continue
            default:
                return false
            }
        }
        return true
    }

    /// Whether `name` is a valid connection id (`^\d+\.\d+$`).
    public static func isValidConnectionId(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        return parts.allSatisfy { part in !part.isEmpty && part.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
    }
}
