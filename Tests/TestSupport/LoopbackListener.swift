import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A listening TCP socket on 127.0.0.1 with a port the kernel chose, for tests' hand-written
/// servers. Returns nil (closing what it opened) when the socket cannot be made, bound or listened
/// on; the caller owns and closes the descriptor.
public func listenOnLoopback(backlog: Int32 = 16) -> (fd: Int32, port: Int)? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ready = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, length) == 0 && listen(fd, backlog) == 0 && getsockname(fd, $0, &length) == 0
        }
    }
    guard ready else {
        close(fd)
        return nil
    }
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
}
