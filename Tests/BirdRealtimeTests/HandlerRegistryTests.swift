import Foundation
import Testing
import TestSupport

@testable import BirdRealtime

/// The registry remembers its last lookup (a stream of one event name compares names instead of
/// hashing them): every bind and unbind must be seen by the very next delivery.
@Suite("Handler registry: the remembered lookup follows binds and unbinds")
struct HandlerRegistryTests {
    /// Calls collected by handler label, in order (``LockedList/take()``: since the last take).
    typealias Calls = LockedList<String>

    static func event(_ name: String) -> ChannelEvent {
        ChannelEvent(channel: "c", name: name, data: nil)
    }

    @Test("a bind, a bind-all and an unbind after a delivery change the next delivery")
    func followsChanges() {
        let registry = HandlerRegistry()
        let calls = Calls()
        #expect(!registry.hasHandlers(for: "tick"))

        let a = registry.add(event: "tick") { _ in calls.append("a") }
        #expect(registry.hasHandlers(for: "tick"))
        registry.deliver(Self.event("tick"))
        #expect(calls.take() == ["a"])

        _ = registry.add(event: "tick") { _ in calls.append("b") }
        registry.deliver(Self.event("tick"))
        #expect(calls.take() == ["a", "b"])

        _ = registry.add(event: nil) { _ in calls.append("all") }
        registry.deliver(Self.event("tick"))
        #expect(calls.take() == ["a", "b", "all"])
        registry.deliver(Self.event("other"))
        #expect(calls.take() == ["all"])
        registry.deliver(Self.event("tick"))
        #expect(calls.take() == ["a", "b", "all"])

        registry.remove(a)
        registry.deliver(Self.event("tick"))
        #expect(calls.take() == ["b", "all"])

        registry.removeAll()
        #expect(!registry.hasHandlers(for: "tick"))
        registry.deliver(Self.event("tick"))
        #expect(calls.take().isEmpty)
    }

    @Test("an event name with no handlers, asked twice, stays unreached until one binds")
    func emptyThenBound() {
        let registry = HandlerRegistry()
        let calls = Calls()
        _ = registry.add(event: "other") { _ in calls.append("other") }
        #expect(!registry.hasHandlers(for: "tick"))
        #expect(!registry.hasHandlers(for: "tick"))
        _ = registry.add(event: "tick") { _ in calls.append("tick") }
        #expect(registry.hasHandlers(for: "tick"))
        registry.deliver(Self.event("tick"))
        #expect(calls.take() == ["tick"])
    }
}
