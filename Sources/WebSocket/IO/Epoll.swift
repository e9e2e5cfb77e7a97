#if canImport(Glibc)
    import Glibc
#endif
#if canImport(CLinux)
    import CLinux
#endif

/// epoll and eventfd for the event loop, from the system headers (`<sys/epoll.h>` and
/// `<sys/eventfd.h>` through the `CLinux` module, since Glibc's Swift module carries neither):
/// the functions are linked as usual and `struct epoll_event` has the layout Clang gives it.
enum Epoll {
    /// Readable (`EPOLLIN`).
    static let `in` = EPOLLIN.rawValue
    /// Writable (`EPOLLOUT`).
    static let out = EPOLLOUT.rawValue
    /// An error on the descriptor (`EPOLLERR`; always reported).
    static let err = EPOLLERR.rawValue
    /// The peer hung up (`EPOLLHUP`; always reported).
    static let hup = EPOLLHUP.rawValue

    /// Registers a descriptor (`EPOLL_CTL_ADD`).
    static let ctlAdd = EPOLL_CTL_ADD
    /// Removes a descriptor (`EPOLL_CTL_DEL`).
    static let ctlDel = EPOLL_CTL_DEL
    /// Changes a descriptor's events (`EPOLL_CTL_MOD`).
    static let ctlMod = EPOLL_CTL_MOD

    /// A new epoll instance, closed on exec; -1 (with `errno`) on failure.
    static func create() -> Int32 {
        epoll_create1(Int32(EPOLL_CLOEXEC))
    }

    /// A new non-blocking eventfd counter starting at 0, closed on exec; -1 on failure.
    static func eventfd() -> Int32 {
        CLinux.eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
    }

    /// `epoll_ctl`: watches `fd` for `events`, reporting `data` with each readiness.
    static func ctl(_ epfd: Int32, _ op: Int32, _ fd: Int32, events: UInt32, data: UInt64) -> Int32 {
        var event = epoll_event()
        event.events = events
        event.data.u64 = data
        return epoll_ctl(epfd, op, fd, &event)
    }

    /// `epoll_wait` into `events`: the number of entries filled (0 on timeout, -1 with `errno`).
    /// `timeout` is in milliseconds; -1 waits until something is ready.
    static func wait(_ epfd: Int32, into events: Events, timeout: Int32) -> Int32 {
        epoll_wait(epfd, events.storage.baseAddress, events.capacity, timeout)
    }

    /// Room for the entries one `epoll_wait` may fill; allocate once per loop, deallocate when done.
    struct Events {
        fileprivate let storage: UnsafeMutableBufferPointer<epoll_event>

        /// How many entries one wait may fill.
        var capacity: Int32 { Int32(storage.count) }

        /// Room for `capacity` entries (at least one, at most `Int32.max`).
        init(capacity: Int) {
            storage = .allocate(capacity: min(max(capacity, 1), Int(Int32.max)))
            storage.initialize(repeating: epoll_event())
        }

        /// Frees the storage; the value must not be used afterwards.
        func deallocate() {
            storage.deallocate()
        }

        /// The event bits and the registered data of entry `i` (below what `wait` returned).
        subscript(i: Int) -> (events: UInt32, data: UInt64) {
            let entry = storage[i]
            return (entry.events, entry.data.u64)
        }
    }
}
