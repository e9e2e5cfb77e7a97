#if canImport(Glibc)
import Glibc
#endif

/// epoll and eventfd for Swift on Linux. Glibc's Swift module map does not include
/// `<sys/epoll.h>` or `<sys/eventfd.h>`, so the functions are looked up once with `dlsym`
/// (C calling convention) and `struct epoll_event` is laid out by hand (packed on x86_64).
enum Epoll {
    static let `in`: UInt32 = 0x001
    static let out: UInt32 = 0x004
    static let err: UInt32 = 0x008
    static let hup: UInt32 = 0x010
    static let ctlAdd: Int32 = 1
    static let ctlDel: Int32 = 2
    static let ctlMod: Int32 = 3
    static let cloexec: Int32 = 0o2000000
    static let eventfdNonBlock: Int32 = 0o4000
    static let eventfdCloexec: Int32 = 0o2000000

    #if arch(x86_64)
    /// `sizeof(struct epoll_event)`: packed on x86_64.
    static let eventSize = 12
    #else
    static let eventSize = 16
    #endif
    /// Offset of `data` within `struct epoll_event`.
    static let dataOffset = eventSize == 12 ? 4 : 8

    private typealias CreateFn = @convention(c) (Int32) -> Int32
    private typealias CtlFn = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    private typealias WaitFn = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32
    private typealias EventfdFn = @convention(c) (UInt32, Int32) -> Int32

    private static func symbol<T>(_ name: String, as type: T.Type) -> T {
        guard let pointer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
            fatalError("WebSocket: libc has no \(name)")  // Linux always has it
        }
        return unsafeBitCast(pointer, to: type)
    }

    nonisolated(unsafe) private static let createFn = symbol("epoll_create1", as: CreateFn.self)
    nonisolated(unsafe) private static let ctlFn = symbol("epoll_ctl", as: CtlFn.self)
    nonisolated(unsafe) private static let waitFn = symbol("epoll_wait", as: WaitFn.self)
    nonisolated(unsafe) private static let eventfdFn = symbol("eventfd", as: EventfdFn.self)

    static func create() -> Int32 { createFn(cloexec) }

    static func eventfd() -> Int32 { eventfdFn(0, eventfdNonBlock | eventfdCloexec) }

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

    /// The events and data of the `i`th entry filled by `wait`.
    static func entry(_ events: UnsafeMutableRawPointer, _ i: Int) -> (events: UInt32, data: UInt64) {
        let base = events + i * eventSize
        return (base.loadUnaligned(as: UInt32.self), base.loadUnaligned(fromByteOffset: dataOffset, as: UInt64.self))
    }
}
