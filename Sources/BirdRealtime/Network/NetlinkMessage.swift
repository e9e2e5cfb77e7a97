/// One rtnetlink message, parsed (``NetlinkParser``): the header and what the body says.
/// Only the fields the path tracker needs are kept.
package struct NetlinkMessage: Sendable, Hashable {
    /// The `nlmsghdr` fields.
    package var header: NetlinkHeader
    /// The body.
    package var payload: NetlinkPayload

    package init(header: NetlinkHeader, payload: NetlinkPayload) {
        self.header = header
        self.payload = payload
    }
}

/// `struct nlmsghdr`.
package struct NetlinkHeader: Sendable, Hashable {
    /// `nlmsg_len`: the message's length, header included.
    package var length: UInt32
    /// `nlmsg_type`: `RTM_NEWROUTE`, `NLMSG_DONE`, …
    package var type: UInt16
    /// `nlmsg_flags`: `NLM_F_MULTI`, `NLM_F_DUMP_INTR`, …
    package var flags: UInt16
    /// `nlmsg_seq`: the request's sequence number (answers), or the sender's (notifications).
    package var sequence: UInt32
    /// `nlmsg_pid`: the port the message answers (ours for dump replies; 0 or another process's
    /// for notifications).
    package var portId: UInt32

    package init(length: UInt32, type: UInt16, flags: UInt16, sequence: UInt32, portId: UInt32) {
        self.length = length
        self.type = type
        self.flags = flags
        self.sequence = sequence
        self.portId = portId
    }
}

/// What a message says.
package enum NetlinkPayload: Sendable, Hashable {
    /// `RTM_NEWLINK`: a link appeared or changed (or a dump lists it).
    case newLink(LinkInfo)
    /// `RTM_DELLINK`.
    case deleteLink(LinkInfo)
    /// `RTM_NEWADDR`.
    case newAddress(AddressInfo)
    /// `RTM_DELADDR`.
    case deleteAddress(AddressInfo)
    /// `RTM_NEWROUTE`.
    case newRoute(RouteInfo)
    /// `RTM_DELROUTE`.
    case deleteRoute(RouteInfo)
    /// `NLMSG_DONE`: the end of a multi-part dump.
    case done
    /// `NLMSG_ERROR`: `code` is a negative errno, or 0 for an acknowledgement.
    case error(code: Int32)
    /// `NLMSG_OVERRUN`: data was lost.
    case overrun
    /// A message the tracker has no use for (`NLMSG_NOOP`, neighbours, rules, …).
    case ignored
}

/// `struct ifinfomsg` with `IFLA_IFNAME`.
package struct LinkInfo: Sendable, Hashable {
    /// `ifi_index`.
    package var index: Int32
    /// `ifi_flags` (`IFF_UP`, `IFF_RUNNING`, `IFF_LOOPBACK`, …).
    package var flags: UInt32
    /// `IFLA_IFNAME`, when present.
    package var name: String?

    package init(index: Int32, flags: UInt32, name: String?) {
        self.index = index
        self.flags = flags
        self.name = name
    }
}

/// `struct ifaddrmsg` with `IFA_ADDRESS` and `IFA_LOCAL`.
package struct AddressInfo: Sendable, Hashable {
    /// `ifa_family` (`AF_INET`, `AF_INET6`).
    package var family: UInt8
    /// `ifa_prefixlen`.
    package var prefixLength: UInt8
    /// `ifa_scope`.
    package var scope: UInt8
    /// `ifa_index`.
    package var interfaceIndex: UInt32
    /// `IFA_ADDRESS` (the peer's on point-to-point links).
    package var address: [UInt8]?
    /// `IFA_LOCAL` (the local address; IPv4 sends both).
    package var local: [UInt8]?

    package init(
        family: UInt8, prefixLength: UInt8, scope: UInt8, interfaceIndex: UInt32, address: [UInt8]?,
        local: [UInt8]?
    ) {
        self.family = family
        self.prefixLength = prefixLength
        self.scope = scope
        self.interfaceIndex = interfaceIndex
        self.address = address
        self.local = local
    }
}

/// `struct rtmsg` with the attributes that say where a route goes.
package struct RouteInfo: Sendable, Hashable {
    /// `rtm_family`.
    package var family: UInt8
    /// `rtm_dst_len`: 0 for a default route.
    package var destinationLength: UInt8
    /// `rtm_tos`.
    package var tos: UInt8
    /// `RTA_TABLE` when present, else `rtm_table`.
    package var table: UInt32
    /// `rtm_protocol`.
    package var routingProtocol: UInt8
    /// `rtm_scope`.
    package var scope: UInt8
    /// `rtm_type` (`RTN_UNICAST`, `RTN_LOCAL`, `RTN_UNREACHABLE`, …).
    package var type: UInt8
    /// `RTA_DST`.
    package var destination: [UInt8]?
    /// `RTA_GATEWAY`.
    package var gateway: [UInt8]?
    /// `RTA_OIF`.
    package var outputInterface: UInt32?
    /// `RTA_PRIORITY` (the metric).
    package var priority: UInt32?
    /// `RTA_NH_ID`: the route goes through a nexthop object.
    package var nexthopId: UInt32?
    /// `RTA_MULTIPATH`: each nexthop's interface and gateway.
    package var multipath: [Nexthop]

    /// One entry of `RTA_MULTIPATH` (`struct rtnexthop` and its `RTA_GATEWAY`).
    package struct Nexthop: Sendable, Hashable {
        /// `rtnh_ifindex`.
        package var interfaceIndex: Int32
        /// The nested `RTA_GATEWAY`.
        package var gateway: [UInt8]?

        package init(interfaceIndex: Int32, gateway: [UInt8]?) {
            self.interfaceIndex = interfaceIndex
            self.gateway = gateway
        }
    }

    package init(
        family: UInt8, destinationLength: UInt8, tos: UInt8 = 0, table: UInt32, routingProtocol: UInt8 = 0,
        scope: UInt8 = 0, type: UInt8, destination: [UInt8]? = nil, gateway: [UInt8]? = nil,
        outputInterface: UInt32? = nil, priority: UInt32? = nil, nexthopId: UInt32? = nil, multipath: [Nexthop] = []
    ) {
        self.family = family
        self.destinationLength = destinationLength
        self.tos = tos
        self.table = table
        self.routingProtocol = routingProtocol
        self.scope = scope
        self.type = type
        self.destination = destination
        self.gateway = gateway
        self.outputInterface = outputInterface
        self.priority = priority
        self.nexthopId = nexthopId
        self.multipath = multipath
    }

    /// What the kernel treats as the same route: a `NLM_F_REPLACE` or a delete hits every
    /// variant with this key (family, table, destination, length, tos, metric).
    package var key: Key {
        Key(
            family: family, table: table, destination: destination ?? [], destinationLength: destinationLength,
            tos: tos, priority: priority ?? 0)
    }

    /// See ``key``.
    package struct Key: Sendable, Hashable {
        var family: UInt8
        var table: UInt32
        var destination: [UInt8]
        var destinationLength: UInt8
        var tos: UInt8
        var priority: UInt32
    }
}
