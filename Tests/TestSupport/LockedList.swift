import Foundation

/// Values appended from any thread (callbacks on other queues), read back in the order they came.
public final class LockedList<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Element] = []

    /// An empty list.
    public init() {}

    /// Adds `element` at the end.
    public func append(_ element: Element) {
        lock.withLock { items.append(element) }
    }

    /// Everything appended so far, in order.
    public var all: [Element] { lock.withLock { items } }

    /// Everything appended since the last take, in order; the list is then empty.
    public func take() -> [Element] {
        lock.withLock {
            defer { items = [] }
            return items
        }
    }
}
