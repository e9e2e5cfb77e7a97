#if os(Linux)
    /// Builds rtnetlink datagrams by hand for the parser's and tracker's hostile-input tests (the
    /// well-formed cases use the recordings in NetlinkRecordings/). Host byte order: little-endian.
    enum NetlinkBytes {
        static let newLink: UInt16 = 16
        static let newAddress: UInt16 = 20
        static let newRoute: UInt16 = 24
        static let deleteRoute: UInt16 = 25
        static let error: UInt16 = 2
        static let done: UInt16 = 3

        static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8)] }
        static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xff) } }

        /// `nlmsghdr` + body, padded to 4; `length` overrides `nlmsg_len`.
        static func message(
            type: UInt16, flags: UInt16 = 0, sequence: UInt32 = 0, portId: UInt32 = 0, body: [UInt8],
            length: UInt32? = nil
        ) -> [UInt8] {
            let total = 16 + body.count
            var bytes = le32(length ?? UInt32(total)) + le16(type) + le16(flags) + le32(sequence) + le32(portId) + body
            while bytes.count % 4 != 0 { bytes.append(0) }
            return bytes
        }

        /// `rtattr` + value, padded to 4; `length` overrides `rta_len`.
        static func attribute(_ type: UInt16, _ value: [UInt8], length: UInt16? = nil) -> [UInt8] {
            var bytes = le16(length ?? UInt16(4 + value.count)) + le16(type) + value
            while bytes.count % 4 != 0 { bytes.append(0) }
            return bytes
        }

        /// `struct rtmsg`: family, dst_len, src_len, tos, table, protocol, scope, type, flags.
        static func rtmsg(family: UInt8 = 2, destinationLength: UInt8 = 0, table: UInt8 = 254, type: UInt8 = 1)
            -> [UInt8]
        {
            [family, destinationLength, 0, 0, table, 3, 0, type] + le32(0)
        }

        /// `struct ifinfomsg`: family, pad, type, index, flags, change.
        static func ifinfomsg(index: Int32, flags: UInt32) -> [UInt8] {
            [0, 0] + le16(772) + le32(UInt32(bitPattern: index)) + le32(flags) + le32(0)
        }

        /// `struct ifaddrmsg`: family, prefixlen, flags, scope, index.
        static func ifaddrmsg(family: UInt8 = 2, prefixLength: UInt8 = 24, index: UInt32) -> [UInt8] {
            [family, prefixLength, 0, 0] + le32(index)
        }

        /// A route message: `RTA_TABLE`, then `RTA_OIF` when given, then `extra` attributes.
        static func route(
            type: UInt16 = newRoute, flags: UInt16 = 0, sequence: UInt32 = 0, portId: UInt32 = 0, family: UInt8 = 2,
            destinationLength: UInt8 = 0, routeType: UInt8 = 1, table: UInt8 = 254, outputInterface: UInt32? = nil,
            extra: [UInt8] = []
        ) -> [UInt8] {
            var body = rtmsg(family: family, destinationLength: destinationLength, table: table, type: routeType)
            body += attribute(15, le32(UInt32(table)))
            if let outputInterface { body += attribute(4, le32(outputInterface)) }
            body += extra
            return message(type: type, flags: flags, sequence: sequence, portId: portId, body: body)
        }

        /// `IFF_UP | IFF_RUNNING` (and `IFF_LOOPBACK`).
        static let up: UInt32 = 0x1 | 0x40
        static let loopback: UInt32 = 0x8
    }
#endif
