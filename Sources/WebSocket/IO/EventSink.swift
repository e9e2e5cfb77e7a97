import Foundation

/// Collects a connection's events on the loop thread and delivers them in order, in batches, on
/// the user's queue. Guarantees `.closed` at most once and nothing after it.
///
/// With an ``InboundCredit`` each batch's cost is taken from the credit as it is handed over and
/// passed to the consumer with the batch (who gives it back when done); ``overHigh`` runs on the
/// loop thread when a batch brings the credit to its high-water mark.
final class EventSink {
    private let queue: DispatchQueue
    private let deliver: @Sendable ([WebSocketEvent], Int) -> Void
    // Loop-thread state: the loop thread keeps accesses apart, so each event's append skips
    // Swift's dynamic exclusivity check (≈ 80 instructions per access).
    @exclusivity(unchecked) private var batch: [WebSocketEvent] = []
    @exclusivity(unchecked) private var batchCost = 0
    @exclusivity(unchecked) private(set) var isClosed = false
    /// Bounds what was handed over and not yet consumed, when set.
    let credit: InboundCredit?
    /// Called on the loop thread when a flush leaves the credit at or above its high-water mark.
    var overHigh: (() -> Void)?

    init(queue: DispatchQueue, deliver: @escaping @Sendable ([WebSocketEvent]) -> Void) {
        self.queue = queue
        self.deliver = { events, _ in deliver(events) }
        self.credit = nil
    }

    /// A sink whose batches carry their cost, taken from `credit`; the consumer gives it back.
    init(queue: DispatchQueue, credit: InboundCredit, deliver: @escaping @Sendable ([WebSocketEvent], Int) -> Void) {
        self.queue = queue
        self.deliver = deliver
        self.credit = credit
    }

    func add(_ event: WebSocketEvent) {
        guard !isClosed else { return }
        if case .closed = event { isClosed = true }
        if credit != nil {
            switch event {
            case .text(let text): batchCost += InboundCredit.cost(ofText: text)
            case .binary(let bytes): batchCost += InboundCredit.cost(ofBytes: bytes.count)
            default: batchCost += InboundCredit.cost(ofBytes: 0)
            }
        }
        batch.append(event)
    }

    func flush() {
        guard !batch.isEmpty else { return }
        let events = batch
        let cost = batchCost
        // The next read's events go into an array sized like this one's (no regrowth per read).
        batch = []
        batch.reserveCapacity(min(events.count, 4096))
        batchCost = 0
        let deliver = self.deliver
        if let credit, credit.take(cost), !isClosed { overHigh?() }
        queue.async { deliver(events, cost) }
    }
}
