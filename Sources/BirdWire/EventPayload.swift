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

    /// A message's `data` still in its text frame (``WireEnvelope``): unescaped and copied only
    /// when ``text`` is read, parsed from the frame when ``value`` is.
    package init(frame: String, span: WireDataSpan) {
        storage = Storage(frame: frame, span: span)
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

    /// The text (or the frame it is in) and, once read, its parse — shared by copies of the
    /// payload. Work is done outside any lock (two first readers may both do it; the first
    /// result stored wins).
    final class Storage: @unchecked Sendable {
        /// The text; nil while it is still in ``frame`` (then made on first read).
        private var madeText: String?
        /// The frame and where the text is in it, for a payload made over a frame.
        private let frame: (text: String, span: WireDataSpan)?
        let sentAsString: Bool
        /// Guarded by ``LockStripes/lock(for:)`` (with ``madeText`` once a frame's text is made).
        private var cached: Parsed?

        init(text: String, sentAsString: Bool) {
            self.madeText = text
            self.frame = nil
            self.sentAsString = sentAsString
        }

        init(text: String, parsed: Parsed) {
            self.madeText = text
            self.frame = nil
            self.sentAsString = false
            self.cached = parsed
        }

        init(frame: String, span: WireDataSpan) {
            self.madeText = nil
            self.frame = (frame, span)
            self.sentAsString = span.isString
        }

        var text: String {
            guard let frame else { return madeText ?? "" }
            let lock = LockStripes.lock(for: self)
            lock.lock()
            let known = madeText
            lock.unlock()
            if let known { return known }
            let made = frame.span.text(in: frame.text)
            lock.lock()
            defer { lock.unlock() }
            if let madeText { return madeText }
            madeText = made
            return made
        }

        var parsed: Parsed {
            let lock = LockStripes.lock(for: self)
            lock.lock()
            let known = cached
            lock.unlock()
            if let known { return known }
            let made: Parsed
            if let frame {
                // Parsed from the frame's bytes (a string's content unescaped into scratch
                // space): no text is made unless the payload is not JSON.
                made =
                    frame.span.withText(in: frame.text) { bytes in bytes.map { EventPayload.parse(bytes: $0) } }
                    ?? EventPayload.parse(text)
            } else {
                made = EventPayload.parse(text)
            }
            lock.lock()
            defer { lock.unlock() }
            if let cached { return cached }
            cached = made
            return made
        }
    }

    /// ``parse(_:)`` of the text whose UTF-8 is `bytes`.
    static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Parsed {
        guard bytes.count <= maxParsedBytes else {
            return Parsed(
                value: .string(String(decoding: bytes, as: UTF8.self)),
                problem: .tooLarge(bytes: bytes.count, limit: maxParsedBytes))
        }
        do {
            return Parsed(value: try JSONValue(parsing: bytes), problem: nil)
        } catch {
            return Parsed(value: .string(String(decoding: bytes, as: UTF8.self)), problem: PayloadProblem(error))
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
