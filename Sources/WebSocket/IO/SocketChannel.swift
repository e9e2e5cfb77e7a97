import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Receives what happens on a `SocketChannel` (on the loop thread).
protocol ChannelDelegate: AnyObject {
    /// TCP (and TLS, when used) is established.
    func channelActive(_ channel: SocketChannel)
    /// Bytes arrived. The memory is valid only during the call.
    func channelRead(_ channel: SocketChannel, _ bytes: UnsafeRawBufferPointer)
    /// `count` queued bytes reached the kernel.
    func channelWrote(_ channel: SocketChannel, count: Int)
    /// The peer closed the connection (nil) or it failed; not called after a local `close()`.
    func channelClosed(_ channel: SocketChannel, error: WebSocketError?)
}

/// A non-blocking TCP socket, optionally with TLS, driven by an `EventLoop`: connects (trying
/// each resolved address), performs the TLS handshake, reads into the loop's scratch buffer and
/// writes from a queue. Loop thread only.
final class SocketChannel: LoopHandler {
    enum Phase { case connecting, tlsHandshake, active, draining, closed }

    let loop: EventLoop
    let host: String
    let port: Int
    var delegate: ChannelDelegate?
    private(set) var phase: Phase
    private(set) var fd: Int32 = -1
    private var token: UInt64 = 0
    private var watched: UInt32 = 0
    private var tls: TLSSession?
    private var tlsContext: TLSContext?
    private var handshakeWants: UInt32 = 0
    private var readingEnabled = true
    private var out: [UInt8] = []
    private var outIndex = 0
    private var closeWhenFlushed = false
    private var addresses: [SocketAddress] = []
    private var lastConnectErrno: Int32 = 0
    private var drainTimer: EventLoop.Timer?

    /// Starts connecting to `addresses` in order; TLS with `tlsContext` when given.
    init(
        loop: EventLoop, connectingTo addresses: [SocketAddress], host: String, port: Int, tlsContext: TLSContext?,
        delegate: ChannelDelegate
    ) {
        self.loop = loop
        self.host = host
        self.port = port
        self.tlsContext = tlsContext
        self.delegate = delegate
        self.phase = .connecting
        self.addresses = addresses
    }

    /// Wraps an accepted socket (server side); TLS accept with `tlsContext` when given.
    init(loop: EventLoop, acceptedFD: Int32, peer: String, tlsContext: TLSContext?, delegate: ChannelDelegate?) {
        self.loop = loop
        self.host = peer
        self.port = 0
        self.fd = acceptedFD
        self.tlsContext = tlsContext
        self.delegate = delegate
        self.phase = .tlsHandshake
    }

    /// Begins: connect for outgoing channels, TLS accept or activation for accepted ones.
    func start() {
        if phase == .connecting {
            tryNextAddress()
            return
        }
        token = loop.register(fd: fd, events: EventLoop.readable, handler: self)
        watched = EventLoop.readable
        if let ctx = tlsContext {
            guard let session = TLSSession(context: ctx, fd: fd, serverName: nil) else {
                fail(.tls(host: host, reason: "cannot create TLS session"))
                return
            }
            tls = session
            driveHandshake()
        } else {
            becomeActive()
        }
    }

    // MARK: Connecting

    private func tryNextAddress() {
        while !addresses.isEmpty {
            let address = addresses.removeFirst()
            let s = socket(
                address.family,
                Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard s >= 0 else {
                lastConnectErrno = errno
                continue
            }
            Posix.setNoDelay(s)
            var storage = address.storage
            let rc = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(s, $0, address.length) }
            }
            if rc == 0 || errno == EINPROGRESS {
                fd = s
                token = loop.register(fd: fd, events: EventLoop.writable, handler: self)
                watched = EventLoop.writable
                if rc == 0 { finishConnect() }
                return
            }
            lastConnectErrno = errno
            Glibc.close(s)
        }
        let code = lastConnectErrno
        if code == ECONNREFUSED {
            fail(.connectionRefused(host: host, port: port))
        } else {
            fail(.network("cannot connect to \(host):\(port): \(Posix.errorString(code))"))
        }
    }

    private func finishConnect() {
        var err: Int32 = 0
        var len = socklen_t(MemoryLayout<Int32>.size)
        _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len)
        if err != 0 {
            lastConnectErrno = err
            loop.deregister(fd: fd, token: token)
            Glibc.close(fd)
            fd = -1
            tryNextAddress()
            return
        }
        if let ctx = tlsContext {
            guard let session = TLSSession(context: ctx, fd: fd, serverName: host) else {
                fail(.tls(host: host, reason: "cannot create TLS session"))
                return
            }
            tls = session
            phase = .tlsHandshake
            driveHandshake()
        } else {
            becomeActive()
        }
    }

    private func driveHandshake() {
        guard let tls else { return }
        switch tls.handshake() {
        case .bytes:
            handshakeWants = 0
            becomeActive()
        case .wantRead:
            handshakeWants = EventLoop.readable
            updateInterest()
        case .wantWrite:
            handshakeWants = EventLoop.writable
            updateInterest()
        case .closed:
            fail(.tls(host: host, reason: "connection closed during TLS handshake"))
        case .failed(let reason):
            fail(.tls(host: host, reason: reason))
        }
    }

    private func becomeActive() {
        phase = .active
        updateInterest()
        delegate?.channelActive(self)
        if phase == .active { flush() }
    }

    // MARK: Events

    func handleEvent(_ events: UInt32) {
        switch phase {
        case .connecting:
            finishConnect()
        case .tlsHandshake:
            driveHandshake()
        case .active, .draining:
            if events & (EventLoop.readable | EventLoop.hangup) != 0 {
                if readingEnabled || phase == .draining {
                    readAvailable()
                } else if events & EventLoop.hangup != 0 {
                    fail(nil)
                    return
                }
            }
            if (phase == .active || phase == .draining) && outIndex < out.count { flush() }
            if phase == .active || phase == .draining { updateInterest() }
        case .closed:
            break
        }
    }

    private func readAvailable() {
        let buffer = loop.readBuffer
        var total = 0
        while phase == .active || phase == .draining {
            guard readingEnabled || phase == .draining else { return }
            if total >= 1 << 20 {
                if let tls, tls.pending > 0 { loop.execute { [weak self] in self?.readAvailable() } }
                return
            }
            let n: Int
            if let tls {
                switch tls.read(into: buffer) {
                case .bytes(let c): n = c
                case .wantRead, .wantWrite: return
                case .closed: n = 0
                case .failed(let reason):
                    fail(phase == .draining ? nil : .network("TLS read failed: \(reason)"))
                    return
                }
            } else {
                n = recv(fd, buffer.baseAddress, buffer.count, 0)
                if n < 0 {
                    let e = errno
                    if e == EAGAIN || e == EWOULDBLOCK { return }
                    if e == EINTR { continue }
                    fail(phase == .draining ? nil : .network(Posix.errorString(e)))
                    return
                }
            }
            if n == 0 {
                fail(nil)
                return
            }
            total += n
            if phase == .draining { continue }
            delegate?.channelRead(self, UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
    }

    // MARK: Writing

    /// Queues bytes and writes what the socket accepts now.
    func write(_ bytes: [UInt8]) {
        guard phase != .closed, phase != .draining, !closeWhenFlushed, !bytes.isEmpty else { return }
        if out.isEmpty {
            out = bytes
            outIndex = 0
        } else {
            out.append(contentsOf: bytes)
        }
        if phase == .active { flush() }
    }

    /// Bytes queued but not yet written.
    var queuedByteCount: Int { out.count - outIndex }

    private func flush() {
        var wrote = 0
        var failure: WebSocketError?
        out.withUnsafeBytes { raw in
            while outIndex < raw.count {
                let chunk = UnsafeRawBufferPointer(rebasing: raw[outIndex...])
                if let tls {
                    switch tls.write(chunk) {
                    case .bytes(let n):
                        outIndex += n
                        wrote += n
                        continue
                    case .wantRead, .wantWrite: return
                    case .closed:
                        failure = .network("connection closed by peer")
                        return
                    case .failed(let reason):
                        failure = .network("TLS write failed: \(reason)")
                        return
                    }
                }
                let n = send(fd, chunk.baseAddress, chunk.count, Int32(MSG_NOSIGNAL))
                if n > 0 {
                    outIndex += n
                    wrote += n
                    continue
                }
                let e = errno
                if e == EINTR { continue }
                if e == EAGAIN || e == EWOULDBLOCK { return }
                failure = .network(Posix.errorString(e))
                return
            }
        }
        if outIndex == out.count {
            out.removeAll(keepingCapacity: out.capacity <= 1 << 20)
            outIndex = 0
        } else if outIndex >= 1 << 20 && outIndex * 2 >= out.count {
            out.removeSubrange(0..<outIndex)  // a slow reader: don't let written bytes pile up
            outIndex = 0
        }
        if wrote > 0 { delegate?.channelWrote(self, count: wrote) }
        if let failure {
            fail(failure)
            return
        }
        if out.isEmpty && closeWhenFlushed && phase == .active { beginDraining() }
        if phase == .active { updateInterest() }
    }

    // MARK: Interest

    /// Stops or resumes reading (a paused channel neither reads nor notices a half-close).
    func setReading(_ enabled: Bool) {
        guard readingEnabled != enabled else { return }
        readingEnabled = enabled
        guard phase == .active else { return }
        updateInterest()
        if enabled, let tls, tls.pending > 0 { loop.execute { [weak self] in self?.readAvailable() } }
    }

    private func updateInterest() {
        guard fd >= 0, phase != .closed else { return }
        var wanted: UInt32 = 0
        switch phase {
        case .connecting: wanted = EventLoop.writable
        case .tlsHandshake: wanted = handshakeWants == 0 ? EventLoop.readable : handshakeWants
        case .active:
            if readingEnabled { wanted |= EventLoop.readable }
            if outIndex < out.count { wanted |= EventLoop.writable }
        case .draining: wanted = EventLoop.readable
        case .closed: return
        }
        if wanted != watched {
            watched = wanted
            loop.modify(fd: fd, token: token, events: wanted)
        }
    }

    // MARK: Closing

    /// Writes what is queued, then half-closes and closes after the peer does (or a 2 s grace).
    /// No delegate callbacks follow.
    func closeAfterFlush() {
        guard phase != .closed, phase != .draining else { return }
        delegate = nil
        closeWhenFlushed = true
        if phase != .active {
            close()
            return
        }
        if out.isEmpty { beginDraining() } else { updateInterest() }
    }

    private func beginDraining() {
        tls?.shutdown()
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
        phase = .draining
        readingEnabled = true
        updateInterest()
        drainTimer = loop.schedule(after: .seconds(2)) { [weak self] in self?.close() }
    }

    deinit {
        // Reached only when the loop itself was torn down; the descriptor must not leak.
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Closes now (no callback to the delegate).
    func close() {
        guard phase != .closed else { return }
        phase = .closed
        delegate = nil
        drainTimer?.cancel()
        drainTimer = nil
        if fd >= 0 {
            loop.deregister(fd: fd, token: token)
            Glibc.close(fd)
            fd = -1
        }
        tls = nil
        out = []
        outIndex = 0
    }

    private func fail(_ error: WebSocketError?) {
        guard phase != .closed else { return }
        let delegate = self.delegate
        close()
        delegate?.channelClosed(self, error: error)
    }
}
