import Foundation

/// Decodes `Decodable` types from a ``JSONValue`` — the lossless model, so nothing is lost on
/// the way: an `Int64` id such as `9007199254740993` arrives exact, a `Decimal` gets the digits
/// sent, and a number that does not fit the requested type is an error, never rounded.
///
/// ```swift
/// struct Order: Decodable { var id: Int64; var total: Decimal }
/// let order = try JSONValueDecoder().decode(Order.self, from: payload.value)
/// ```
///
/// Like Foundation's `JSONDecoder`: `Date` defaults to `deferredToDate`, `Data` to base64, `URL`
/// is a string, and `keyDecodingStrategy = .convertFromSnakeCase` maps `order_id` to `orderId`.
/// Failures are `DecodingError`s with the coding path.
public struct JSONValueDecoder: Sendable {
    /// How member names map to coding keys.
    public enum KeyDecodingStrategy: Sendable {
        /// Member names are the keys.
        case useDefaultKeys
        /// `snake_case` member names become `camelCase` keys (`order_id` → `orderId`), as
        /// Foundation's `JSONDecoder` does.
        case convertFromSnakeCase
    }

    /// How `Date` values are read.
    public enum DateDecodingStrategy: Sendable {
        /// `Date`'s own `Decodable` (seconds since 2001-01-01).
        case deferredToDate
        /// A number of seconds since 1970-01-01.
        case secondsSince1970
        /// A number of milliseconds since 1970-01-01.
        case millisecondsSince1970
        /// An ISO 8601 string (`2025-01-31T12:00:00Z`).
        case iso8601
    }

    /// How `Data` values are read.
    public enum DataDecodingStrategy: Sendable {
        /// A base64 string.
        case base64
        /// `Data`'s own `Decodable` (an array of bytes).
        case deferredToData
    }

    /// How member names map to coding keys (default: as they are).
    public var keyDecodingStrategy: KeyDecodingStrategy = .useDefaultKeys
    /// How dates are read (default: `deferredToDate`).
    public var dateDecodingStrategy: DateDecodingStrategy = .deferredToDate
    /// How data is read (default: base64).
    public var dataDecodingStrategy: DataDecodingStrategy = .base64
    /// Values handed to the types being decoded (`Decoder.userInfo`).
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// A decoder with the default strategies.
    public init() {}

    /// Decodes a `T` from `value`.
    ///
    /// - Throws: `DecodingError` naming the coding path of what did not fit.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try ValueDecoder(value: value, codingPath: [], options: self).unbox(value, as: T.self)
    }

    /// Decodes a `T` from JSON text (parsed with the lossless parser).
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the text is not JSON, else as
    ///   ``decode(_:from:)-(_,JSONValue)``.
    public func decode<T: Decodable>(_ type: T.Type, fromText text: String) throws -> T {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: text)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "The text is not valid JSON: \(error)", underlyingError: error))
        }
        return try decode(type, from: value)
    }
}

// MARK: - The decoder

/// One position in the value being decoded.
final class ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let options: JSONValueDecoder

    init(value: JSONValue, codingPath: [any CodingKey], options: JSONValueDecoder) {
        self.value = value
        self.codingPath = codingPath
        self.options = options
    }

    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw mismatch([String: Any].self, value, codingPath)
        }
        return KeyedDecodingContainer(ValueKeyedDecodingContainer<Key>(object: object, decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let array) = value else {
            throw mismatch([Any].self, value, codingPath)
        }
        return ValueUnkeyedDecodingContainer(array: array, decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: Unboxing

    /// Decodes `value` (found at `path`) as `T`, with the special cases of the lossless model.
    func unbox<T: Decodable>(_ value: JSONValue, as type: T.Type, at path: [any CodingKey]? = nil) throws -> T {
        let path = path ?? codingPath
        if T.self == JSONValue.self, let same = value as? T { return same }
        if T.self == JSONNumber.self {
            guard case .number(let number) = value, let same = number as? T else { throw mismatch(T.self, value, path) }
            return same
        }
        if T.self == JSONObject.self {
            guard case .object(let object) = value, let same = object as? T else { throw mismatch(T.self, value, path) }
            return same
        }
        if T.self == Decimal.self {
            guard case .number(let number) = value else { throw mismatch(T.self, value, path) }
            guard let decimal = number.decimalValue, let same = decimal as? T else {
                throw corrupted("Number \(number) does not fit in Decimal.", path)
            }
            return same
        }
        if T.self == URL.self {
            guard case .string(let string) = value else { throw mismatch(T.self, value, path) }
            guard let url = URL(string: string), let same = url as? T else {
                throw corrupted("Invalid URL string.", path)
            }
            return same
        }
        if T.self == Date.self, let date = try unboxDate(value, at: path), let same = date as? T { return same }
        if T.self == Data.self, options.dataDecodingStrategy == .base64 {
            guard case .string(let string) = value else { throw mismatch(T.self, value, path) }
            guard let data = Data(base64Encoded: string), let same = data as? T else {
                throw corrupted("Encountered Data is not valid Base64.", path)
            }
            return same
        }
        return try T(from: ValueDecoder(value: value, codingPath: path, options: options))
    }

    /// A date by the strategy; nil for `deferredToDate` (Date decodes itself).
    private func unboxDate(_ value: JSONValue, at path: [any CodingKey]) throws -> Date? {
        switch options.dateDecodingStrategy {
        case .deferredToDate:
            return nil
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try unboxDouble(value, at: path))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try unboxDouble(value, at: path) / 1000)
        case .iso8601:
            guard case .string(let string) = value else { throw mismatch(Date.self, value, path) }
            guard let date = try? Date.ISO8601FormatStyle().parse(string) else {
                throw corrupted("Expected date string to be ISO8601-formatted.", path)
            }
            return date
        }
    }

    func unboxBool(_ value: JSONValue, at path: [any CodingKey]) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(Bool.self, value, path) }
        return bool
    }

    func unboxString(_ value: JSONValue, at path: [any CodingKey]) throws -> String {
        guard case .string(let string) = value else { throw mismatch(String.self, value, path) }
        return string
    }

    func unboxDouble(_ value: JSONValue, at path: [any CodingKey]) throws -> Double {
        guard case .number(let number) = value else { throw mismatch(Double.self, value, path) }
        return number.doubleValue
    }

    func unboxFloat(_ value: JSONValue, at path: [any CodingKey]) throws -> Float {
        guard case .number(let number) = value else { throw mismatch(Float.self, value, path) }
        guard let float = Float(number.text), float.isFinite else {
            throw corrupted("Number \(number) does not fit in Float.", path)
        }
        return float
    }

    /// An integer of type `T`, exact: a fraction or a value out of `T`'s range is an error.
    func unboxInteger<T: FixedWidthInteger>(_ value: JSONValue, as type: T.Type, at path: [any CodingKey]) throws -> T {
        guard case .number(let number) = value else { throw mismatch(T.self, value, path) }
        let exact: T?
        if T.isSigned {
            exact = number.int64Value.flatMap { T(exactly: $0) }
        } else {
            exact = number.uint64Value.flatMap { T(exactly: $0) }
        }
        guard let exact else {
            throw corrupted("Number \(number) is not an exact \(T.self).", path)
        }
        return exact
    }

    func mismatch(_ type: Any.Type, _ value: JSONValue, _ path: [any CodingKey]) -> DecodingError {
        .typeMismatch(
            type,
            .init(codingPath: path, debugDescription: "Expected to decode \(type) but found \(value.kindName) instead.")
        )
    }

    func corrupted(_ message: String, _ path: [any CodingKey]) -> DecodingError {
        .dataCorrupted(.init(codingPath: path, debugDescription: message))
    }
}

// MARK: - Single value

extension ValueDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { value.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try unboxBool(value, at: codingPath) }
    func decode(_ type: String.Type) throws -> String { try unboxString(value, at: codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try unboxDouble(value, at: codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try unboxFloat(value, at: codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try unboxInteger(value, as: type, at: codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try unbox(value, as: type) }
}
