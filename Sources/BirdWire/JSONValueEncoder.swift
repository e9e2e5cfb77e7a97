import Foundation

/// Encodes `Encodable` types to a ``JSONValue`` — exactly: integers of every width as written,
/// `Decimal` with all its digits, `Double` and `Float` as the shortest text that reads back the
/// same, members in the order the type encodes them.
///
/// ```swift
/// let value = try JSONValueEncoder().encode(Order(id: 9007199254740993, total: 12.50))
/// value.description   // {"id":9007199254740993,"total":12.5}
/// ```
///
/// Like Foundation's `JSONEncoder`: `Date` defaults to `deferredToDate`, `Data` to base64, `URL`
/// to its absolute string, and `keyEncodingStrategy = .convertToSnakeCase` writes `orderId` as
/// `order_id`. A NaN or infinite `Double` is an `EncodingError.invalidValue` (JSON cannot spell
/// it), never a trap.
public struct JSONValueEncoder: Sendable {
    /// How coding keys become member names.
    public enum KeyEncodingStrategy: Sendable {
        /// Keys are the member names.
        case useDefaultKeys
        /// `camelCase` keys become `snake_case` member names (`orderId` → `order_id`).
        case convertToSnakeCase
    }

    /// How `Date` values are written.
    public enum DateEncodingStrategy: Sendable {
        /// `Date`'s own `Encodable` (seconds since 2001-01-01).
        case deferredToDate
        /// Seconds since 1970-01-01.
        case secondsSince1970
        /// Milliseconds since 1970-01-01.
        case millisecondsSince1970
        /// An ISO 8601 string (`2025-01-31T12:00:00Z`).
        case iso8601
    }

    /// How `Data` values are written.
    public enum DataEncodingStrategy: Sendable {
        /// A base64 string.
        case base64
        /// `Data`'s own `Encodable` (an array of bytes).
        case deferredToData
    }

    /// How coding keys become member names (default: as they are).
    public var keyEncodingStrategy: KeyEncodingStrategy = .useDefaultKeys
    /// How dates are written (default: `deferredToDate`).
    public var dateEncodingStrategy: DateEncodingStrategy = .deferredToDate
    /// How data is written (default: base64).
    public var dataEncodingStrategy: DataEncodingStrategy = .base64
    /// Values handed to the types being encoded (`Encoder.userInfo`).
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// An encoder with the default strategies.
    public init() {}

    /// The JSON value of `value`.
    ///
    /// - Throws: `EncodingError.invalidValue` for a non-finite floating-point number or a value
    ///   that encodes nothing.
    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let box = try ValueEncoder(codingPath: [], options: self).box(value, at: [])
        guard let result = box.resolved() else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        return result
    }
}

// MARK: - The tree being built

/// A node of the value being encoded. Containers hold their children by reference, so nested
/// containers and super encoders can fill them after they were handed out.
final class EncodedNode {
    enum Content {
        case empty
        case value(JSONValue)
        case array([EncodedNode])
        case object(keys: [String], nodes: [String: EncodedNode])
    }

    var content: Content

    init(_ content: Content = .empty) {
        self.content = content
    }

    /// The value, or nil when nothing was encoded.
    func resolved() -> JSONValue? {
        switch content {
        case .empty: return nil
        case .value(let value): return value
        case .array(let nodes): return .array(nodes.map { $0.resolved() ?? .object(JSONObject()) })
        case .object(let keys, let nodes):
            var object = JSONObject(capacity: keys.count)
            for key in keys {
                object[key] = nodes[key]?.resolved() ?? .object(JSONObject())
            }
            return .object(object)
        }
    }

    /// Makes this node an object (keeping its members when it is one) and returns nothing.
    func becomeObject() {
        if case .object = content { return }
        content = .object(keys: [], nodes: [:])
    }

    /// Makes this node an array (keeping its elements when it is one).
    func becomeArray() {
        if case .array = content { return }
        content = .array([])
    }

    /// Sets member `key` (in place when it exists, else at the end).
    func set(_ key: String, _ node: EncodedNode) {
        becomeObject()
        guard case .object(var keys, var nodes) = content else { return }
        content = .empty  // keep the collections uniquely referenced while they change
        if nodes.updateValue(node, forKey: key) == nil { keys.append(key) }
        content = .object(keys: keys, nodes: nodes)
    }

    /// Appends an element.
    func append(_ node: EncodedNode) {
        becomeArray()
        guard case .array(var nodes) = content else { return }
        content = .empty
        nodes.append(node)
        content = .array(nodes)
    }

    var count: Int {
        switch content {
        case .array(let nodes): return nodes.count
        case .object(let keys, _): return keys.count
        case .empty, .value: return 0
        }
    }
}

// MARK: - The encoder

/// One position in the value being encoded.
final class ValueEncoder: Encoder {
    let codingPath: [any CodingKey]
    let options: JSONValueEncoder
    let node: EncodedNode

    init(codingPath: [any CodingKey], options: JSONValueEncoder, node: EncodedNode = EncodedNode()) {
        self.codingPath = codingPath
        self.options = options
        self.node = node
    }

    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeObject()
        return KeyedEncodingContainer(
            ValueKeyedEncodingContainer<Key>(encoder: self, node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.becomeArray()
        return ValueUnkeyedEncodingContainer(encoder: self, node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    /// The member name for `key`.
    func name(_ key: some CodingKey) -> String {
        switch options.keyEncodingStrategy {
        case .useDefaultKeys: return key.stringValue
        case .convertToSnakeCase: return KeyCase.snakeCase(fromCamelCase: key.stringValue)
        }
    }

    // MARK: Boxing

    /// The node for `value` at `path`, with the special cases of the lossless model.
    func box<T: Encodable>(_ value: T, at path: [any CodingKey]) throws -> EncodedNode {
        switch value {
        case let json as JSONValue: return EncodedNode(.value(json))
        case let number as JSONNumber: return EncodedNode(.value(.number(number)))
        case let object as JSONObject: return EncodedNode(.value(.object(object)))
        case let double as Double: return EncodedNode(.value(try number(double, at: path)))
        case let float as Float: return EncodedNode(.value(try number(float, at: path)))
        case let decimal as Decimal:
            guard let number = JSONNumber(decimal) else { throw invalid(decimal, "Decimal.nan", path) }
            return EncodedNode(.value(.number(number)))
        case let url as URL:
            return EncodedNode(.value(.string(url.absoluteString)))
        case let date as Date:
            if let encoded = try boxDate(date, at: path) { return EncodedNode(.value(encoded)) }
        case let data as Data where options.dataEncodingStrategy == .base64:
            return EncodedNode(.value(.string(data.base64EncodedString())))
        default:
            break
        }
        let child = ValueEncoder(codingPath: path, options: options)
        try value.encode(to: child)
        return child.node
    }

    private func boxDate(_ date: Date, at path: [any CodingKey]) throws -> JSONValue? {
        switch options.dateEncodingStrategy {
        case .deferredToDate: return nil
        case .secondsSince1970: return try number(date.timeIntervalSince1970, at: path)
        case .millisecondsSince1970: return try number(date.timeIntervalSince1970 * 1000, at: path)
        case .iso8601: return .string(date.formatted(.iso8601))
        }
    }

    func number(_ double: Double, at path: [any CodingKey]) throws -> JSONValue {
        guard let number = JSONNumber(double) else { throw invalid(double, "\(double)", path) }
        return .number(number)
    }

    func number(_ float: Float, at path: [any CodingKey]) throws -> JSONValue {
        guard let number = JSONNumber(float) else { throw invalid(float, "\(float)", path) }
        return .number(number)
    }

    private func invalid(_ value: Any, _ spelling: String, _ path: [any CodingKey]) -> EncodingError {
        .invalidValue(
            value, .init(codingPath: path, debugDescription: "Unable to encode \(spelling) directly in JSON."))
    }
}

// MARK: - Single value

extension ValueEncoder: SingleValueEncodingContainer {
    func encodeNil() throws { node.content = .value(.null) }
    func encode(_ value: Bool) throws { node.content = .value(.bool(value)) }
    func encode(_ value: String) throws { node.content = .value(.string(value)) }
    func encode(_ value: Double) throws { node.content = .value(try number(value, at: codingPath)) }
    func encode(_ value: Float) throws { node.content = .value(try number(value, at: codingPath)) }
    func encode(_ value: Int) throws { node.content = .value(JSONValue(value)) }
    func encode(_ value: Int8) throws { node.content = .value(JSONValue(value)) }
    func encode(_ value: Int16) throws { node.content = .value(JSONValue(value)) }
    func encode(_ value: Int32) throws { node.content = .value(JSONValue(value)) }
    func encode(_ value: Int64) throws { node.content = .value(JSONValue(value)) }
    func encode(_ value: UInt) throws { node.content = .value(JSONValue(value)) }
    func encode(_ value: UInt8) throws { node.content = .value(JSONValue(value)) }
    func encode(_ value: UInt16) throws { node.content = .value(JSONValue(value)) }
    func encode(_ value: UInt32) throws { node.content = .value(JSONValue(value)) }
    func encode(_ value: UInt64) throws { node.content = .value(JSONValue(value)) }
    func encode<T: Encodable>(_ value: T) throws {
        node.content = try box(value, at: codingPath).content
    }
}
