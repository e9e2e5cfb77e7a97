/// Deadlines keyed by `Key`, earliest first (ties in the order they were set): a binary min-heap
/// with each key's place in it, so that removing a key is O(log n) and leaves nothing behind.
/// A value: no clock, no timer — the caller passes the time (`SubscribeTimeouts` serves it with
/// one timer).
struct DeadlineQueue<Key: Hashable, Value> {
    private struct Entry {
        let deadline: Duration
        /// When the deadline was set: orders equal deadlines.
        let order: UInt64
        let key: Key
        let value: Value

        func precedes(_ other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : order < other.order
        }
    }

    private var heap: [Entry] = []
    private var positions: [Key: Int] = [:]
    private var nextOrder: UInt64 = 0

    init() {}

    /// How many deadlines are set.
    var count: Int { heap.count }

    /// Whether no deadline is set.
    var isEmpty: Bool { heap.isEmpty }

    /// The earliest deadline, if any.
    var earliest: Duration? { heap.first?.deadline }

    /// Whether `key` has a deadline.
    func contains(_ key: Key) -> Bool { positions[key] != nil }

    /// Sets `key`'s deadline and value, replacing the ones it had.
    mutating func set(_ key: Key, at deadline: Duration, value: Value) {
        remove(key)
        let entry = Entry(deadline: deadline, order: nextOrder, key: key, value: value)
        nextOrder &+= 1
        heap.append(entry)
        positions[key] = heap.count - 1
        siftUp(heap.count - 1)
    }

    /// Removes `key`'s deadline; returns its value, or nil when it had none.
    @discardableResult
    mutating func remove(_ key: Key) -> Value? {
        guard let index = positions.removeValue(forKey: key) else { return nil }
        let removed = heap[index]
        let last = heap.removeLast()
        if index < heap.count {
            heap[index] = last
            positions[last.key] = index
            if index > 0, last.precedes(heap[(index - 1) / 2]) {
                siftUp(index)
            } else {
                siftDown(index)
            }
        }
        if heap.isEmpty { releaseStorage() }
        return removed.value
    }

    /// Removes every deadline at or before `now` and returns them, earliest first.
    mutating func removeDue(now: Duration) -> [(key: Key, value: Value)] {
        var due: [(key: Key, value: Value)] = []
        while let first = heap.first, first.deadline <= now {
            remove(first.key)
            due.append((first.key, first.value))
        }
        return due
    }

    /// Removes every deadline.
    mutating func removeAll() {
        releaseStorage()
    }

    /// Empty storage, not merely emptied: thousands of deadlines set at once must not keep their
    /// capacity once they are gone.
    private mutating func releaseStorage() {
        heap = []
        positions = [:]
    }

    private mutating func siftUp(_ start: Int) {
        var index = start
        while index > 0 {
            let parent = (index - 1) / 2
            guard heap[index].precedes(heap[parent]) else { break }
            swapAt(index, parent)
            index = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var index = start
        while true {
            let left = 2 * index + 1
            guard left < heap.count else { break }
            let right = left + 1
            var child = left
            if right < heap.count, heap[right].precedes(heap[left]) { child = right }
            guard heap[child].precedes(heap[index]) else { break }
            swapAt(index, child)
            index = child
        }
    }

    private mutating func swapAt(_ a: Int, _ b: Int) {
        heap.swapAt(a, b)
        positions[heap[a].key] = a
        positions[heap[b].key] = b
    }
}
