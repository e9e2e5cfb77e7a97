import Foundation

/// A JSON number, kept without loss.
///
/// Integers from `Int64.min` to `UInt64.max` written without a fraction or exponent are held as
/// integers; every other number keeps its decimal text exactly as received (`1.50`, `1e3`,
/// `12345678901234567890123`), so re-serialising a payload gives back the same digits. The
/// accessors convert on demand: ``int64Value``, ``intValue`` and ``uint64Value`` are exact (nil
/// when the number is not integral or out of range), ``doubleValue`` is the nearest `Double`,
/// ``decimalValue`` a Foundation `Decimal`.
///
/// Equality and hashing are numeric: `4009`, `4009.0` and `4.009e3` are equal.
///
/// A number is always finite: a `Double` that is NaN or infinite has no JSON spelling, so
/// ``init(_:)-(Double)`` is failable rather than trapping, and text whose magnitude is beyond
/// `Double`'s range (`1e400`) is refused by ``init(text:)`` and by the parser
/// (``JSONParseError/Kind/numberOutOfRange``). Numbers smaller than `Double`'s range
/// (`1e-400`) are kept; their ``doubleValue`` is zero.
public struct JSONNumber: Sendable {
    enum Storage: Sendable {
        /// An integer written without fraction or exponent, in `Int64` range (but not `-0`).
        case int(Int64)
        /// An integer written without fraction or exponent above `Int64.max`.
        case uint(UInt64)
        /// Any other number: its JSON text (valid grammar, within `Double`'s range).
        case text(String)
    }

    var storage: Storage

    init(storage: Storage) {
        self.storage = storage
    }

    // MARK: - Creating numbers

    /// The number `value` (any width: beyond `UInt64` it is kept as decimal text).
    public init<T: BinaryInteger>(_ value: T) {
        if let small = Int64(exactly: value) {
            storage = .int(small)
        } else if let large = UInt64(exactly: value) {
            storage = .uint(large)
        } else {
            storage = .text(String(value))
        }
    }

    /// The number `value`, or nil when it is NaN or infinite (JSON has no spelling for those).
    /// Integral values within `Int64` are kept as integers (`4009`, not `4009.0`); others as the
    /// shortest text that reads back as the same `Double` (`0.1`, `1e-05`).
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        if value.rounded(.towardZero) == value, abs(value) < 9.223_372_036_854_775_808e18 {
            storage = .int(Int64(value))
        } else {
            storage = .text(value.description)
        }
    }

    /// The number `value`, or nil when it is NaN or infinite; written as the shortest text that
    /// reads back as the same `Float`.
    public init?(_ value: Float) {
        guard value.isFinite else { return nil }
        if value.rounded(.towardZero) == value, abs(value) < 9.223_372_036_854_775_808e18 {
            storage = .int(Int64(value))
        } else {
            storage = .text(value.description)
        }
    }

    /// The number `value` with all its digits, or nil when it is NaN.
    public init?(_ value: Decimal) {
        guard !value.isNaN else { return nil }
        if value.isZero {
            storage = .int(0)
            return
        }
        guard let number = JSONNumber(text: value.description) else { return nil }
        self = number
    }

    /// The number written as `text`, kept exactly; nil unless `text` is one JSON number
    /// (RFC 8259 grammar, no surrounding space) within `Double`'s range.
    public init?(text: String) {
        var text = text
        let number: JSONNumber? = text.withUTF8 { bytes in
            guard let (number, end) = try? JSONNumber.scan(bytes, from: 0), end == bytes.count else { return nil }
            return number
        }
        guard let number else { return nil }
        self = number
    }

    // MARK: - Reading numbers

    /// The number's JSON text: as received for non-integers, the decimal digits for integers.
    public var text: String {
        switch storage {
        case .int(let value): return String(value)
        case .uint(let value): return String(value)
        case .text(let text): return text
        }
    }

    /// The value as an `Int64` when it is integral and in range (`1.0` and `1e3` are integral);
    /// nil otherwise. Never rounds.
    public var int64Value: Int64? {
        switch storage {
        case .int(let value): return value
        case .uint: return nil
        case .text(let text):
            guard let (negative, magnitude) = Self.exactInteger(text) else { return nil }
            if negative {
                guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
                return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
            }
            return Int64(exactly: magnitude)
        }
    }

    /// The value as an `Int` when it is integral and in range; nil otherwise. Never rounds.
    public var intValue: Int? { int64Value.flatMap { Int(exactly: $0) } }

    /// The value as a `UInt64` when it is integral, not negative and in range; nil otherwise.
    public var uint64Value: UInt64? {
        switch storage {
        case .int(let value): return UInt64(exactly: value)
        case .uint(let value): return value
        case .text(let text):
            guard let (negative, magnitude) = Self.exactInteger(text) else { return nil }
            return negative && magnitude != 0 ? nil : magnitude
        }
    }

    /// The nearest `Double` (correctly rounded; `9007199254740993` gives `9007199254740992`).
    public var doubleValue: Double {
        switch storage {
        case .int(let value): return Double(value)
        case .uint(let value): return Double(value)
        case .text(let text): return Self.double(text)
        }
    }

    /// The value as a Foundation `Decimal` (rounded to its 38 significant digits), or nil when the
    /// magnitude is beyond `Decimal`'s range (about 1e-128 to 1e165).
    public var decimalValue: Decimal? {
        switch storage {
        case .int(let value): return Decimal(value)
        case .uint(let value): return Decimal(value)
        case .text(let text): return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        }
    }

    /// Whether the number is an integer (`1.0`, `1e3` and `12345678901234567890123` are).
    public var isIntegral: Bool {
        switch storage {
        case .int, .uint: return true
        case .text(let text): return Self.normalized(text).exponent >= 0
        }
    }

    /// The nearest `Double` of valid JSON number text, without a string conversion when the
    /// exact fast path applies.
    static func double(_ text: String) -> Double {
        var text = text
        let fast = text.withUTF8 { JSONParser.exactDouble($0) }
        if let fast { return fast }
        return Double(text) ?? .nan
    }
}

// MARK: - Literals and text

extension JSONNumber: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) {
        storage = .int(value)
    }
}

extension JSONNumber: ExpressibleByFloatLiteral {
    /// A float literal. Literals are finite; the impossible non-finite one would be zero.
    public init(floatLiteral value: Double) {
        self = JSONNumber(value) ?? JSONNumber(storage: .int(0))
    }
}

extension JSONNumber: CustomStringConvertible {
    /// The number's JSON text (``text``).
    public var description: String { text }
}
