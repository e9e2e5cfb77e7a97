import Foundation

#if canImport(CLinux)
    import CLinux
    import Glibc
#endif

/// The Linux network path monitor: an rtnetlink socket subscribed to link, address and route
/// changes (IPv4 and IPv6), an initial dump of each table, and one small thread that reads the
/// socket with `poll` and folds what it reads into a ``NetworkPath`` (see that type for what
/// counts as usable). Bursts are coalesced for ``debounce`` before they are reported. On other
/// platforms ``start(queue:onChange:)`` throws ``NetworkMonitorError/Kind/unsupportedPlatform``.
///
/// If the kernel's messages are lost (`ENOBUFS`) or unreadable, the monitor dumps everything
/// again; if it cannot go on at all, it reports a path that is ``NetworkPath/unknown(_:generation:)``
/// (and so usable) and stops reading.
public final class NetlinkPathMonitor: NetworkPathMonitor, @unchecked Sendable {
    /// How long a burst of changes is coalesced before it is reported.
    public let debounce: Duration
    /// How long ``start(queue:onChange:)`` waits for the initial dumps.
    public let startTimeout: Duration
    private let log: (@Sendable (String) -> Void)?

    private struct State {
        var current = NetworkPath.unknown("not started")
        /// Deliveries carry the run they belong to; a stopped run's are dropped.
        var run: UInt64 = 0
        var running = false
        /// The run has reported a change (newer than its initial path).
        var reported = false
        #if canImport(CLinux)
            var reader: NetlinkReader?
        #endif
    }

    private let state = Locked(State())

    /// Creates a monitor. `log` receives one line per resynchronisation or failure (no secrets
    /// are involved; it is called on the monitor's thread).
    public init(
        debounce: Duration = .milliseconds(100), startTimeout: Duration = .seconds(5),
        log: (@Sendable (String) -> Void)? = nil
    ) {
        self.debounce = debounce
        self.startTimeout = startTimeout
        self.log = log
    }

    deinit {
        stop()
    }

    public var current: NetworkPath { state.withLock { $0.current } }

    public func start(queue: DispatchQueue, onChange: @escaping @Sendable (NetworkPath) -> Void) throws {
        #if canImport(CLinux)
            let claimed = state.withLock { s -> UInt64? in
                guard !s.running else { return nil }
                s.running = true
                s.reported = false
                s.run += 1
                return s.run
            }
            guard let run = claimed else {
                throw NetworkMonitorError(kind: .alreadyStarted, message: "start() called twice")
            }
            let reader: NetlinkReader
            do {
                reader = try NetlinkReader(debounce: debounce, log: log) { [weak self] path in
                    guard let self else { return }
                    let live = self.state.withLock { s -> Bool in
                        guard s.run == run, s.running else { return false }
                        s.current = path
                        s.reported = true
                        return true
                    }
                    guard live else { return }
                    queue.async { [weak self] in
                        guard let self, self.state.withLock({ $0.run == run && $0.running }) else { return }
                        onChange(path)
                    }
                }
            } catch {
                state.withLock { $0.running = false }
                throw error
            }
            let initial: NetworkPath
            do {
                initial = try reader.waitForInitialPath(timeout: startTimeout)
            } catch {
                reader.stop()
                state.withLock { $0.running = false }
                throw error
            }
            let kept = state.withLock { s -> Bool in
                guard s.running, s.run == run else { return false }  // stop() came first
                if !s.reported { s.current = initial }
                s.reader = reader
                return true
            }
            if !kept { reader.stop() }
        #else
            throw NetworkMonitorError(kind: .unsupportedPlatform, message: "rtnetlink exists only on Linux")
        #endif
    }

    public func stop() {
        #if canImport(CLinux)
            let reader = state.withLock { s -> NetlinkReader? in
                s.running = false
                defer { s.reader = nil }
                return s.reader
            }
            reader?.stop()
        #endif
    }
}

#if canImport(CLinux)
    /// The monitor's thread and everything it owns: the socket, a wake-up pipe, the tracker and the
    /// debouncer. Only the thread touches the tracker and debouncer.
    final class NetlinkReader: @unchecked Sendable {
        private let socket: NetlinkSocket
        private let wakeRead: Int32
        private let wakeWrite: Int32
        private let report: @Sendable (NetworkPath) -> Void
        private let log: (@Sendable (String) -> Void)?
        private let debounceInterval: Duration
        private let started = DispatchSemaphore(value: 0)
        private let exited = DispatchSemaphore(value: 0)
        private let startResult = Locked<Result<NetworkPath, NetworkMonitorError>?>(nil)
        private let stopped = Locked(false)
        private let clock = ContinuousClock()
        private let origin: ContinuousClock.Instant

        init(
            debounce: Duration, log: (@Sendable (String) -> Void)?, report: @escaping @Sendable (NetworkPath) -> Void
        ) throws(NetworkMonitorError) {
            socket = try NetlinkSocket(groups: NetlinkSocket.pathGroups)
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else {
                let error = NetlinkSocket.systemError("pipe")
                socket.close()
                throw error
            }
            for fd in fds {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            }
            wakeRead = fds[0]
            wakeWrite = fds[1]
            debounceInterval = debounce
            self.log = log
            self.report = report
            origin = clock.now
            let thread = Thread { [self] in
                NetlinkReader.nameThisThread("bird.netlink")
                self.run()
                self.exited.signal()
            }
            thread.name = "bird.netlink"
            thread.start()
        }

        /// Names the calling thread in the kernel (`ps -L`, /proc/self/task/*/comm): Foundation's
        /// `Thread.name` does not reach it here, and `prctl` is variadic (Swift cannot call it).
        static func nameThisThread(_ name: String) {
            let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { return }
            defer { close(fd) }
            let bytes = Array(name.utf8.prefix(15))
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        }

        /// Waits for the initial dumps; throws if they fail or take longer than `timeout`.
        func waitForInitialPath(timeout: Duration) throws(NetworkMonitorError) -> NetworkPath {
            let (seconds, attoseconds) = timeout.components
            let nanoseconds = max(0, seconds) * 1_000_000_000 + max(0, attoseconds / 1_000_000_000)
            if started.wait(timeout: .now() + .nanoseconds(Int(clamping: nanoseconds))) == .timedOut {
                throw NetworkMonitorError(
                    kind: .timedOut, message: "the initial rtnetlink dumps took longer than \(timeout)")
            }
            switch startResult.snapshot {
            case .success(let path)?: return path
            case .failure(let error)?: throw error
            case nil:
                throw NetworkMonitorError(kind: .system, message: "the monitor thread ended before its first path")
            }
        }

        /// Wakes the thread, waits for it to end, closes the descriptors. Idempotent.
        func stop() {
            let first = stopped.withLock { s -> Bool in
                defer { s = true }
                return !s
            }
            guard first else { return }
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
            exited.wait()
            socket.close()
            close(wakeRead)
            close(wakeWrite)
        }

        // MARK: - The thread

        private var now: Duration { clock.now - origin }

        private func run() {
            var tracker = NetworkPathTracker(portId: socket.portId)
            var debouncer: PathDebouncer?
            do throws(NetworkMonitorError) {
                try perform(tracker.start())
                while true {
                    var fds = [
                        pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0),
                        pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
                    ]
                    if poll(&fds, 2, pollTimeout(debouncer?.deadline)) < 0 {
                        if errno == EINTR { continue }
                        throw NetlinkSocket.systemError("poll")
                    }
                    if fds[1].revents != 0 { return }
                    if fds[0].revents != 0 { try drain(&tracker) }
                    if var current = debouncer {
                        current.observe(tracker.path, now: now)
                        if let path = current.due(now: now) { report(path) }
                        debouncer = current
                    } else if tracker.isSynchronized {
                        debouncer = PathDebouncer(interval: debounceInterval, initial: tracker.path)
                        startResult.withLock { $0 = .success(tracker.path) }
                        started.signal()
                    }
                }
            } catch {
                log?("network monitor: \(error.message); the path is unknown from now on")
                if debouncer == nil {
                    startResult.withLock { $0 = .failure(error) }
                    started.signal()
                } else {
                    report(.unknown(error.message, generation: tracker.path.generation &+ 1))
                }
            }
        }

        /// Reads until the socket would block, feeding the tracker and sending what it asks for.
        private func drain(_ tracker: inout NetworkPathTracker) throws(NetworkMonitorError) {
            // Bounded so a flood cannot starve the wake-up pipe or the debounce deadline.
            for _ in 0..<256 {
                switch try socket.receive() {
                case .wouldBlock:
                    return
                case .overflow:
                    log?("network monitor: the kernel dropped messages (ENOBUFS); dumping again")
                    try perform(tracker.resynchronize())
                case .truncated:
                    log?("network monitor: a datagram did not fit the buffer; dumping again")
                    try perform(tracker.resynchronize())
                case .datagram(let bytes):
                    let messages: [NetlinkMessage]
                    do throws(NetlinkParseError) {
                        messages = try NetlinkParser.parse(bytes)
                    } catch {
                        log?("network monitor: unreadable rtnetlink message (\(error)); dumping again")
                        try perform(tracker.resynchronize())
                        continue
                    }
                    try perform(tracker.receive(messages))
                }
            }
        }

        private func perform(_ actions: [NetworkPathTracker.Action]) throws(NetworkMonitorError) {
            for action in actions {
                switch action {
                case .requestDump(let kind, let sequence):
                    try socket.send(NetlinkRequest.dump(kind, sequence: sequence, portId: socket.portId))
                case .failed(let reason):
                    throw NetworkMonitorError(kind: .kernel, message: reason)
                }
            }
        }

        /// Milliseconds until `deadline` (rounded up), or -1 (wait for input) without one.
        private func pollTimeout(_ deadline: Duration?) -> Int32 {
            guard let deadline else { return -1 }
            let left = deadline - now
            if left <= .zero { return 0 }
            let (seconds, attoseconds) = left.components
            let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
            return Int32(clamping: milliseconds)
        }
    }
#endif
