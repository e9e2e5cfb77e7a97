/// What the host's routing table says about reaching the network, as seen by a
/// ``NetworkPathMonitor``.
///
/// **Usable** means a default route (IPv4 `0.0.0.0/0` or IPv6 `::/0`, unicast, in any table but
/// `local`) exists whose interface is up (`IFF_UP` and `IFF_RUNNING`: administratively up with a
/// carrier). A host with only specific routes (say `10.0.0.0/8` over a VPN) and no default route
/// counts as *not* usable; a client that must reach such an edge turns the monitor off.
/// Where the monitor cannot tell (a route through a nexthop object, an interface it has not seen,
/// or the monitor failed), it errs on the side of usable: a wrong "usable" costs a retry, a wrong
/// "unusable" would stall a client that could connect.
///
/// Loopback edges (`127.0.0.1`, `::1`, `localhost`) are reachable whatever the routes say: a client
/// connecting to one ignores the path. ``isLoopbackOnly`` is reported for display.
public struct NetworkPath: Sendable, Hashable, CustomStringConvertible {
    /// The default routes whose interface is up, sorted (family, interface, gateway, metric).
    public var defaultRoutes: [DefaultRoute]
    /// No interface other than loopback is up.
    public var isLoopbackOnly: Bool
    /// Changes whenever the usable default routes or the addresses on interfaces that are up
    /// change (a socket opened before may be dead). Compare for equality only.
    public var generation: UInt64
    /// Why the path is unknown (the monitor failed or has not started); `nil` when it is known.
    public var unknownReason: String?

    /// Creates a known path.
    public init(defaultRoutes: [DefaultRoute], isLoopbackOnly: Bool = false, generation: UInt64 = 0) {
        self.defaultRoutes = defaultRoutes.sorted()
        self.isLoopbackOnly = isLoopbackOnly
        self.generation = generation
        self.unknownReason = nil
    }

    /// A path the monitor cannot tell anything about; it counts as usable.
    public static func unknown(_ reason: String, generation: UInt64 = 0) -> NetworkPath {
        var path = NetworkPath(defaultRoutes: [], generation: generation)
        path.unknownReason = reason
        return path
    }

    /// A usable route exists (or the path is unknown, see the type's documentation).
    public var isUsable: Bool { unknownReason != nil || !defaultRoutes.isEmpty }

    /// The path came from the routing table (not ``unknown(_:generation:)``).
    public var isKnown: Bool { unknownReason == nil }

    /// One line for people: `default via eth0 (IPv4, IPv6)`, `no default route`,
    /// `no default route (loopback only)`, `unknown: <reason>`.
    public var description: String {
        if let unknownReason { return "unknown: \(unknownReason)" }
        guard !defaultRoutes.isEmpty else {
            return isLoopbackOnly ? "no default route (loopback only)" : "no default route"
        }
        var interfaces: [String] = []
        var families: [String: [String]] = [:]
        for route in defaultRoutes {
            if families[route.interface] == nil { interfaces.append(route.interface) }
            let family = route.family.rawValue
            if families[route.interface, default: []].contains(family) == false {
                families[route.interface, default: []].append(family)
            }
        }
        let parts = interfaces.map { "\($0) (\(families[$0, default: []].joined(separator: ", ")))" }
        return "default via " + parts.joined(separator: ", ")
    }
}

/// A default route through an interface that is up.
public struct DefaultRoute: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The address family of a route.
    public enum Family: String, Sendable, Hashable, Comparable {
        /// `0.0.0.0/0`.
        case ipv4 = "IPv4"
        /// `::/0`.
        case ipv6 = "IPv6"

        public static func < (lhs: Family, rhs: Family) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// IPv4 or IPv6.
    public var family: Family
    /// The interface's name (`eth0`), or `if<index>` / `nexthop <id>` when the name is not known.
    public var interface: String
    /// The gateway's address in text, when the route has one.
    public var gateway: String?
    /// The route's metric (`RTA_PRIORITY`), when set.
    public var metric: UInt32?

    /// Creates a default route.
    public init(family: Family, interface: String, gateway: String? = nil, metric: UInt32? = nil) {
        self.family = family
        self.interface = interface
        self.gateway = gateway
        self.metric = metric
    }

    /// `default via 192.0.2.1 dev eth0 metric 100 (IPv4)`, like `ip route`.
    public var description: String {
        var text = "default"
        if let gateway { text += " via \(gateway)" }
        text += " dev \(interface)"
        if let metric { text += " metric \(metric)" }
        return text + " (\(family.rawValue))"
    }

    public static func < (lhs: DefaultRoute, rhs: DefaultRoute) -> Bool {
        if lhs.family != rhs.family { return lhs.family < rhs.family }
        if lhs.interface != rhs.interface { return lhs.interface < rhs.interface }
        if lhs.gateway != rhs.gateway { return (lhs.gateway ?? "") < (rhs.gateway ?? "") }
        return (lhs.metric ?? 0) < (rhs.metric ?? 0)
    }
}
