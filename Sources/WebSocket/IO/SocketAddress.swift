import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A resolved socket address.
struct SocketAddress: Sendable {
    var storage: sockaddr_storage
    var length: socklen_t
    var family: Int32 { Int32(storage.ss_family) }

    /// Resolves `host:port` (IPv4 and IPv6) with getaddrinfo. Blocking: call off the loop.
    static func resolve(host: String, port: Int, passive: Bool = false) -> Result<[SocketAddress], WebSocketError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        if passive { hints.ai_flags = AI_PASSIVE }
        var result: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &result)
        guard rc == 0 else {
            let message = rc == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(rc))
            return .failure(.dnsFailure(host: host, message: message))
        }
        defer { freeaddrinfo(result) }
        var out: [SocketAddress] = []
        var cursor = result
        while let info = cursor {
            if let addr = info.pointee.ai_addr {
                var storage = sockaddr_storage()
                let length = info.pointee.ai_addrlen
                withUnsafeMutableBytes(of: &storage) { dst in
                    dst.copyMemory(from: UnsafeRawBufferPointer(start: addr, count: Int(length)))
                }
                out.append(SocketAddress(storage: storage, length: length))
            }
            cursor = info.pointee.ai_next
        }
        if out.isEmpty { return .failure(.dnsFailure(host: host, message: "no addresses")) }
        return .success(out)
    }

    /// `1.2.3.4:80` or `[::1]:80`.
    var description: String {
        var s = storage
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        return withUnsafePointer(to: &s) { ptr -> String in
            if family == AF_INET6 {
                return ptr.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { sin6 in
                    var a = sin6.pointee.sin6_addr
                    inet_ntop(AF_INET6, &a, &buffer, socklen_t(buffer.count))
                    return "[\(Posix.string(buffer))]:\(UInt16(bigEndian: sin6.pointee.sin6_port))"
                }
            }
            return ptr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin in
                var a = sin.pointee.sin_addr
                inet_ntop(AF_INET, &a, &buffer, socklen_t(buffer.count))
                return "\(Posix.string(buffer)):\(UInt16(bigEndian: sin.pointee.sin_port))"
            }
        }
    }

    /// The port in host order.
    var port: Int {
        var s = storage
        return withUnsafePointer(to: &s) { ptr in
            if family == AF_INET6 {
                return ptr.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin6_port))
                }
            }
            return ptr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                Int(UInt16(bigEndian: $0.pointee.sin_port))
            }
        }
    }

    /// Whether `host` is an IPv4 or IPv6 literal (no SNI for those).
    static func isIPLiteral(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}

/// Small POSIX helpers.
enum Posix {
    /// A NUL-terminated C buffer as a String.
    static func string(_ buffer: [CChar]) -> String {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func errorString(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

    static func setNoDelay(_ fd: Int32) {
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL, 0)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }

    /// Raises the soft open-files limit to the hard limit.
    static func raiseFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    static func peerAddress(_ fd: Int32) -> String {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        guard rc == 0 else { return "unknown" }
        return SocketAddress(storage: storage, length: length).description
    }
}
