import Foundation

/// A JSON value, kept without loss: what event payloads are made of.
///
/// Numbers are ``JSONNumber``s (64-bit integers exact, every other number as the digits sent)
/// and objects are ``JSONObject``s (members in the order sent), so re-serialising a payload
/// gives back its members in order with the same digits. `JSONValue` is `Sendable`,
/// `Hashable`, `Codable` and expressible by every literal, so app code can write
/// `["on": true]` or `data ?? ""`. Its `description` is compact JSON.
///
/// Equality is by meaning: numbers compare numerically (`4009 == 4009.0`) and objects ignore
/// member order; compare ``description``s to tell spellings apart.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, exact as sent.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, members in the order sent.
    case object(JSONObject)

    /// How deeply arrays and objects may nest in parsed text (deeper input is a
    /// ``JSONParseError/Kind/tooDeep`` error, never a stack overflow).
    public static let maxNestingDepth = 256
}

// MARK: - Accessors

extension JSONValue {
    /// The string, when this is `.string`.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The number, when this is `.number`.
    public var numberValue: JSONNumber? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// The nearest `Double`, when this is `.number`.
    public var doubleValue: Double? { numberValue?.doubleValue }

    /// The number as an `Int`, when this is an integral `.number` in range (exact; never rounds).
    public var intValue: Int? { numberValue?.intValue }

    /// The number as an `Int64`, when this is an integral `.number` in range (exact; never rounds).
    public var int64Value: Int64? { numberValue?.int64Value }

    /// The number as a `UInt64`, when this is an integral, non-negative `.number` in range.
    public var uint64Value: UInt64? { numberValue?.uint64Value }

    /// The number as a Foundation `Decimal`, when this is a `.number` within `Decimal`'s range.
    public var decimalValue: Decimal? { numberValue?.decimalValue }

    /// The Boolean, when this is `.bool`.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The members in order, when this is `.object`.
    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The members as a dictionary (order dropped), when this is `.object`.
    public var dictionaryValue: [String: JSONValue]? { objectValue?.dictionary }

    /// The elements, when this is `.array`.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// Whether this is `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The member named `key`, when this is an object that has it.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let o) = self else { return nil }
        return o[key]
    }

    /// The element at `index`, when this is an array long enough.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let a) = self, a.indices.contains(index) else { return nil }
        return a[index]
    }
}

// MARK: - Creating values

extension JSONValue {
    /// `.number(value)` for an integer of any width.
    public init<T: BinaryInteger>(_ value: T) {
        self = .number(JSONNumber(value))
    }

    /// `.number(value)` for a finite `Double`; `.null` for NaN and infinities, which JSON cannot
    /// spell (as JavaScript's `JSON.stringify` does). Use ``JSONNumber/init(_:)-(Double)`` to
    /// be told instead.
    public init(_ value: Double) {
        self = JSONNumber(value).map(JSONValue.number) ?? .null
    }

    /// An object with the members of `dictionary`, keys sorted.
    public init(_ dictionary: [String: JSONValue]) {
        self = .object(JSONObject(dictionary))
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .number(JSONNumber(integerLiteral: value)) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .number(JSONNumber(floatLiteral: value)) }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// An object with the members in the order written.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var object = JSONObject(capacity: elements.count)
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
}

// MARK: - Text

extension JSONValue: CustomStringConvertible {
    /// Compact JSON: members in their order, numbers as their text.
    public var description: String { JSONWriter.write(self) }
}

extension JSONValue {
    /// Parses JSON text. Throws ``JSONParseError`` for anything that is not exactly one JSON
    /// value, for numbers beyond `Double`'s range and for nesting deeper than ``maxNestingDepth``.
    public init(parsing text: String) throws(JSONParseError) {
        var text = text
        let result: Result<JSONValue, JSONParseError> = text.withUTF8 { buffer in
            var parser = JSONParser(buffer)
            do throws(JSONParseError) { return .success(try parser.parseDocument()) } catch { return .failure(error) }
        }
        self = try result.get()
    }

    /// Parses JSON from UTF-8 bytes (invalid UTF-8 in a string is a ``JSONParseError``).
    public init(parsing bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) {
        var parser = JSONParser(bytes)
        self = try parser.parseDocument()
    }

    /// The value for a payload received as text: parsed when it is JSON, else kept as `.string`.
    /// (``EventPayload`` also says why a text is not JSON.)
    public static func fromPayload(_ text: String) -> JSONValue {
        (try? JSONValue(parsing: text)) ?? .string(text)
    }

    /// Pretty-printed JSON: two-space indent, members in their order, for detail views and docs.
    public var prettyDescription: String { JSONWriter.write(self, pretty: true) }
}
