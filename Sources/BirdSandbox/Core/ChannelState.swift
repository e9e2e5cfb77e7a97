import BirdWire

/// One occupied channel: its subscribers and, for presence channels, the roster.
final class ChannelState {
    let name: String
    let kind: ChannelKind
    /// Connection ids subscribed, in order of subscription.
    private(set) var subscribers: [String] = []
    private var subscriberSet: Set<String> = []
    var roster = PresenceRoster()

    init(name: String, kind: ChannelKind) {
        self.name = name
        self.kind = kind
    }

    var subscriptionCount: Int { subscribers.count }
    var isOccupied: Bool { !subscribers.isEmpty }

    func contains(_ connection: String) -> Bool { subscriberSet.contains(connection) }

    /// Adds a subscriber; false when it was already there.
    @discardableResult
    func add(_ connection: String) -> Bool {
        guard subscriberSet.insert(connection).inserted else { return false }
        subscribers.append(connection)
        return true
    }

    /// Removes a subscriber; false when it was not there.
    @discardableResult
    func remove(_ connection: String) -> Bool {
        guard subscriberSet.remove(connection) != nil else { return false }
        subscribers.removeAll { $0 == connection }
        return true
    }
}
