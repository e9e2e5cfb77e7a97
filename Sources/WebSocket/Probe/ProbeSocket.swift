import COpenSSL
import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A TCP connection (optionally TLS) whose every operation blocks until it completes or a
/// deadline passes — the probe runs one step at a time and times each, so it needs no event
/// loop. The descriptor is non-blocking; waiting is `poll`. One thread at a time.
final class ProbeSocket {
    private(set) var fd: Int32
    private(set) var tls: TLSSession?

    private init(fd: Int32) { self.fd = fd }

    deinit { close() }

    /// Connects to `address` before `deadline`.
    static func connect(to address: SocketAddress, deadline: ContinuousClock.Instant) -> Result<ProbeSocket, ProbeError>
    {
        let s = socket(
            address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
            0)
        guard s >= 0 else { return .failure(.failed("cannot create a socket: \(Posix.errorString())")) }
        let probe = ProbeSocket(fd: s)
        Posix.setNoDelay(s)
        var storage = address.storage
        let rc = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(s, $0, address.length) }
        }
        if rc != 0 {
            let e = errno
            guard e == EINPROGRESS else { return .failure(connectError(e)) }
            guard probe.wait(for: Int16(POLLOUT), until: deadline) else { return .failure(.timedOut) }
            var err: Int32 = 0
            var len = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len)
            if err != 0 { return .failure(connectError(err)) }
        }
        return .success(probe)
    }

    private static func connectError(_ code: Int32) -> ProbeError {
        switch code {
        case ECONNREFUSED: return .refused
        case ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL, ENETDOWN: return .unreachable(Posix.errorString(code))
        case ETIMEDOUT: return .timedOut
        default: return .failed(Posix.errorString(code))
        }
    }

    /// Runs the TLS client handshake. `session` must be fresh; it is kept for reads and writes.
    func handshake(_ session: TLSSession, deadline: ContinuousClock.Instant) -> Result<Void, ProbeError> {
        tls = session
        while true {
            switch session.handshake() {
            case .bytes: return .success(())
            case .wantRead: guard wait(for: Int16(POLLIN), until: deadline) else { return .failure(.timedOut) }
            case .wantWrite: guard wait(for: Int16(POLLOUT), until: deadline) else { return .failure(.timedOut) }
            case .closed: return .failure(.closed)
            case .failed(let reason): return .failure(.failed(reason))
            }
        }
    }

    /// Writes all of `bytes` before `deadline`.
    func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant) -> Result<Void, ProbeError> {
        guard fd >= 0 else { return .failure(.notReady("not connected")) }
        var offset = 0
        while offset < bytes.count {
            let step: Result<Int, ProbeError> = bytes.withUnsafeBytes { raw in
                let chunk = UnsafeRawBufferPointer(rebasing: raw[offset...])
                if let tls {
                    switch tls.write(chunk) {
                    case .bytes(let n): return .success(n)
                    case .wantRead: return wait(for: Int16(POLLIN), until: deadline) ? .success(0) : .failure(.timedOut)
                    case .wantWrite:
                        return wait(for: Int16(POLLOUT), until: deadline) ? .success(0) : .failure(.timedOut)
                    case .closed: return .failure(.closed)
                    case .failed(let reason): return .failure(.failed(reason))
                    }
                }
                let n = send(fd, chunk.baseAddress, chunk.count, Int32(MSG_NOSIGNAL))
                if n >= 0 { return .success(n) }
                let e = errno
                if e == EINTR { return .success(0) }
                if e == EAGAIN || e == EWOULDBLOCK {
                    return wait(for: Int16(POLLOUT), until: deadline) ? .success(0) : .failure(.timedOut)
                }
                if e == EPIPE || e == ECONNRESET { return .failure(.closed) }
                return .failure(.failed(Posix.errorString(e)))
            }
            switch step {
            case .success(let n): offset += n
            case .failure(let error): return .failure(error)
            }
        }
        return .success(())
    }

    /// Reads what is available (at least one byte) before `deadline`; `.closed` at end of stream.
    func read(deadline: ContinuousClock.Instant) -> Result<[UInt8], ProbeError> {
        guard fd >= 0 else { return .failure(.notReady("not connected")) }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let step: Result<Int, ProbeError>? = buffer.withUnsafeMutableBytes { raw in
                if let tls {
                    switch tls.read(into: raw) {
                    case .bytes(let n): return .success(n)
                    case .wantRead: return wait(for: Int16(POLLIN), until: deadline) ? nil : .failure(.timedOut)
                    case .wantWrite: return wait(for: Int16(POLLOUT), until: deadline) ? nil : .failure(.timedOut)
                    case .closed: return .failure(.closed)
                    case .failed(let reason): return .failure(.failed(reason))
                    }
                }
                let n = recv(fd, raw.baseAddress, raw.count, 0)
                if n > 0 { return .success(n) }
                if n == 0 { return .failure(.closed) }
                let e = errno
                if e == EINTR { return nil }
                if e == EAGAIN || e == EWOULDBLOCK {
                    return wait(for: Int16(POLLIN), until: deadline) ? nil : .failure(.timedOut)
                }
                if e == ECONNRESET { return .failure(.closed) }
                return .failure(.failed(Posix.errorString(e)))
            }
            switch step {
            case nil: continue
            case .success(let n)?: return .success(Array(buffer[0..<n]))
            case .failure(let error)?: return .failure(error)
            }
        }
    }

    /// Closes the connection (close_notify first when TLS is up).
    func close() {
        guard fd >= 0 else { return }
        tls?.shutdown()
        tls = nil
        Glibc.close(fd)
        fd = -1
    }

    /// Waits until `events` are ready or `deadline` passes; true when ready (or in error, which
    /// the next call reports).
    private func wait(for events: Int16, until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return false }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let rc = poll(&entry, 1, ProbeSocket.milliseconds(remaining))
            if rc > 0 { return true }
            if rc == 0 { continue }  // loop re-checks the deadline
            if errno != EINTR { return true }
        }
    }

    /// A duration as poll's timeout: whole milliseconds rounded up, at most Int32.max.
    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        let ms = seconds.multipliedReportingOverflow(by: 1000)
        guard !ms.overflow else { return Int32.max }
        let total = ms.partialValue + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: total)
    }
}
