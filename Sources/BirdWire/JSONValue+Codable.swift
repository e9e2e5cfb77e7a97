import Foundation

/// `JSONValue`, `JSONNumber` and `JSONObject` are `Codable` with any coder. With
/// ``JSONValueEncoder`` and ``JSONValueDecoder`` they pass through untouched; with other coders
/// (Foundation's `JSONEncoder`, property lists…) numbers are written exactly when the format can
/// hold them: `Int64`/`UInt64` when integral, else `Decimal` when it holds the digits, else the
/// nearest `Double`.
extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        if let ours = decoder as? ValueDecoder {
            self = ours.value
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(JSONNumber.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else if let object = try? container.decode(JSONObject.self) {
            self = .object(object)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let bool):
            var container = encoder.singleValueContainer()
            try container.encode(bool)
        case .number(let number):
            try number.encode(to: encoder)
        case .string(let string):
            var container = encoder.singleValueContainer()
            try container.encode(string)
        case .array(let array):
            var container = encoder.unkeyedContainer()
            for element in array { try container.encode(element) }
        case .object(let object):
            try object.encode(to: encoder)
        }
    }
}

extension JSONNumber: Codable {
    public init(from decoder: any Decoder) throws {
        if let ours = decoder as? ValueDecoder {
            guard case .number(let number) = ours.value else {
                throw DecodingError.typeMismatch(
                    JSONNumber.self,
                    .init(
                        codingPath: ours.codingPath,
                        debugDescription: "Expected a number but found \(ours.value.kindName)."))
            }
            self = number
            return
        }
        let container = try decoder.singleValueContainer()
        if let int = try? container.decode(Int64.self) {
            self = JSONNumber(int)
        } else if let uint = try? container.decode(UInt64.self) {
            self = JSONNumber(uint)
        } else if let decimal = try? container.decode(Decimal.self), let number = JSONNumber(decimal) {
            self = number
        } else if let double = try? container.decode(Double.self), let number = JSONNumber(double) {
            self = number
        } else {
            throw DecodingError.typeMismatch(
                JSONNumber.self, .init(codingPath: decoder.codingPath, debugDescription: "Expected a number."))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch storage {
        case .int(let value): try container.encode(value)
        case .uint(let value): try container.encode(value)
        case .text:
            if let int = int64Value {
                try container.encode(int)
            } else if let uint = uint64Value {
                try container.encode(uint)
            } else if let decimal = decimalValue, JSONNumber(decimal) == self {
                try container.encode(decimal)
            } else {
                try container.encode(doubleValue)
            }
        }
    }
}

extension JSONObject: Codable {
    public init(from decoder: any Decoder) throws {
        if let ours = decoder as? ValueDecoder {
            guard case .object(let object) = ours.value else {
                throw DecodingError.typeMismatch(
                    JSONObject.self,
                    .init(
                        codingPath: ours.codingPath,
                        debugDescription: "Expected an object but found \(ours.value.kindName)."))
            }
            self = object
            return
        }
        // Other decoders do not say in which order members came: sorted keys, deterministic.
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        var members: [String: JSONValue] = [:]
        for key in container.allKeys {
            members[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
        }
        self = JSONObject(members)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        for member in self {
            try container.encode(member.value, forKey: AnyCodingKey(member.key))
        }
    }
}

extension JSONValue {
    /// "a string", "an object"…: for error messages.
    var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a Boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A coding key for any member name or array position.
struct AnyCodingKey: CodingKey, Sendable {
    let stringValue: String
    let intValue: Int?

    init(_ string: String) {
        stringValue = string
        intValue = nil
    }

    init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    init?(stringValue: String) { self.init(stringValue) }

    init?(intValue: Int) { self.init(index: intValue) }

    static let superKey = AnyCodingKey("super")
}
