#if canImport(Glibc)
    import Glibc
#endif

/// epoll for the load generator. Glibc's Swift module map lacks `<sys/epoll.h>`, so, like the
/// WebSocket module's own (internal) wrapper, the functions are looked up with `dlsym` and
/// `struct epoll_event` is laid out by hand (packed on x86_64).
enum Epoll {
    static let `in`: UInt32 = 0x001
    static let out: UInt32 = 0x004
    static let err: UInt32 = 0x008
    static let hup: UInt32 = 0x010
    static let ctlAdd: Int32 = 1
    static let ctlDel: Int32 = 2
    static let ctlMod: Int32 = 3

    #if arch(x86_64)
        static let eventSize = 12
    #else
        static let eventSize = 16
    #endif
    static let dataOffset = eventSize == 12 ? 4 : 8

    private typealias CreateFn = @convention(c) (Int32) -> Int32
    private typealias CtlFn = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    private typealias WaitFn = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32

    private static func symbol<T>(_ name: String, as type: T.Type) -> T {
        guard let pointer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
            fatalError("BirdLoadGen: libc has no \(name)")  // Linux always has it
        }
        return unsafeBitCast(pointer, to: type)
    }

    nonisolated(unsafe) private static let createFn = symbol("epoll_create1", as: CreateFn.self)
    nonisolated(unsafe) private static let ctlFn = symbol("epoll_ctl", as: CtlFn.self)
    nonisolated(unsafe) private static let waitFn = symbol("epoll_wait", as: WaitFn.self)

    static func create() -> Int32 { createFn(0o2000000) }

    @discardableResult
    static func ctl(_ epfd: Int32, _ op: Int32, _ fd: Int32, events: UInt32, data: UInt64) -> Int32 {
        var raw = (UInt64(0), UInt64(0))
        return withUnsafeMutableBytes(of: &raw) { buffer in
            buffer.storeBytes(of: events, toByteOffset: 0, as: UInt32.self)
            buffer.storeBytes(of: data, toByteOffset: dataOffset, as: UInt64.self)
            return ctlFn(epfd, op, fd, buffer.baseAddress)
        }
    }

    static func wait(_ epfd: Int32, _ events: UnsafeMutableRawPointer, capacity: Int32, timeout: Int32) -> Int32 {
        waitFn(epfd, events, capacity, timeout)
    }

    static func entry(_ events: UnsafeMutableRawPointer, _ i: Int) -> (events: UInt32, data: UInt64) {
        let base = events + i * eventSize
        return (base.loadUnaligned(as: UInt32.self), base.loadUnaligned(fromByteOffset: dataOffset, as: UInt64.self))
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
