import BirdWire

/// The members of one presence channel, with a count of connections per member.
///
/// A member is added on its first connection and removed with its last one; only those two
/// transitions are announced (`member_added` / `member_removed`).
struct PresenceRoster: Sendable, Equatable {
    private struct Entry: Sendable, Equatable {
        var info: JSONValue?
        var connections: Set<String>
    }

    /// What adding a connection did.
    enum AddResult: Sendable, Equatable {
        /// The member's first connection: announce `member_added`.
        case added
        /// Another connection of a member already present: nothing to announce.
        case alreadyPresent
        /// The roster is full; the subscription is refused.
        case full
    }

    /// The most members the roster holds.
    let capacity: Int
    private var order: [String] = []
    private var entries: [String: Entry] = [:]

    init(capacity: Int = Limits.maxPresenceMembers) {
        self.capacity = capacity
    }

    /// Member ids in the order they joined.
    var ids: [String] { order }
    /// The number of members (not connections).
    var count: Int { order.count }
    /// Whether nobody is present.
    var isEmpty: Bool { order.isEmpty }

    /// The info a member joined with.
    func info(of memberId: String) -> JSONValue? { entries[memberId]?.info }

    /// Whether `memberId` is present.
    func contains(_ memberId: String) -> Bool { entries[memberId] != nil }

    /// The number of connections of a member.
    func connectionCount(of memberId: String) -> Int { entries[memberId]?.connections.count ?? 0 }

    /// Adds `connection` as `memberId`. The first connection's info is kept.
    mutating func add(memberId: String, info: JSONValue?, connection: String) -> AddResult {
        if var entry = entries[memberId] {
            entry.connections.insert(connection)
            entries[memberId] = entry
            return .alreadyPresent
        }
        guard order.count < capacity else { return .full }
        entries[memberId] = Entry(info: info, connections: [connection])
        order.append(memberId)
        return .added
    }

    /// Removes `connection` from `memberId`; returns true when that was the member's last one.
    mutating func remove(memberId: String, connection: String) -> Bool {
        guard var entry = entries[memberId] else { return false }
        entry.connections.remove(connection)
        if entry.connections.isEmpty {
            entries[memberId] = nil
            order.removeAll { $0 == memberId }
            return true
        }
        entries[memberId] = entry
        return false
    }

    /// The roster as the `presence` object of `subscription_succeeded`: `{ids, hash, count}`.
    var presenceObject: JSONValue {
        var hash = JSONObject()
        for id in order { hash[id] = entries[id]?.info ?? .null }
        return [
            "ids": .array(order.map { .string($0) }), "hash": .object(hash), "count": .number(JSONNumber(order.count)),
        ]
    }
}
