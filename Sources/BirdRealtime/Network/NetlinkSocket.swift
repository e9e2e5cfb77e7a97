#if canImport(CLinux)
    import CLinux
    import Glibc

    /// A non-blocking `AF_NETLINK` / `NETLINK_ROUTE` socket subscribed to multicast groups. The file
    /// descriptor is closed by ``close()`` (not by `deinit`: its owner decides when no thread uses it).
    package final class NetlinkSocket: @unchecked Sendable {
        /// What one ``receive()`` got.
        package enum Received: Sendable {
            /// One datagram (one or more messages).
            case datagram([UInt8])
            /// Nothing to read now.
            case wouldBlock
            /// The kernel dropped messages (`ENOBUFS`): dump again.
            case overflow
            /// A datagram was larger than the buffer and was cut (the buffer grows for the next one).
            case truncated
        }

        /// The groups the path monitor listens to: links, IPv4 and IPv6 addresses and routes.
        package static let pathGroups = NetlinkKernel.groups

        /// The descriptor.
        package let descriptor: Int32
        /// The port id the kernel assigned at `bind` (dump replies carry it in `nlmsg_pid`).
        package let portId: UInt32
        private var buffer: [UInt8]
        private static let maximumBuffer = 1 << 20

        /// Opens and binds a socket to `groups` (`RTMGRP_*` bits; 0 for requests only).
        package init(groups: UInt32) throws(NetworkMonitorError) {
            let type = Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
            let fd = Glibc.socket(AF_NETLINK, type, NETLINK_ROUTE)
            guard fd >= 0 else { throw Self.systemError("socket(AF_NETLINK)") }
            // A larger receive buffer makes ENOBUFS (and a full resync) rare under route churn.
            var size: Int32 = 1 << 20
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_nl()
            address.nl_family = sa_family_t(AF_NETLINK)
            address.nl_groups = groups
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_nl>.size))
                }
            }
            guard bound == 0 else {
                let error = Self.systemError("bind(NETLINK_ROUTE)")
                Glibc.close(fd)
                throw error
            }
            var length = socklen_t(MemoryLayout<sockaddr_nl>.size)
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            guard named == 0 else {
                let error = Self.systemError("getsockname(NETLINK_ROUTE)")
                Glibc.close(fd)
                throw error
            }
            descriptor = fd
            portId = address.nl_pid
            buffer = [UInt8](repeating: 0, count: 64 * 1024)
        }

        /// Sends one request to the kernel.
        package func send(_ bytes: [UInt8]) throws(NetworkMonitorError) {
            var kernel = sockaddr_nl()
            kernel.nl_family = sa_family_t(AF_NETLINK)
            while true {
                let sent = bytes.withUnsafeBytes { data in
                    withUnsafePointer(to: &kernel) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                            sendto(
                                descriptor, data.baseAddress, data.count, 0, $0,
                                socklen_t(MemoryLayout<sockaddr_nl>.size))
                        }
                    }
                }
                if sent == bytes.count { return }
                if sent < 0, errno == EINTR { continue }
                throw sent < 0
                    ? Self.systemError("sendto(NETLINK_ROUTE)")
                    : NetworkMonitorError(
                        kind: .system, message: "sendto(NETLINK_ROUTE) sent \(sent) of \(bytes.count) bytes")
            }
        }

        /// Reads one datagram without blocking.
        package func receive() throws(NetworkMonitorError) -> Received {
            while true {
                let count = buffer.count
                let received = buffer.withUnsafeMutableBytes {
                    recv(descriptor, $0.baseAddress, count, Int32(MSG_TRUNC))
                }
                if received >= 0 {
                    guard received <= count else {
                        buffer = [UInt8](repeating: 0, count: min(Self.maximumBuffer, max(count * 2, received)))
                        return .truncated
                    }
                    return .datagram(Array(buffer[0..<received]))
                }
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return .wouldBlock
                case ENOBUFS: return .overflow
                default: throw Self.systemError("recv(NETLINK_ROUTE)")
                }
            }
        }

        /// Closes the descriptor.
        package func close() {
            Glibc.close(descriptor)
        }

        static func systemError(_ operation: String) -> NetworkMonitorError {
            let code = errno
            return NetworkMonitorError(
                kind: .system, message: "\(operation): \(String(cString: strerror(code))) (errno \(code))")
        }
    }
#endif
