import Foundation

/// A transport that bounds what it has read and the client has not yet delivered to handlers:
/// it stops reading its socket while that backlog is at its high-water mark
/// (``WebSocketTransport``; docs/ARCHITECTURE.md § Flow control).
protocol InboundFlowControl: AnyObject {
    /// Sets how the transport learns that a batch has been consumed: after handing a batch over
    /// (on the client's queue) it calls `fence` with a `release` that must run once everything
    /// the batch caused has been delivered. Set before `connect()`.
    func setDeliveryFence(_ fence: @escaping @Sendable (_ release: @escaping @Sendable () -> Void) -> Void)
    /// Whether deliveries are behind what was read (above the low-water mark: reading is, or
    /// may soon be, held back). The server was heard from, however long the handlers take.
    var isHoldingBack: Bool { get }
}
