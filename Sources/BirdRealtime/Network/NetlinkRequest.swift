#if canImport(CLinux)
    import CLinux
    import Glibc

    /// Encodes the dump requests the tracker asks for (`RTM_GETLINK`, `RTM_GETADDR`, `RTM_GETROUTE`
    /// with `NLM_F_REQUEST | NLM_F_DUMP`, all families). Each carries the body struct its type
    /// defines (`ifinfomsg`, `ifaddrmsg`, `rtmsg`), zeroed, which both the lax and the strict
    /// (`NETLINK_GET_STRICT_CHK`) kernel checks accept.
    package enum NetlinkRequest {
        /// The bytes of a dump request.
        package static func dump(_ kind: NetworkPathTracker.DumpKind, sequence: UInt32, portId: UInt32) -> [UInt8] {
            switch kind {
            case .links: return message(type: NetlinkKernel.getLink, body: ifinfomsg(), sequence, portId)
            case .addresses: return message(type: NetlinkKernel.getAddress, body: ifaddrmsg(), sequence, portId)
            case .routes: return message(type: NetlinkKernel.getRoute, body: rtmsg(), sequence, portId)
            }
        }

        private static func message<Body: BitwiseCopyable>(
            type: UInt16, body: Body, _ sequence: UInt32, _ portId: UInt32
        ) -> [UInt8] {
            let bodySize = NetlinkKernel.aligned(MemoryLayout<Body>.size, to: NetlinkKernel.messageAlignment)
            let length = NetlinkKernel.headerSize + bodySize
            var header = nlmsghdr()
            header.nlmsg_len = UInt32(length)
            header.nlmsg_type = type
            header.nlmsg_flags = NetlinkKernel.flagRequest | NetlinkKernel.flagDump
            header.nlmsg_seq = sequence
            header.nlmsg_pid = portId
            var bytes = withUnsafeBytes(of: header) { Array($0) }
            withUnsafeBytes(of: body) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: repeatElement(0, count: length - bytes.count))
            return bytes
        }
    }
#endif
