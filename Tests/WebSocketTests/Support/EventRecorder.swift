import Foundation
import Testing
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
    /// On timeout it records an issue naming `what` (and the events seen) at the caller's location.
    @discardableResult
    func wait(
        seconds: Double = 10, for what: @autoclosure () -> String = "a condition on the events",
        sourceLocation: SourceLocation = #_sourceLocation, _ condition: ([WebSocketEvent]) -> Bool
    ) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition(events) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        if condition(events) { return true }
        Issue.record(
            "timed out after \(seconds) s waiting for \(what()); events \(events)", sourceLocation: sourceLocation)
        return false
    }

    func waitOpen(sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
        await wait(for: "opened or closed", sourceLocation: sourceLocation) {
            $0.contains(.opened) || $0.contains { if case .closed = $0 { true } else { false } }
        }
        return isOpen
    }

    func waitClosed(seconds: Double = 10, sourceLocation: SourceLocation = #_sourceLocation) async
        -> WebSocketCloseInfo?
    {
        await wait(seconds: seconds, for: "closed", sourceLocation: sourceLocation) {
            $0.contains { if case .closed = $0 { true } else { false } }
        }
        return closeInfo
    }

    func waitTexts(_ count: Int, seconds: Double = 10, sourceLocation: SourceLocation = #_sourceLocation) async
        -> [String]
    {
        await wait(seconds: seconds, for: "\(count) text messages", sourceLocation: sourceLocation) { events in
            events.count { if case .text = $0 { true } else { false } } >= count
        }
        return texts
    }
}

/// Polls `condition` until it holds or the deadline passes; on timeout records an issue naming
/// `what` at the caller's location. Returns whether it held.
@discardableResult
func eventually(
    seconds: Double = 10, _ what: @autoclosure () -> String = "a condition",
    sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool
) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    if condition() { return true }
    Issue.record("timed out after \(seconds) s waiting for \(what())", sourceLocation: sourceLocation)
    return false
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
