#if canImport(CLinux)
    import CLinux

    /// Reads the rtnetlink messages of one datagram (`recv` on a `NETLINK_ROUTE` socket), in host byte
    /// order, as the kernel writes them. Pure: bytes in, values out. Every length is checked against
    /// the bytes that remain; the first violation ends the datagram with a ``NetlinkParseError`` (after
    /// a bad length nothing later can be trusted), and the caller resynchronises with a fresh dump.
    package enum NetlinkParser {
        /// Parses a datagram.
        package static func parse(_ bytes: [UInt8]) throws(NetlinkParseError) -> [NetlinkMessage] {
            let result: Result<[NetlinkMessage], NetlinkParseError> = bytes.withUnsafeBytes { buffer in
                do throws(NetlinkParseError) {
                    return .success(try parse(buffer))
                } catch {
                    return .failure(error)
                }
            }
            return try result.get()
        }

        /// Parses a datagram in place.
        package static func parse(_ buffer: UnsafeRawBufferPointer) throws(NetlinkParseError) -> [NetlinkMessage] {
            var messages: [NetlinkMessage] = []
            var offset = 0
            while offset < buffer.count {
                let remaining = buffer.count - offset
                guard remaining >= NetlinkKernel.headerSize else {
                    throw NetlinkParseError(
                        .truncatedHeader, offset: offset,
                        "\(remaining) bytes left, a header needs \(NetlinkKernel.headerSize)")
                }
                let raw = buffer.loadUnaligned(fromByteOffset: offset, as: nlmsghdr.self)
                let length = Int(raw.nlmsg_len)
                guard length >= NetlinkKernel.headerSize, length <= remaining else {
                    throw NetlinkParseError(
                        .badLength, offset: offset, "nlmsg_len \(length) with \(remaining) bytes left")
                }
                let header = NetlinkHeader(
                    length: raw.nlmsg_len, type: raw.nlmsg_type, flags: raw.nlmsg_flags, sequence: raw.nlmsg_seq,
                    portId: raw.nlmsg_pid)
                let body = Region(
                    buffer: buffer, start: offset + NetlinkKernel.headerSize, end: offset + length)
                let payload = try parseBody(type: header.type, body)
                messages.append(NetlinkMessage(header: header, payload: payload))
                offset += min(NetlinkKernel.aligned(length, to: NetlinkKernel.messageAlignment), remaining)
            }
            return messages
        }

        // MARK: - Bodies

        private static func parseBody(type: UInt16, _ body: Region) throws(NetlinkParseError) -> NetlinkPayload {
            switch type {
            case NetlinkKernel.noop:
                return .ignored
            case NetlinkKernel.done:
                return .done
            case NetlinkKernel.overrun:
                return .overrun
            case NetlinkKernel.error:
                let code = try body.load(Int32.self, at: body.start, what: "nlmsgerr")
                return .error(code: code)
            case NetlinkKernel.newLink, NetlinkKernel.deleteLink:
                let link = try parseLink(body)
                return type == NetlinkKernel.newLink ? .newLink(link) : .deleteLink(link)
            case NetlinkKernel.newAddress, NetlinkKernel.deleteAddress:
                let address = try parseAddress(body)
                return type == NetlinkKernel.newAddress ? .newAddress(address) : .deleteAddress(address)
            case NetlinkKernel.newRoute, NetlinkKernel.deleteRoute:
                let route = try parseRoute(body)
                return type == NetlinkKernel.newRoute ? .newRoute(route) : .deleteRoute(route)
            default:
                return .ignored
            }
        }

        private static func parseLink(_ body: Region) throws(NetlinkParseError) -> LinkInfo {
            let fixed = try body.load(ifinfomsg.self, at: body.start, what: "ifinfomsg")
            var link = LinkInfo(index: fixed.ifi_index, flags: fixed.ifi_flags, name: nil)
            try body.forEachAttribute(after: MemoryLayout<ifinfomsg>.size) { type, value throws(NetlinkParseError) in
                if type == NetlinkKernel.linkName { link.name = value.string() }
            }
            return link
        }

        private static func parseAddress(_ body: Region) throws(NetlinkParseError) -> AddressInfo {
            let fixed = try body.load(ifaddrmsg.self, at: body.start, what: "ifaddrmsg")
            var address = AddressInfo(
                family: fixed.ifa_family, prefixLength: fixed.ifa_prefixlen, scope: fixed.ifa_scope,
                interfaceIndex: fixed.ifa_index, address: nil, local: nil)
            try body.forEachAttribute(after: MemoryLayout<ifaddrmsg>.size) { type, value throws(NetlinkParseError) in
                switch type {
                case NetlinkKernel.addressAddress:
                    address.address = try value.ipAddress(family: fixed.ifa_family, what: "IFA_ADDRESS")
                case NetlinkKernel.addressLocal:
                    address.local = try value.ipAddress(family: fixed.ifa_family, what: "IFA_LOCAL")
                default:
                    break
                }
            }
            return address
        }

        private static func parseRoute(_ body: Region) throws(NetlinkParseError) -> RouteInfo {
            let fixed = try body.load(rtmsg.self, at: body.start, what: "rtmsg")
            let family = fixed.rtm_family
            var route = RouteInfo(
                family: family, destinationLength: fixed.rtm_dst_len, tos: fixed.rtm_tos,
                table: UInt32(fixed.rtm_table),
                routingProtocol: fixed.rtm_protocol, scope: fixed.rtm_scope, type: fixed.rtm_type)
            try body.forEachAttribute(after: MemoryLayout<rtmsg>.size) { type, value throws(NetlinkParseError) in
                switch type {
                case NetlinkKernel.routeDestination:
                    route.destination = try value.ipAddress(family: family, what: "RTA_DST")
                case NetlinkKernel.routeGateway:
                    route.gateway = try value.ipAddress(family: family, what: "RTA_GATEWAY")
                case NetlinkKernel.routeOutputInterface:
                    route.outputInterface = try value.uint32(what: "RTA_OIF")
                case NetlinkKernel.routePriority:
                    route.priority = try value.uint32(what: "RTA_PRIORITY")
                case NetlinkKernel.routeTable:
                    route.table = try value.uint32(what: "RTA_TABLE")
                case NetlinkKernel.routeNexthopId:
                    route.nexthopId = try value.uint32(what: "RTA_NH_ID")
                case NetlinkKernel.routeMultipath:
                    route.multipath = try parseNexthops(value, family: family)
                default:
                    break
                }
            }
            return route
        }

        /// `RTA_MULTIPATH`: `struct rtnexthop` entries, each followed by its own attributes.
        private static func parseNexthops(_ value: Region, family: UInt8) throws(NetlinkParseError)
            -> [RouteInfo.Nexthop]
        {
            var nexthops: [RouteInfo.Nexthop] = []
            var offset = value.start
            while value.end - offset >= NetlinkKernel.nexthopSize {
                let fixed = try value.load(rtnexthop.self, at: offset, what: "rtnexthop")
                let length = Int(fixed.rtnh_len)
                guard length >= NetlinkKernel.nexthopSize, length <= value.end - offset else {
                    throw NetlinkParseError(
                        .badAttribute, offset: offset, "rtnh_len \(length) with \(value.end - offset) bytes left")
                }
                var nexthop = RouteInfo.Nexthop(interfaceIndex: fixed.rtnh_ifindex, gateway: nil)
                let inner = Region(buffer: value.buffer, start: offset, end: offset + length)
                try inner.forEachAttribute(after: NetlinkKernel.nexthopSize) {
                    type, attribute throws(NetlinkParseError) in
                    if type == NetlinkKernel.routeGateway {
                        nexthop.gateway = try attribute.ipAddress(family: family, what: "RTA_GATEWAY")
                    }
                }
                nexthops.append(nexthop)
                offset += min(NetlinkKernel.aligned(length, to: NetlinkKernel.nexthopAlignment), value.end - offset)
            }
            return nexthops
        }
    }

    // MARK: - Bounded views

    /// A range of a datagram; every read is checked against `end`.
    private struct Region {
        let buffer: UnsafeRawBufferPointer
        let start: Int
        let end: Int

        var count: Int { end - start }

        func load<T: BitwiseCopyable>(_ type: T.Type, at offset: Int, what: String) throws(NetlinkParseError) -> T {
            guard offset >= start, end - offset >= MemoryLayout<T>.size else {
                throw NetlinkParseError(
                    .truncatedBody, offset: offset,
                    "\(what) needs \(MemoryLayout<T>.size) bytes, \(max(0, end - offset)) left")
            }
            return buffer.loadUnaligned(fromByteOffset: offset, as: T.self)
        }

        /// Calls `body` with each `rtattr` (type without flag bits, value span) from the aligned end of
        /// a fixed part of `fixedSize` bytes to `end`. Padding shorter than an attribute header at the
        /// end is allowed.
        func forEachAttribute(
            after fixedSize: Int, _ body: (UInt16, Region) throws(NetlinkParseError) -> Void
        ) throws(NetlinkParseError) {
            var offset = start + NetlinkKernel.aligned(fixedSize, to: NetlinkKernel.attributeAlignment)
            while end - offset >= NetlinkKernel.attributeHeaderSize {
                let header = buffer.loadUnaligned(fromByteOffset: offset, as: rtattr.self)
                let length = Int(header.rta_len)
                guard length >= NetlinkKernel.attributeHeaderSize, length <= end - offset else {
                    throw NetlinkParseError(
                        .badAttribute, offset: offset,
                        "rta_len \(length) (type \(header.rta_type)) with \(end - offset) bytes left")
                }
                let value = Region(
                    buffer: buffer, start: offset + NetlinkKernel.attributeHeaderSize, end: offset + length)
                try body(header.rta_type & NetlinkKernel.attributeTypeMask, value)
                offset += min(NetlinkKernel.aligned(length, to: NetlinkKernel.attributeAlignment), end - offset)
            }
        }

        var bytes: [UInt8] { Array(buffer[start..<end]) }

        /// A NUL-terminated string (the NUL optional); invalid UTF-8 becomes U+FFFD.
        func string() -> String {
            let slice = buffer[start..<end]
            let text = slice.prefix { $0 != 0 }
            return String(decoding: text, as: UTF8.self)
        }

        func uint32(what: String) throws(NetlinkParseError) -> UInt32 {
            guard count >= 4 else {
                throw NetlinkParseError(.badAttributeValue, offset: start, "\(what) has \(count) bytes, needs 4")
            }
            return buffer.loadUnaligned(fromByteOffset: start, as: UInt32.self)
        }

        /// An address of the family's size (4 or 16 bytes); other families keep their bytes as they are.
        func ipAddress(family: UInt8, what: String) throws(NetlinkParseError) -> [UInt8] {
            let expected: Int?
            switch family {
            case NetlinkKernel.familyIPv4: expected = 4
            case NetlinkKernel.familyIPv6: expected = 16
            default: expected = nil
            }
            if let expected, count != expected {
                throw NetlinkParseError(
                    .badAttributeValue, offset: start, "\(what) has \(count) bytes, family \(family) needs \(expected)")
            }
            return bytes
        }
    }
#endif
