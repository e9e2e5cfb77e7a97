import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Accepts connections on a listening socket (loop thread).
final class Listener: LoopHandler {
    private var fd: Int32
    private let loop: EventLoop
    private var token: UInt64 = 0
    private let onAccept: (Int32) -> Void
    private var backoff: EventLoop.Timer?

    init(fd: Int32, loop: EventLoop, onAccept: @escaping (Int32) -> Void) {
        self.fd = fd
        self.loop = loop
        self.onAccept = onAccept
    }

    func start() {
        token = loop.register(fd: fd, events: EventLoop.readable, handler: self)
    }

    func handleEvent(_ events: UInt32) {
        for _ in 0..<256 {
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
                loop.modify(fd: fd, token: token, events: 0)
                backoff = loop.schedule(after: .milliseconds(100)) { [weak self] in
                    guard let self, self.fd >= 0 else { return }
                    self.loop.modify(fd: self.fd, token: self.token, events: EventLoop.readable)
                }
            }
            return
        }
    }

    func close() {
        guard fd >= 0 else { return }
        backoff?.cancel()
        loop.deregister(fd: fd, token: token)
        Glibc.close(fd)
        fd = -1
    }
}
