#if canImport(CLinux)
    import CLinux
    import Glibc

    /// The kernel's rtnetlink constants and struct sizes, taken from its headers (Modules/CLinux) and
    /// converted once to the widths the wire uses.
    enum NetlinkKernel {
        // MARK: Message types

        static let noop = UInt16(NLMSG_NOOP)
        static let error = UInt16(NLMSG_ERROR)
        static let done = UInt16(NLMSG_DONE)
        static let overrun = UInt16(NLMSG_OVERRUN)
        static let newLink = UInt16(RTM_NEWLINK)
        static let deleteLink = UInt16(RTM_DELLINK)
        static let getLink = UInt16(RTM_GETLINK)
        static let newAddress = UInt16(RTM_NEWADDR)
        static let deleteAddress = UInt16(RTM_DELADDR)
        static let getAddress = UInt16(RTM_GETADDR)
        static let newRoute = UInt16(RTM_NEWROUTE)
        static let deleteRoute = UInt16(RTM_DELROUTE)
        static let getRoute = UInt16(RTM_GETROUTE)

        // MARK: Header flags

        static let flagRequest = UInt16(NLM_F_REQUEST)
        static let flagMulti = UInt16(NLM_F_MULTI)
        static let flagDump = UInt16(NLM_F_DUMP)
        static let flagDumpInterrupted = UInt16(NLM_F_DUMP_INTR)
        static let flagReplace = UInt16(NLM_F_REPLACE)

        // MARK: Attributes

        /// Bits of `rta_type` that are flags, not the type.
        static let attributeTypeMask = ~UInt16(truncatingIfNeeded: NLA_F_NESTED | NLA_F_NET_BYTEORDER)
        static let linkName = UInt16(IFLA_IFNAME)
        static let addressAddress = UInt16(IFA_ADDRESS)
        static let addressLocal = UInt16(IFA_LOCAL)
        static let routeDestination = UInt16(RTA_DST.rawValue)
        static let routeOutputInterface = UInt16(RTA_OIF.rawValue)
        static let routeGateway = UInt16(RTA_GATEWAY.rawValue)
        static let routePriority = UInt16(RTA_PRIORITY.rawValue)
        static let routeTable = UInt16(RTA_TABLE.rawValue)
        static let routeMultipath = UInt16(RTA_MULTIPATH.rawValue)
        static let routeNexthopId = UInt16(RTA_NH_ID.rawValue)

        // MARK: Values

        static let familyIPv4 = UInt8(AF_INET)
        static let familyIPv6 = UInt8(AF_INET6)
        static let routeTypeUnicast = UInt8(RTN_UNICAST)
        static let tableLocal = UInt32(RT_TABLE_LOCAL.rawValue)
        static let interfaceUp = UInt32(IFF_UP)
        static let interfaceRunning = UInt32(IFF_RUNNING)
        static let interfaceLoopback = UInt32(IFF_LOOPBACK)
        static let groups =
            UInt32(RTMGRP_LINK) | UInt32(RTMGRP_IPV4_IFADDR) | UInt32(RTMGRP_IPV6_IFADDR)
            | UInt32(RTMGRP_IPV4_ROUTE) | UInt32(RTMGRP_IPV6_ROUTE)

        // MARK: Layout

        static let headerSize = MemoryLayout<nlmsghdr>.size
        static let messageAlignment = Int(NLMSG_ALIGNTO)
        static let attributeAlignment = Int(RTA_ALIGNTO)
        static let nexthopAlignment = Int(RTNH_ALIGNTO)
        static let attributeHeaderSize = MemoryLayout<rtattr>.size
        static let nexthopSize = MemoryLayout<rtnexthop>.size

        /// `n` rounded up to a multiple of `alignment` (a power of two); `n` is a length read from the
        /// wire (at most `UInt32.max`), so this cannot overflow an `Int`.
        static func aligned(_ n: Int, to alignment: Int) -> Int {
            (n + alignment - 1) & ~(alignment - 1)
        }
    }
#endif
