/// The limits an edge enforces (docs/PROTOCOL.md § Limits), shared by the client (to refuse early with a
/// clear error) and the sandbox (to enforce).
package enum Limits {
    /// Longest channel name.
    package static let maxChannelNameLength = 200
    /// Longest event name.
    package static let maxEventNameLength = 200
    /// Largest app or client event payload, in bytes.
    package static let maxPayloadBytes = 10 * 1024
    /// Most members in one presence channel.
    package static let maxPresenceMembers = 100
    /// Largest `member_info`, in bytes of JSON.
    package static let maxMemberInfoBytes = 2 * 1024
    /// Client events a connection may send per second.
    package static let clientEventsPerSecond = 10
    /// Most channels named by one HTTP API publish.
    package static let maxChannelsPerPublish = 100
    /// Most events in one HTTP API batch.
    package static let maxBatchEvents = 10
    /// Prefix client events must carry.
    package static let clientEventPrefix = "client-"

    /// Whether `name` is a channel name an app may use: 1–200 of `[A-Za-z0-9_\-=@,.;]`.
    /// (The `#server-to-…` member channels are the edge's own and are not valid here.)
    package static func isValidChannelName(_ name: String) -> Bool {
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
    package static func isValidConnectionId(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        return parts.allSatisfy { part in !part.isEmpty && part.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
    }
}
