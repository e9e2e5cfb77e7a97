/// A JSON value: what event payloads are made of.
///
/// `JSONValue` is `Sendable`, `Hashable`, and expressible by every literal, so app code can write
/// `["on": true]` or `data ?? ""`. Its `description` is compact JSON (object keys sorted, so the
/// text is stable). Numbers are kept as `Double`; integral values print without a fraction.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

// MARK: - Accessors

extension JSONValue {
    /// The string, when this is `.string`.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The number, when this is `.number`.
    public var doubleValue: Double? {
        if case .number(let d) = self { return d }
        return nil
    }

    /// The number as an `Int`, when this is an integral `.number` in range.
    public var intValue: Int? {
        guard case .number(let d) = self, d.rounded() == d, abs(d) < 9.0e15 else { return nil }
        return Int(d)
    }

    /// The Boolean, when this is `.bool`.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The members, when this is `.object`.
    public var objectValue: [String: JSONValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The elements, when this is `.array`.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// Whether this is `.null`.
    public var isNull: Bool { self == .null }

    /// The member named `key`, when this is an object that has it.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// The element at `index`, when this is an array long enough.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let a) = self, a.indices.contains(index) else { return nil }
        return a[index]
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
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .number(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var object: [String: JSONValue] = [:]
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
}

// MARK: - Text

extension JSONValue: CustomStringConvertible {
    /// Compact JSON text (object keys sorted).
    public var description: String { JSONWriter.write(self) }
}

extension JSONValue {
    /// Parses JSON text. Throws ``JSONParseError`` for anything that is not exactly one JSON value.
    public init(parsing text: String) throws(JSONParseError) {
        var text = text
        let result: Result<JSONValue, JSONParseError> = text.withUTF8 { buffer in
            var parser = JSONParser(buffer)
            do throws(JSONParseError) { return .success(try parser.parseDocument()) } catch { return .failure(error) }
        }
        self = try result.get()
    }

    /// Parses JSON from UTF-8 bytes.
    public init(parsing bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) {
        var parser = JSONParser(bytes)
        self = try parser.parseDocument()
    }

    /// The value for a payload received as text: parsed when it is JSON, else kept as `.string`.
    public static func fromPayload(_ text: String) -> JSONValue {
        (try? JSONValue(parsing: text)) ?? .string(text)
    }

    /// Pretty-printed JSON (two-space indent, sorted keys), for detail views and docs.
    public var prettyDescription: String { JSONWriter.write(self, pretty: true) }
}
