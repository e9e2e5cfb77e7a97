// The queue between the client's callbacks and the inspector's main loop, bounded: when the loop
// falls behind, channel events (and recording `wire` lines for them) are dropped and counted —
// state changes, errors, subscriptions and everything else are always kept — and the count comes
// out in the stream, at the place the drops happened, as one `dropped` element.

import Foundation

/// A bounded first-in, first-out queue that drops only what may be dropped, and says so.
public struct InboxQueue<Item: Sendable>: Sendable {
    /// Whether an item may be dropped when the queue is full.
    public enum Kind: Sendable, Equatable {
        /// Never dropped: state changes, retries, errors, subscriptions, members, sign-in,
        /// command results, protocol `wire` lines.
        case keep
        /// A channel event.
        case event
        /// A recording `wire` line of a channel event.
        case wire
    }

    /// What comes out.
    public enum Element: Sendable {
        /// An item, in the order posted.
        case item(Item)
        /// `count` events and `wire` wire lines were dropped here, the first at `since`.
        case dropped(count: Int, wire: Int, since: Date)
    }

    /// The bounds on droppable items held at once.
    public typealias Limits = InboxLimits

    /// The bounds.
    public let limits: Limits
    private var elements: [Element] = []
    private var head = 0
    private var heldCosts: [Int] = []  // each element's cost; -1 for those never dropped (parallel to `elements`)
    /// Droppable items held.
    public private(set) var droppableCount = 0
    /// Bytes of droppable items held.
    public private(set) var droppableBytes = 0
    private var spell: (count: Int, wire: Int, since: Date)?
    /// Everything dropped since the queue was made.
    public private(set) var totalDropped = 0

    /// An empty queue.
    public init(limits: Limits = .standard) {
        self.limits = limits
    }

    /// Elements waiting.
    public var count: Int { elements.count - head + (spell == nil ? 0 : 1) }

    /// Whether a droppable item costing `bytes` would be dropped now.
    public func isFull(adding bytes: Int) -> Bool {
        droppableCount >= limits.entries || droppableBytes + max(0, bytes) > limits.bytes
    }

    /// Adds an item of `kind` costing `bytes`, posted at `now`; returns false when it was dropped.
    @discardableResult
    public mutating func post(_ item: Item, kind: Kind, bytes: Int, at now: Date) -> Bool {
        let cost = max(0, bytes)
        if dropIfFull(kind: kind, bytes: cost, at: now) { return false }
        closeSpell()
        append(.item(item), cost: kind == .keep ? -1 : cost)
        if kind != .keep {
            droppableCount += 1
            droppableBytes += cost
        }
        return true
    }

    /// Counts a droppable item of `kind` costing at least `bytes` as dropped, without the item,
    /// when the queue is full (true); false when it would be held (then nothing changes). So a
    /// producer can decide before it makes the item: when this says false, `post` with a cost of
    /// at least `bytes` is the same decision unless items were taken meanwhile (then it keeps
    /// what would have been dropped). `now` is read only when a run of drops begins.
    public mutating func dropIfFull(kind: Kind, bytes: Int, at now: @autoclosure () -> Date) -> Bool {
        guard kind != .keep, isFull(adding: max(0, bytes)) else { return false }
        var s = spell ?? (0, 0, now())
        if kind == .event { s.count += 1 } else { s.wire += 1 }
        spell = s
        totalDropped += 1
        return true
    }

    /// Takes up to `limit` elements, oldest first; a run of drops still open at the end of the
    /// queue comes out as its `dropped` element.
    public mutating func take(limit: Int) -> [Element] {
        if elements.count - head < max(1, limit) { closeSpell() }
        let n = min(max(0, limit), elements.count - head)
        guard n > 0 else { return [] }
        let batch = Array(elements[head..<(head + n)])
        for i in head..<(head + n) where heldCosts[i] >= 0 {
            droppableCount -= 1
            droppableBytes -= heldCosts[i]
        }
        head += n
        if head == elements.count {
            elements.removeAll(keepingCapacity: true)
            heldCosts.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 4096 && head * 2 > elements.count {
            elements.removeFirst(head)
            heldCosts.removeFirst(head)
            head = 0
        }
        return batch
    }

    private mutating func closeSpell() {
        guard let s = spell else { return }
        spell = nil
        append(.dropped(count: s.count, wire: s.wire, since: s.since), cost: -1)
    }

    private mutating func append(_ element: Element, cost: Int) {
        elements.append(element)
        heldCosts.append(cost)
    }
}

/// The bounds of an `InboxQueue` on droppable items held at once.
public struct InboxLimits: Sendable, Equatable {
    /// Most droppable items held.
    public var entries: Int
    /// Most bytes of droppable items held (their text's size).
    public var bytes: Int

    /// Limits.
    public init(entries: Int, bytes: Int) {
        self.entries = max(1, entries)
        self.bytes = max(1, bytes)
    }

    /// 50,000 events or wire lines, or 32 MiB of their text, whichever comes first.
    public static let standard = InboxLimits(entries: 50_000, bytes: 32 << 20)
}

/// Which `wire` texts may be dropped when the inbox is full: those of channel events (app and
/// client events). Protocol messages (`bird:…`, `pusher:…`, `…_internal:…` — handshakes,
/// subscriptions, pings, errors) are always kept, so a recording keeps every state-relevant one.
public enum WireTextKind {
    /// Whether `text`'s event name has no `:` (not a protocol message). Looks at the first 4,096
    /// bytes only, in place (no copies: it runs for every recorded wire line, also while the
    /// inspector is behind and dropping).
    public static func isChannelEvent(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            let marker: StaticString = #""event":""#
            let m = marker.utf8Start
            let mCount = marker.utf8CodeUnitCount
            let end = min(bytes.count, 4096)
            guard end > mCount else { return false }
            var i = 0
            while i + mCount <= end {
                var j = 0
                while j < mCount, bytes[i + j] == m[j] { j += 1 }
                if j == mCount {
                    var k = i + mCount
                    while k < end, bytes[k] != UInt8(ascii: "\"") {
                        if bytes[k] == UInt8(ascii: ":") { return false }
                        k += 1
                    }
                    return k < end
                }
                i += 1
            }
            return false
        }
    }
}
