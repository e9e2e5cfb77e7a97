#if canImport(Glibc)
    import Glibc
#endif
import Testing

@testable import WebSocket

/// `Epoll` from the system headers: what `epoll_ctl` registers comes back from `epoll_wait`
/// unchanged (all 64 bits of the data, the event bits), and the descriptors have the flags the
/// event loop relies on.
@Suite("epoll and eventfd from the system headers")
struct EpollTests {
    /// A token whose two halves differ, so a wrong `data` offset or width in `epoll_event` shows.
    static let token: UInt64 = 0xDEAD_BEEF_0BAD_F00D

    @Test("add, modify, delete: each readiness comes back with its full 64-bit data and bits")
    func roundTrip() throws {
        let epfd = Epoll.create()
        try #require(epfd >= 0)
        defer { close(epfd) }
        var fds: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer {
            close(fds[0])
            if fds[1] >= 0 { close(fds[1]) }
        }
        let events = Epoll.Events(capacity: 4)
        defer { events.deallocate() }

        #expect(Epoll.ctl(epfd, Epoll.ctlAdd, fds[0], events: Epoll.in, data: Self.token) == 0)
        #expect(Epoll.wait(epfd, into: events, timeout: 0) == 0)  // nothing to read yet
        var byte: UInt8 = 1
        try #require(write(fds[1], &byte, 1) == 1)
        try #require(Epoll.wait(epfd, into: events, timeout: 5_000) == 1)
        #expect(events[0].data == Self.token)
        #expect(events[0].events & Epoll.in != 0)
        #expect(events[0].events & Epoll.out == 0)

        // Now watched for writability only, under another token.
        #expect(Epoll.ctl(epfd, Epoll.ctlMod, fds[0], events: Epoll.out, data: ~Self.token) == 0)
        try #require(Epoll.wait(epfd, into: events, timeout: 5_000) == 1)
        #expect(events[0].data == ~Self.token)
        #expect(events[0].events & Epoll.out != 0)
        #expect(events[0].events & Epoll.in == 0)

        // The peer hangs up: reported although not asked for.
        close(fds[1])
        fds[1] = -1
        try #require(Epoll.wait(epfd, into: events, timeout: 5_000) == 1)
        #expect(events[0].events & Epoll.hup != 0)

        #expect(Epoll.ctl(epfd, Epoll.ctlDel, fds[0], events: 0, data: 0) == 0)
        #expect(Epoll.wait(epfd, into: events, timeout: 0) == 0)
    }

    @Test("the eventfd wakes a wait, is non-blocking, and both descriptors close on exec")
    func eventfdWakeUp() throws {
        let epfd = Epoll.create()
        try #require(epfd >= 0)
        defer { close(epfd) }
        let wake = Epoll.eventfd()
        try #require(wake >= 0)
        defer { close(wake) }
        #expect(fcntl(epfd, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(wake, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(wake, F_GETFL) & O_NONBLOCK != 0)

        #expect(Epoll.ctl(epfd, Epoll.ctlAdd, wake, events: Epoll.in, data: Self.token) == 0)
        let events = Epoll.Events(capacity: 1)
        defer { events.deallocate() }
        #expect(Epoll.wait(epfd, into: events, timeout: 0) == 0)  // nothing written yet

        var one: UInt64 = 1
        try #require(write(wake, &one, 8) == 8)
        try #require(Epoll.wait(epfd, into: events, timeout: 5_000) == 1)
        #expect(events[0].data == Self.token)
        var value: UInt64 = 0
        #expect(read(wake, &value, 8) == 8)
        #expect(value == 1)
        // Drained: a second read does not block.
        #expect(read(wake, &value, 8) == -1)
        #expect(errno == EAGAIN)
    }
}
