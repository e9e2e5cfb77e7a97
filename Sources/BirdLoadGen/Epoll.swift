#if canImport(Glibc)
    import Glibc
#endif
#if os(Linux)
    import CLinux
#endif

/// epoll for the load generator, from the system headers (`<sys/epoll.h>` through the CLinux shim):
/// the same functions, `struct epoll_event` and constants the WebSocket module's event loop uses.
/// Events are read from a buffer of `epoll_event`s the caller allocates with ``allocateEvents(_:)``.
enum Epoll {
    static let `in` = UInt32(EPOLLIN.rawValue)
    static let out = UInt32(EPOLLOUT.rawValue)
    static let err = UInt32(EPOLLERR.rawValue)
    static let hup = UInt32(EPOLLHUP.rawValue)
    static let ctlAdd = EPOLL_CTL_ADD
    static let ctlDel = EPOLL_CTL_DEL
    static let ctlMod = EPOLL_CTL_MOD

    static func create() -> Int32 { epoll_create1(Int32(EPOLL_CLOEXEC)) }

    @discardableResult
    static func ctl(_ epfd: Int32, _ op: Int32, _ fd: Int32, events: UInt32, data: UInt64) -> Int32 {
        var event = epoll_event()
        event.events = events
        event.data.u64 = data
        return epoll_ctl(epfd, op, fd, &event)
    }

    /// A buffer for `capacity` events (free it with `deallocate()`).
    static func allocateEvents(_ capacity: Int) -> UnsafeMutablePointer<epoll_event> {
        UnsafeMutablePointer<epoll_event>.allocate(capacity: capacity)
    }

    static func wait(_ epfd: Int32, _ events: UnsafeMutablePointer<epoll_event>, capacity: Int32, timeout: Int32)
        -> Int32
    {
        epoll_wait(epfd, events, capacity, timeout)
    }

    static func entry(_ events: UnsafeMutablePointer<epoll_event>, _ i: Int) -> (events: UInt32, data: UInt64) {
        (events[i].events, events[i].data.u64)
    }
}

/// The monotonic clock in nanoseconds (`CLOCK_MONOTONIC`, the clock the payload stamps use).
public func monotonicNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

/// Raises this process's open-file limit to its hard limit; returns the limit now in force.
@discardableResult
public func raiseOpenFileLimit() -> Int {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return -1 }
    if limit.rlim_cur < limit.rlim_max {
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
    return limit.rlim_cur > UInt(Int.max) ? Int.max : Int(limit.rlim_cur)
}
