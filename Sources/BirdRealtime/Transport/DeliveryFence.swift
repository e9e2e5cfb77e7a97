import Foundation
import WebSocket

/// How a ``WebSocketTransport`` gives a batch's read credit back once the batch is consumed:
/// straight to the credit, or, once the client has set a fence
/// (``InboundFlowControl/setDeliveryFence(_:)``), through the fence, which runs the release after
/// the deliveries the batch caused.
///
/// The fence is kept in a property of its own function type, not in a generic container: read
/// back with `Locked.withLock { $0 }` from a call site of concrete type, a closure is stored again
/// wrapped in two reabstraction thunks, so a fence read once per socket read grew by two thunks
/// per read and every call walked the whole chain (deliveries slowed quadratically; the stack
/// would eventually have overflowed).
final class DeliveryFence: @unchecked Sendable {
    /// Runs `release` once everything handed over before it has been delivered.
    typealias Fence = @Sendable (_ release: @escaping @Sendable () -> Void) -> Void

    private let lock = NSLock()
    private var fence: Fence?

    /// Sets the fence (before the transport connects).
    func set(_ fence: @escaping Fence) {
        lock.lock()
        self.fence = fence
        lock.unlock()
    }

    /// Gives `cost` back to `credit` once the batch it paid for has been delivered: through the
    /// fence when one is set, else now.
    func release(_ cost: Int, to credit: InboundCredit) {
        lock.lock()
        let fence = self.fence
        lock.unlock()
        if let fence {
            fence { credit.give(cost) }
        } else {
            credit.give(cost)
        }
    }
}
