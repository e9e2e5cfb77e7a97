import BirdWire
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Thousands of fan-out connections on one epoll thread, each a ``FanoutWire`` under a
/// ``FanoutSubscriber``: a non-blocking socket, a frame parser and a few counters per connection,
/// and the receive time read right after each `recv`. Connections open with at most `window`
/// handshakes in flight (a burst of 10,000 SYNs would overflow the edge's accept backlog).
/// IPv4 loopback-style numeric hosts only.
public final class LeanFanoutClients: @unchecked Sendable {
    /// Where to connect and what to speak.
    public struct Target: Sendable {
        /// A numeric IPv4 address.
        public var host: String
        /// The edge's port.
        public var port: Int
        /// The WebSocket path and query, e.g. `/app/KEY?protocol=7`.
        public var path: String
        /// The wire dialect.
        public var dialect: Dialect
        /// The channel every connection subscribes.
        public var channel: String
        /// The app event counted as a delivery.
        public var event: String

        /// A target.
        public init(host: String, port: Int, path: String, dialect: Dialect, channel: String, event: String) {
            self.host = host
            self.port = port
            self.path = path
            self.dialect = dialect
            self.channel = channel
            self.event = event
        }
    }

    private final class Connection {
        let fd: Int32
        var connected = false
        var settled = false  // subscribed or failed: no longer counts against the window
        var wire = FanoutWire()
        var subscriber: FanoutSubscriber
        var out: [UInt8] = []
        var outIndex = 0
        var watching: UInt32 = Epoll.out

        init(fd: Int32, subscriber: FanoutSubscriber) {
            self.fd = fd
            self.subscriber = subscriber
        }
    }

    private enum Command {
        case open(count: Int, window: Int)
        case closeAll
    }

    /// Where the totals go.
    public let recorder: FanoutRecorder
    private let target: Target
    private let request: [UInt8]
    private let address: sockaddr_in
    private let epfd: Int32
    private let lock = NSLock()
    private var commands: [Command] = []
    private var stopRequested = false
    private let finished = DispatchSemaphore(value: 0)

    // Loop-thread state.
    private var slots: [Connection?] = []
    private var free: [Int] = []
    private var toOpen = 0
    private var window = 1
    private var inFlight = 0
    private var batch = FanoutRecorder.Batch()

    /// Starts the loop thread; nothing connects until ``open(count:window:)``. Fails for a host
    /// that is not a numeric IPv4 address.
    public init?(target: Target, recorder: FanoutRecorder) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        guard let port = UInt16(exactly: target.port) else { return nil }
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, target.host, &address.sin_addr) == 1 else { return nil }
        self.address = address
        self.target = target
        self.recorder = recorder
        request = FanoutWire.upgradeRequest(host: target.host, port: target.port, path: target.path)
        epfd = Epoll.create()
        let thread = Thread { [self] in run() }
        thread.name = "bird-bench.fanout"
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Opens `count` more connections, at most `window` handshaking at once (returns at once;
    /// wait on the recorder's `subscribed`).
    public func open(count: Int, window: Int) {
        submit(.open(count: count, window: Swift.max(1, window)))
    }

    /// Closes every connection (returns at once).
    public func closeAll() { submit(.closeAll) }

    /// Closes everything and ends the loop thread.
    public func stop() {
        lock.lock()
        stopRequested = true
        commands.append(.closeAll)
        lock.unlock()
        _ = finished.wait(timeout: .now() + 10)
    }

    private func submit(_ command: Command) {
        lock.lock()
        commands.append(command)
        lock.unlock()
    }

    // MARK: The loop

    private func run() {
        let capacity = 1024
        let events = Epoll.allocateEvents(capacity)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer {
            events.deallocate()
            buffer.deallocate()
        }
        while true {
            lock.lock()
            let pending = commands
            commands.removeAll()
            let stop = stopRequested
            lock.unlock()
            for command in pending {
                switch command {
                case .open(let count, let w):
                    toOpen += count
                    window = w
                case .closeAll:
                    toOpen = 0
                    for index in slots.indices where slots[index] != nil { close(index) }
                }
            }
            if stop { break }
            while toOpen > 0 && inFlight < window {
                toOpen -= 1
                connectOne()
            }
            let n = Epoll.wait(epfd, events, capacity: Int32(capacity), timeout: 5)
            if n > 0 {
                for i in 0..<Int(n) {
                    let (bits, token) = Epoll.entry(events, i)
                    handle(slot: Int(token), bits: bits, buffer: buffer)
                }
            }
            if !batch.isEmpty {
                recorder.record(batch)
                batch = FanoutRecorder.Batch()
            }
        }
        Glibc.close(epfd)
        finished.signal()
    }

    private func connectOne() {
        let fd = socket(
            AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            batch.fail("socket: \(String(cString: strerror(errno)))")
            return
        }
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = self.address
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard rc == 0 || errno == EINPROGRESS else {
            batch.fail("connect: \(String(cString: strerror(errno)))")
            Glibc.close(fd)
            return
        }
        let connection = Connection(
            fd: fd, subscriber: FanoutSubscriber(dialect: target.dialect, channel: target.channel, event: target.event))
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            slots[slot] = connection
        } else {
            slot = slots.count
            slots.append(connection)
        }
        inFlight += 1
        Epoll.ctl(epfd, Epoll.ctlAdd, fd, events: Epoll.out, data: UInt64(slot))
    }

    private func handle(slot: Int, bits: UInt32, buffer: UnsafeMutableRawBufferPointer) {
        guard slot < slots.count, let connection = slots[slot] else { return }
        if !connection.connected {
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(connection.fd, SOL_SOCKET, SO_ERROR, &error, &length)
            guard error == 0 else {
                fail(slot, "connect: \(String(cString: strerror(error)))")
                return
            }
            connection.connected = true
            write(connection, request)
            updateInterest(slot, connection)
            return
        }
        if bits & (Epoll.in | Epoll.hup | Epoll.err) != 0 {
            let n = recv(connection.fd, buffer.baseAddress, buffer.count, 0)
            if n > 0 {
                let received = monotonicNanos()
                let actions = connection.wire.input(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                for action in actions {
                    guard apply(action, slot: slot, connection: connection, received: received) else { return }
                }
            } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
                let reason = n == 0 ? "connection closed by the edge" : String(cString: strerror(errno))
                fail(slot, reason)
                return
            }
        }
        if connection.outIndex < connection.out.count { flush(connection) }
        updateInterest(slot, connection)
    }

    /// Applies one wire action; false when the connection is gone.
    private func apply(_ action: FanoutWire.Action, slot: Int, connection: Connection, received: UInt64) -> Bool {
        switch action {
        case .opened:
            return true
        case .write(let bytes):
            write(connection, bytes)
            return true
        case .closed(let reason):
            fail(slot, reason)
            return false
        case .text(let bytes):
            let outcomes = bytes.withUnsafeBytes { connection.subscriber.input(message: $0, receivedNanos: received) }
            for outcome in outcomes {
                switch outcome {
                case .send(let text): write(connection, FanoutWire.textFrame(text))
                case .subscribed:
                    settle(connection)
                    batch.note(outcome)
                case .failed(let reason):
                    fail(slot, reason)
                    return false
                case .delivery: batch.note(outcome)
                }
            }
            return true
        }
    }

    private func settle(_ connection: Connection) {
        guard !connection.settled else { return }
        connection.settled = true
        inFlight -= 1
    }

    private func write(_ connection: Connection, _ bytes: [UInt8]) {
        if connection.outIndex == connection.out.count {
            connection.out = bytes
            connection.outIndex = 0
        } else {
            connection.out.append(contentsOf: bytes)
        }
        flush(connection)
    }

    private func flush(_ connection: Connection) {
        connection.out.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            while connection.outIndex < raw.count {
                let n = send(
                    connection.fd, base + connection.outIndex, raw.count - connection.outIndex, Int32(MSG_NOSIGNAL))
                if n > 0 {
                    connection.outIndex += n
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    return  // EAGAIN, or an error the next read reports
                }
            }
        }
        if connection.outIndex == connection.out.count {
            connection.out.removeAll(keepingCapacity: true)
            connection.outIndex = 0
        }
    }

    private func updateInterest(_ slot: Int, _ connection: Connection) {
        let wanted = Epoll.in | (connection.outIndex < connection.out.count ? Epoll.out : 0)
        if wanted != connection.watching {
            connection.watching = wanted
            Epoll.ctl(epfd, Epoll.ctlMod, connection.fd, events: wanted, data: UInt64(slot))
        }
    }

    private func fail(_ slot: Int, _ reason: String) {
        guard let connection = slots[slot] else { return }
        if !connection.settled {
            connection.settled = true
            inFlight -= 1
        }
        batch.fail(reason)
        close(slot)
    }

    private func close(_ slot: Int) {
        guard let connection = slots[slot] else { return }
        if !connection.settled {
            connection.settled = true
            inFlight -= 1
        }
        Epoll.ctl(epfd, Epoll.ctlDel, connection.fd, events: 0, data: 0)
        Glibc.close(connection.fd)
        slots[slot] = nil
        free.append(slot)
    }
}
