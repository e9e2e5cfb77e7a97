import Foundation

/// A value behind a lock (test support's own; the library's is internal).
final class TestLock<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the value. Read closures with this, not `withLock { $0 }`: at a call site where
    /// the closure's type is concrete, the `inout` reabstraction stores it back wrapped in two
    /// more thunks on every call.
    var snapshot: Value { withLock { $0 } }
}
