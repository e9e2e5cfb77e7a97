import Foundation

/// Collects a connection's events on the loop thread and delivers them in order, in batches, on
/// the user's queue. Guarantees `.closed` at most once and nothing after it.
final class EventSink {
    private let queue: DispatchQueue
    private let deliver: @Sendable ([WebSocketEvent]) -> Void
    private var batch: [WebSocketEvent] = []
    private(set) var isClosed = false

    init(queue: DispatchQueue, deliver: @escaping @Sendable ([WebSocketEvent]) -> Void) {
        self.queue = queue
        self.deliver = deliver
    }

    func add(_ event: WebSocketEvent) {
        guard !isClosed else { return }
        if case .closed = event { isClosed = true }
        batch.append(event)
    }

    func flush() {
        guard !batch.isEmpty else { return }
        let events = batch
        batch = []
        let deliver = self.deliver
        queue.async { deliver(events) }
    }
}
