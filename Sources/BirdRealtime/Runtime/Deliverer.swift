import BirdWire
import Foundation

/// Runs handler work on the delivery queue in the order it was enqueued, coalescing bursts into
/// one queue hop: work enqueued while a drain is scheduled or running joins that drain.
/// No lock is held while handler work runs.
///
/// Channel events travel as ``Item/event(_:)`` values rather than closures (no allocation per
/// event); their ``EventPayload`` is made on the delivery queue, off the client's queue, and
/// parsed only if a handler reads it.
/// ``enqueue(contentsOf:)`` hands over a whole batch (one transport read) with one lock and at
/// most one queue hop.
final class Deliverer: @unchecked Sendable {
    /// One channel event on its way to a channel's handlers (and the client-wide observers).
    struct Event {
        /// The payload as received or as built by the client.
        enum Payload {
            case wire(WirePayload?)
            case value(JSONValue?)
            /// A message's `data` still in its frame (``WireEnvelope``): unescaped and parsed only
            /// when a handler reads it.
            case frame(String, WireDataSpan)
            /// The plaintext of an encrypted channel's event, with what travelled (boxed, so the
            /// common cases stay small).
            case decrypted(DecryptedText)
        }

        let registry: HandlerRegistry
        /// The client-wide event observers, when there were any at enqueue time.
        let observers: ObserverList<@Sendable (ChannelEvent) -> Void>?
        let channel: String
        let name: String
        let payload: Payload
        let memberId: String?
        /// Offset, epoch and continuity, for events that have them.
        var stream: StreamStamp?

        /// Builds the public event (its payload parsed later, if read) and calls the handlers.
        func run() {
            let made: EventPayload?
            var ciphertext: String?
            switch payload {
            case .wire(let wire): made = wire.map(EventPayload.init)
            case .value(let value): made = value.map { EventPayload(value: $0) }
            case .frame(let frame, let span): made = EventPayload(frame: frame, span: span)
            case .decrypted(let decrypted):
                made = EventPayload(text: decrypted.plaintext)
                ciphertext = decrypted.ciphertext
            }
            let event = ChannelEvent(
                channel: channel, name: name, payload: made, memberId: memberId, ciphertext: ciphertext,
                offset: stream?.offset, epoch: stream?.epoch, continuity: stream?.continuity)
            registry.deliver(event)
            if let observers { Self.notify(observers, of: event) }
        }

        /// Calls the client-wide observers. Kept out of line: their closures are stored
        /// generically, so calling them needs the event in memory, and inlined that copy was made
        /// for every event, observed or not.
        @inline(never)
        private static func notify(_ observers: ObserverList<@Sendable (ChannelEvent) -> Void>, of event: ChannelEvent)
        {
            for handler in observers.handlers { handler(event) }
        }
    }

    /// A unit of delivery work.
    enum Item {
        case work(@Sendable () -> Void)
        case event(Event)

        func run() {
            switch self {
            case .work(let work): work()
            case .event(let event): event.run()
            }
        }
    }

    private struct Buffer {
        /// Work in order: batches as they were handed over (moved in, not copied item by item).
        var batches: [[Item]] = []
        /// An emptied batch buffer kept for reuse by ``enqueue(contentsOf:)``.
        var spare: [Item] = []
        var scheduled = false
    }

    let queue: DispatchQueue
    private let buffer = Locked(Buffer())
    /// The placeholder left in a drained slot.
    private static let nothing: @Sendable () -> Void = {}

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// Enqueues `work` to run on the delivery queue after everything enqueued before it.
    func enqueue(_ work: @escaping @Sendable () -> Void) {
        enqueue(.work(work))
    }

    /// Enqueues one item after everything enqueued before it.
    func enqueue(_ item: Item) {
        let schedule = buffer.withLock { b -> Bool in
            if b.batches.isEmpty {
                b.batches.append([item])
            } else {
                b.batches[b.batches.count - 1].append(item)
            }
            if b.scheduled { return false }
            b.scheduled = true
            return true
        }
        if schedule { scheduleDrain() }
    }

    /// Enqueues `items` in order after everything enqueued before them and leaves `items` empty
    /// (with a reused buffer): one lock and at most one queue hop for the lot, no per-item copy.
    func enqueue(contentsOf items: inout [Item]) {
        guard !items.isEmpty else { return }
        let schedule = buffer.withLock { b -> Bool in
            b.batches.append(items)
            items = b.spare
            b.spare = []
            if b.scheduled { return false }
            b.scheduled = true
            return true
        }
        if schedule { scheduleDrain() }
    }

    private func scheduleDrain() {
        queue.async { self.drain() }
    }

    private func drain() {
        while true {
            var batches = buffer.withLock { b -> [[Item]] in
                if b.batches.isEmpty {
                    b.scheduled = false
                    return []
                }
                defer { b.batches = [] }
                return b.batches
            }
            if batches.isEmpty { return }
            batches.reverse()
            while var batch = batches.popLast() {  // owned uniquely: emptied in place, then reused
                // Each item is moved out and run (its strings and references handed on, not
                // retained again); a payload-free placeholder takes its slot until removeAll.
                batch.withUnsafeMutableBufferPointer { items in
                    guard let base = items.baseAddress else { return }
                    for index in items.indices {
                        let item = (base + index).move()
                        (base + index).initialize(to: .work(Self.nothing))
                        item.run()
                    }
                }
                batch.removeAll(keepingCapacity: true)
                if batch.capacity <= 4096 {
                    buffer.withLock { b in
                        if b.spare.capacity < batch.capacity { swap(&b.spare, &batch) }
                    }
                }
            }
        }
    }
}

/// Where a delivered event is in its channel's stream. A class: events without one carry a nil
/// pointer, which copies without the value witnesses an optional struct of optionals needs.
final class StreamStamp: Sendable {
    let offset: Int?
    let epoch: String?
    let continuity: ChannelContinuity?

    init(offset: Int? = nil, epoch: String? = nil, continuity: ChannelContinuity? = nil) {
        self.offset = offset
        self.epoch = epoch
        self.continuity = continuity
    }
}

/// A decrypted event's plaintext and the envelope it travelled in.
final class DecryptedText: Sendable {
    let plaintext: String
    let ciphertext: String

    init(plaintext: String, ciphertext: String) {
        self.plaintext = plaintext
        self.ciphertext = ciphertext
    }
}
