import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Accepts connections on a listening socket (loop thread).
///
/// Accepting pauses while `canAccept` says no (the server's connection cap): new connections
/// then wait in the kernel's listen backlog, costing the process nothing, until ``resume()``.
final class Listener: LoopHandler {
    private var fd: Int32
    private let loop: EventLoop
    private var token: UInt64 = 0
    private let onAccept: (Int32) -> Void
    private let canAccept: () -> Bool
    /// Called each time accepting pauses at the cap.
    var onPause: (() -> Void)?
    private var backoff: EventLoop.Timer?
    private var backingOff = false
    private(set) var pausedAtCap = false
    private var watching = false

    init(fd: Int32, loop: EventLoop, canAccept: @escaping () -> Bool = { true }, onAccept: @escaping (Int32) -> Void) {
        self.fd = fd
        self.loop = loop
        self.canAccept = canAccept
        self.onAccept = onAccept
    }

    func start() {
        pausedAtCap = !canAccept()
        if pausedAtCap { onPause?() }
        watching = !pausedAtCap
        token = loop.register(fd: fd, events: watching ? EventLoop.readable : 0, handler: self)
    }

    func handleEvent(_ events: UInt32) {
        for _ in 0..<256 {
            guard canAccept() else {
                pausedAtCap = true
                onPause?()
                updateInterest()
                return
            }
            let client = accept(fd, nil, nil)
            if client >= 0 {
                Posix.setNonBlocking(client)
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                onAccept(client)
                continue
            }
            let e = errno
            if e == EINTR || e == ECONNABORTED { continue }
            if e == EMFILE || e == ENFILE || e == ENOBUFS || e == ENOMEM {
                // Out of descriptors: stop watching for a moment instead of spinning.
                backingOff = true
                updateInterest()
                backoff = loop.schedule(after: .milliseconds(100)) { [weak self] in
                    guard let self, self.fd >= 0 else { return }
                    self.backingOff = false
                    self.updateInterest()
                }
            }
            return
        }
    }

    /// Accepts again after a pause at the cap (call when a connection slot frees up).
    func resume() {
        guard pausedAtCap, fd >= 0 else { return }
        pausedAtCap = false
        updateInterest()
        // Connections may be waiting in the backlog already; level-triggered epoll reports them.
    }

    private func updateInterest() {
        guard fd >= 0 else { return }
        let wanted = !pausedAtCap && !backingOff
        guard wanted != watching else { return }
        watching = wanted
        loop.modify(fd: fd, token: token, events: wanted ? EventLoop.readable : 0)
    }

    func close() {
        guard fd >= 0 else { return }
        backoff?.cancel()
        loop.deregister(fd: fd, token: token)
        Glibc.close(fd)
        fd = -1
    }
}
