import Foundation

/// An event's payload exactly as received, and what it means.
///
/// ``text`` is the payload after the dialect's string unwrapping: for `"data":"{\"a\":1}"` it
/// is `{"a":1}`; for `"data":{"a":1}` it is that object's text verbatim, spaces and member
/// order included. ``value`` is the parsed JSON (`.string(text)` when the text is not JSON —
/// the Pusher dialect allows any string) and ``problem`` says why it is not, in types.
///
/// The text is parsed the first time ``value`` or ``problem`` is read, once, whichever thread
/// reads it; a payload nobody reads costs no parse. Payloads are equal when their texts are.
public struct EventPayload: Sendable {
    /// Payloads larger than this (in UTF-8 bytes) are not parsed: their value is `.string(text)`
    /// and their problem ``PayloadProblem/tooLarge(bytes:limit:)``. (The WebSocket transport
    /// already refuses messages over 4 MiB.)
    public static let maxParsedBytes = 16 << 20

    private let storage: Storage

    /// A payload received as `text` (as if it came as a JSON string): parsed on demand.
    public init(text: String) {
        storage = Storage(text: text, sentAsString: true)
    }

    /// A payload built from `value`; its text is the compact JSON.
    public init(value: JSONValue) {
        storage = Storage(text: value.description, parsed: Parsed(value: value, problem: nil))
    }

    /// A payload as it came in a message's `data`.
    package init(_ wire: WirePayload) {
        switch wire {
        case .string(let text): storage = Storage(text: text, sentAsString: true)
        case .json(let text): storage = Storage(text: text, sentAsString: false)
        }
    }

    /// The payload's exact text (a string `data` unwrapped; any other `data` verbatim).
    public var text: String { storage.text }

    /// Whether `data` was a JSON string on the wire (its content is ``text``); false when it was
    /// an object, array, number or Boolean, or when the payload was built from a value.
    public var sentAsString: Bool { storage.sentAsString }

    /// The parsed value: JSON when ``text`` is JSON, else `.string(text)`.
    public var value: JSONValue { storage.parsed.value }

    /// Why ``text`` is not JSON (or not parsed); nil when it is.
    public var problem: PayloadProblem? { storage.parsed.problem }
}

extension EventPayload: Hashable {
    public static func == (lhs: EventPayload, rhs: EventPayload) -> Bool {
        lhs.storage === rhs.storage || lhs.text == rhs.text
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
    }
}

extension EventPayload: CustomStringConvertible {
    /// The payload's text.
    public var description: String { text }
}

// MARK: - Storage

extension EventPayload {
    struct Parsed: Sendable {
        var value: JSONValue
        var problem: PayloadProblem?
    }

    /// The text and, once read, its parse — shared by copies of the payload. The parse is made
    /// outside any lock (two first readers may both parse; the first result stored wins).
    final class Storage: @unchecked Sendable {
        let text: String
        let sentAsString: Bool
        /// Guarded by ``LockStripes/lock(for:)``.
        private var cached: Parsed?

        init(text: String, sentAsString: Bool) {
            self.text = text
            self.sentAsString = sentAsString
        }

        init(text: String, parsed: Parsed) {
            self.text = text
            self.sentAsString = false
            self.cached = parsed
        }

        var parsed: Parsed {
            let lock = LockStripes.lock(for: self)
            lock.lock()
            let known = cached
            lock.unlock()
            if let known { return known }
            let made = EventPayload.parse(text)
            lock.lock()
            defer { lock.unlock() }
            if let cached { return cached }
            cached = made
            return made
        }
    }

    static func parse(_ text: String) -> Parsed {
        let bytes = text.utf8.count
        guard bytes <= maxParsedBytes else {
            return Parsed(value: .string(text), problem: .tooLarge(bytes: bytes, limit: maxParsedBytes))
        }
        do {
            return Parsed(value: try JSONValue(parsing: text), problem: nil)
        } catch {
            return Parsed(value: .string(text), problem: PayloadProblem(error))
        }
    }
}

/// A fixed set of locks shared by many small objects (picked by address): thread safety for
/// lazily filled caches without a lock allocation per object.
enum LockStripes {
    private static let locks: [NSLock] = (0..<16).map { _ in NSLock() }

    static func lock(for object: AnyObject) -> NSLock {
        let address = UInt(bitPattern: ObjectIdentifier(object))
        return locks[Int((address >> 4) & 15)]
    }
}
