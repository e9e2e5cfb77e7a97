import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Something registered with an `EventLoop` for readiness events on one file descriptor.
protocol LoopHandler: AnyObject {
    /// Called on the loop thread with the epoll event bits.
    func handleEvent(_ events: UInt32)
}

/// One epoll event-loop thread: file-descriptor readiness, tasks submitted from any thread, and
/// one-shot timers. Everything registered with a loop is touched only on its thread.
final class EventLoop: @unchecked Sendable {
    /// A cancellable timer; cancel only on the loop thread.
    final class Timer {
        fileprivate var action: (() -> Void)?
        fileprivate let deadline: UInt64
        fileprivate init(deadline: UInt64, action: @escaping () -> Void) {
            self.deadline = deadline
            self.action = action
        }
        /// Prevents the action from running.
        func cancel() { action = nil }
    }

    static let readable = Epoll.in
    static let writable = Epoll.out
    static let hangup = Epoll.hup | Epoll.err

    /// The loop shared by all clients (`WebSocketClient`, `HTTPClient`); started on first use.
    static let shared = EventLoop(name: "WebSocket.client")

    /// A scratch buffer for reads, shared by all handlers of this loop (loop thread only).
    let readBuffer: UnsafeMutableRawBufferPointer

    private let epfd: Int32
    private let wakeFD: Int32
    private let lock = NSLock()
    private var tasks: [() -> Void] = []
    private var wakePending = false
    private var stopRequested = false
    private let finished = DispatchSemaphore(value: 0)
    private var thread: pthread_t?

    // Loop-thread state.
    private var handlers: [UInt64: LoopHandler] = [:]
    private var nextToken: UInt64 = 1
    private var timers: [Timer] = []

    init(name: String) {
        epfd = Epoll.create()
        wakeFD = Epoll.eventfd()
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
        _ = Epoll.ctl(epfd, Epoll.ctlAdd, wakeFD, events: EventLoop.readable, data: 0)
        signal(SIGPIPE, SIG_IGN)
        let started = DispatchSemaphore(value: 0)
        // The thread keeps the loop alive while it runs.
        let thread = Thread {
            self.lock.lock()
            self.thread = pthread_self()
            self.lock.unlock()
            started.signal()
            self.run()
        }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
        started.wait()
    }

    deinit {
        readBuffer.deallocate()
        close(epfd)
        close(wakeFD)
    }

    /// Whether the caller runs on this loop's thread.
    var inLoop: Bool {
        lock.lock()
        defer { lock.unlock() }
        guard let t = thread else { return false }
        return pthread_equal(t, pthread_self()) != 0
    }

    /// Runs `task` on the loop thread, after tasks submitted before it.
    func execute(_ task: @escaping () -> Void) {
        lock.lock()
        tasks.append(task)
        let wake = !wakePending
        wakePending = true
        lock.unlock()
        if wake {
            var one: UInt64 = 1
            _ = write(wakeFD, &one, 8)
        }
    }

    /// Runs `task` on the loop thread and waits for it (must not be called on the loop thread).
    func executeAndWait(_ task: @escaping () -> Void) {
        if inLoop {
            task()
            return
        }
        let done = DispatchSemaphore(value: 0)
        execute {
            task()
            done.signal()
        }
        done.wait()
    }

    /// Asks the loop to finish after the current tasks; waits up to `timeout` for it.
    func stop(timeout: DispatchTime = .now() + .seconds(5)) {
        lock.lock()
        stopRequested = true
        lock.unlock()
        execute {}
        if !inLoop { _ = finished.wait(timeout: timeout) }
    }

    // MARK: Registration (loop thread)

    /// Registers `fd` with `events`; returns the token for `modify`/`deregister`.
    func register(fd: Int32, events: UInt32, handler: LoopHandler) -> UInt64 {
        let token = nextToken
        nextToken += 1
        handlers[token] = handler
        _ = Epoll.ctl(epfd, Epoll.ctlAdd, fd, events: events, data: token)
        return token
    }

    /// Changes the events watched for a registered `fd`.
    func modify(fd: Int32, token: UInt64, events: UInt32) {
        _ = Epoll.ctl(epfd, Epoll.ctlMod, fd, events: events, data: token)
    }

    /// Removes `fd` (call before closing it).
    func deregister(fd: Int32, token: UInt64) {
        handlers[token] = nil
        _ = Epoll.ctl(epfd, Epoll.ctlDel, fd, events: 0, data: 0)
    }

    /// Runs `action` on the loop thread after `delay` (loop thread only). A negative delay counts
    /// as zero; one too long for the monotonic clock's range never fires.
    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping () -> Void) -> Timer {
        let (sum, overflow) = Self.now().addingReportingOverflow(UInt64(delay.clampedNanoseconds))
        // `UInt64.max` means "no timer" to `nextTimeoutMillis`; the latest deadline is one less.
        let timer = Timer(deadline: overflow ? .max - 1 : min(sum, .max - 1), action: action)
        timers.append(timer)
        return timer
    }

    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    // MARK: The loop

    private func run() {
        let events = Epoll.Events(capacity: 512)
        defer { events.deallocate() }
        while true {
            let n = Epoll.wait(epfd, into: events, timeout: nextTimeoutMillis())
            if n > 0 {
                for i in 0..<Int(n) {
                    let (bits, token) = events[i]
                    if token == 0 {
                        var value: UInt64 = 0
                        _ = read(wakeFD, &value, 8)
                        continue
                    }
                    handlers[token]?.handleEvent(bits)
                }
            }
            runTasks()
            runTimers()
            lock.lock()
            let stop = stopRequested && tasks.isEmpty
            lock.unlock()
            if stop { break }
        }
        handlers.removeAll()
        timers.removeAll()
        finished.signal()
    }

    private func runTasks() {
        lock.lock()
        let batch = tasks
        tasks.removeAll(keepingCapacity: true)
        wakePending = false
        lock.unlock()
        for task in batch { task() }
    }

    private func runTimers() {
        guard !timers.isEmpty else { return }
        let now = Self.now()
        var due: [Timer] = []
        timers.removeAll { timer in
            if timer.action == nil { return true }
            if timer.deadline <= now {
                due.append(timer)
                return true
            }
            return false
        }
        for timer in due {
            let action = timer.action
            timer.action = nil
            action?()
        }
    }

    private func nextTimeoutMillis() -> Int32 {
        lock.lock()
        let hasTasks = !tasks.isEmpty
        lock.unlock()
        if hasTasks { return 0 }
        var earliest = UInt64.max
        for timer in timers where timer.action != nil && timer.deadline < earliest { earliest = timer.deadline }
        if earliest == .max { return -1 }
        let now = Self.now()
        if earliest <= now { return 0 }
        let wait = earliest - now  // rounded up to whole milliseconds, without overflow
        return Int32(min(60_000, wait / 1_000_000 + (wait % 1_000_000 == 0 ? 0 : 1)))
    }
}
