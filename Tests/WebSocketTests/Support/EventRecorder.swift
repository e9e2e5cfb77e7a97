import Foundation
@testable import WebSocket

/// Collects events delivered to a handler and waits for conditions on them (real time).
final class EventRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [WebSocketEvent] = []
    let queue = DispatchQueue(label: "EventRecorder")

    var events: [WebSocketEvent] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }

    var handler: @Sendable (WebSocketEvent) -> Void {
        { [self] event in
            lock.lock()
            storage.append(event)
            lock.unlock()
        }
    }

    var closeInfo: WebSocketCloseInfo? {
        for event in events { if case .closed(let info) = event { return info } }
        return nil
    }

    var texts: [String] { events.compactMap { if case .text(let t) = $0 { return t } else { return nil } } }
    var binaries: [[UInt8]] { events.compactMap { if case .binary(let b) = $0 { return b } else { return nil } } }
    var isOpen: Bool { events.contains(.opened) }

    /// Waits until `condition` holds on the events, or the deadline passes; returns whether it held.
    @discardableResult
    func wait(seconds: Double = 10, _ condition: ([WebSocketEvent]) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition(events) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition(events)
    }

    func waitOpen() async -> Bool {
        await wait { $0.contains(.opened) || $0.contains { if case .closed = $0 { true } else { false } } }
        return isOpen
    }

    func waitClosed(seconds: Double = 10) async -> WebSocketCloseInfo? {
        await wait(seconds: seconds) { $0.contains { if case .closed = $0 { true } else { false } } }
        return closeInfo
    }

    func waitTexts(_ count: Int, seconds: Double = 10) async -> [String] {
        await wait(seconds: seconds) { events in events.count { if case .text = $0 { true } else { false } } >= count }
        return texts
    }
}

/// Polls `condition` until it holds or the deadline passes.
func eventually(seconds: Double = 10, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

/// A thread-safe box for values captured by @Sendable callbacks in tests.
final class Locked<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: T
    init(_ value: T) { self.value = value }
    func get() -> T {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
    func mutate<R>(_ body: (inout T) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
