import BirdRealtimeTestSupport
import Foundation
import Testing
import TestSupport
@testable import BirdRealtime

@Suite("NetworkPath values, address text and the debouncer")
struct NetworkPathTests {
    private let eth0v4 = DefaultRoute(family: .ipv4, interface: "eth0", gateway: "192.0.2.1")
    private let eth0v6 = DefaultRoute(family: .ipv6, interface: "eth0", gateway: "fd00::1", metric: 1024)
    private let wlan0v6 = DefaultRoute(family: .ipv6, interface: "wlan0")

    @Test("descriptions: routes grouped by interface, no route, loopback only, unknown")
    func descriptions() {
        #expect(NetworkPath(defaultRoutes: [eth0v6, eth0v4]).description == "default via eth0 (IPv4, IPv6)")
        #expect(NetworkPath(defaultRoutes: [wlan0v6, eth0v4]).description == "default via eth0 (IPv4), wlan0 (IPv6)")
        #expect(NetworkPath(defaultRoutes: []).description == "no default route")
        #expect(NetworkPath(defaultRoutes: [], isLoopbackOnly: true).description == "no default route (loopback only)")
        #expect(NetworkPath.unknown("socket: EPERM").description == "unknown: socket: EPERM")
        #expect(eth0v6.description == "default via fd00::1 dev eth0 metric 1024 (IPv6)")
    }

    @Test("usable: a default route, or an unknown path (errs on the side of usable)")
    func usable() {
        #expect(NetworkPath(defaultRoutes: [eth0v4]).isUsable)
        #expect(!NetworkPath(defaultRoutes: []).isUsable)
        #expect(NetworkPath.unknown("monitor failed").isUsable)
        #expect(!NetworkPath.unknown("monitor failed").isKnown)
        #expect(NetworkPath(defaultRoutes: [eth0v6, eth0v4]) == NetworkPath(defaultRoutes: [eth0v4, eth0v6]))
    }

    @Test("addresses as text: dotted quads and RFC 5952 IPv6")
    func addressText() {
        #expect(AddressText.format([192, 0, 2, 1]) == "192.0.2.1")
        let v6: ([UInt16]) -> [UInt8] = { groups in groups.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] } }
        #expect(AddressText.format(v6([0xfd00, 0, 0, 0, 0, 0, 0, 1])) == "fd00::1")
        #expect(AddressText.format(v6([0, 0, 0, 0, 0, 0, 0, 0])) == "::")
        #expect(AddressText.format(v6([0, 0, 0, 0, 0, 0, 0, 1])) == "::1")
        #expect(AddressText.format(v6([0xfe80, 0, 0, 0, 0xfc, 0xff, 0xfe00, 1])) == "fe80::fc:ff:fe00:1")
        #expect(AddressText.format(v6([0x2001, 0xdb8, 0, 0, 1, 0, 0, 1])) == "2001:db8::1:0:0:1")
        #expect(AddressText.format(v6([1, 0, 0, 2, 0, 0, 0, 3])) == "1:0:0:2::3")
        #expect(AddressText.format(v6([1, 0, 2, 3, 4, 5, 6, 7])) == "1:0:2:3:4:5:6:7")
        #expect(AddressText.format([1, 2, 3]) == "01:02:03")
    }

    // MARK: - Debouncer

    private let a = NetworkPath(defaultRoutes: [DefaultRoute(family: .ipv4, interface: "eth0")], generation: 1)
    private let none = NetworkPath(defaultRoutes: [], generation: 2)
    private let b = NetworkPath(defaultRoutes: [DefaultRoute(family: .ipv4, interface: "eth0")], generation: 3)

    @Test("a burst is reported once, when the window closes, with its last path")
    func burst() {
        var debouncer = PathDebouncer(interval: .milliseconds(100), initial: a)
        debouncer.observe(none, now: .milliseconds(1000))
        #expect(debouncer.deadline == .milliseconds(1100))
        #expect(debouncer.due(now: .milliseconds(1099)) == nil)
        debouncer.observe(b, now: .milliseconds(1050))
        #expect(debouncer.deadline == .milliseconds(1100))  // not extended
        #expect(debouncer.due(now: .milliseconds(1100)) == b)
        #expect(debouncer.reported == b && debouncer.deadline == nil)
        #expect(debouncer.due(now: .milliseconds(5000)) == nil)
    }

    @Test("the same path again opens no window; a flap back inside the window reports nothing")
    func flap() {
        var debouncer = PathDebouncer(interval: .milliseconds(100), initial: a)
        debouncer.observe(a, now: .zero)
        #expect(debouncer.deadline == nil)
        debouncer.observe(none, now: .milliseconds(10))
        debouncer.observe(a, now: .milliseconds(20))
        #expect(debouncer.due(now: .milliseconds(110)) == nil)
        #expect(debouncer.reported == a)
    }

    @Test("interval zero reports at once; force reports a failure and closes the window")
    func zeroAndForce() {
        var debouncer = PathDebouncer(interval: .zero, initial: a)
        debouncer.observe(none, now: .seconds(3))
        #expect(debouncer.due(now: .seconds(3)) == none)
        debouncer.observe(b, now: .seconds(4))
        let failed = NetworkPath.unknown("gone")
        #expect(debouncer.force(failed) == failed)
        #expect(debouncer.deadline == nil && debouncer.due(now: .seconds(9)) == nil)
        #expect(debouncer.force(failed) == nil)
    }

    // MARK: - ManualNetworkPathMonitor

    @Test("ManualNetworkPathMonitor: delivers changes on the owner's queue before returning, until stopped")
    func manualMonitor() throws {
        let monitor = ManualNetworkPathMonitor()
        let queue = DispatchQueue(label: "manual-monitor-test")
        let seen = LockedList<NetworkPath>()
        monitor.loseNetwork()  // not started: only `current` changes
        #expect(!monitor.current.isUsable)
        try monitor.start(queue: queue) { path in
            dispatchPrecondition(condition: .onQueue(queue))
            seen.append(path)
        }
        #expect(throws: NetworkMonitorError.self) { try monitor.start(queue: queue) { _ in } }
        monitor.restoreNetwork()
        monitor.update(monitor.current)  // unchanged: not delivered
        monitor.changePath()
        #expect(seen.all.map(\.isUsable) == [true, true])
        #expect(seen.all[0].generation != seen.all[1].generation)
        monitor.stop()
        monitor.loseNetwork()
        #expect(seen.all.count == 2)
        #expect(monitor.startCount == 1 && monitor.stopCount == 1 && !monitor.isStarted)
        monitor.failStart(with: NetworkMonitorError(kind: .system, message: "socket: EPERM"))
        #expect(throws: NetworkMonitorError(kind: .system, message: "socket: EPERM")) {
            try monitor.start(queue: queue) { _ in }
        }
    }
}
