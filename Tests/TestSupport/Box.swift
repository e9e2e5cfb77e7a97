import Foundation

/// A value behind a lock, for state a test shares with callbacks and other threads.
public final class Box<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// A box holding `value`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` on the value while holding the lock.
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the value now.
    public var snapshot: Value { withLock { $0 } }
}
