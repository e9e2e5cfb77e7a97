/// The keyed and unkeyed containers of ``JSONValueDecoder``.
struct ValueKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let decoder: ValueDecoder

    init(object: JSONObject, decoder: ValueDecoder) {
        switch decoder.options.keyDecodingStrategy {
        case .useDefaultKeys:
            self.object = object
        case .convertFromSnakeCase:
            var converted = JSONObject(capacity: object.count)
            for member in object {
                let key = KeyCase.camelCase(fromSnakeCase: member.key)
                if converted[key] == nil { converted[key] = member.value }
            }
            self.object = converted
        }
        self.decoder = decoder
    }

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    private func path(_ key: Key) -> [any CodingKey] { decoder.codingPath + [key] }

    private func member(_ key: Key) throws -> JSONValue {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key,
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "No value associated with key \(key.stringValue.debugDescription)."))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key).isNull }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.unboxBool(member(key), at: path(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decoder.unboxString(member(key), at: path(key))
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decoder.unboxDouble(member(key), at: path(key))
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try decoder.unboxFloat(member(key), at: path(key))
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unbox(member(key), as: type, at: path(key))
    }

    private func integer<T: FixedWidthInteger>(_ key: Key) throws -> T {
        try decoder.unboxInteger(member(key), as: T.self, at: path(key))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try ValueDecoder(value: member(key), codingPath: path(key), options: decoder.options).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: member(key), codingPath: path(key), options: decoder.options).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(
            value: object["super"] ?? .null, codingPath: decoder.codingPath + [AnyCodingKey.superKey],
            options: decoder.options)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: object[key.stringValue] ?? .null, codingPath: path(key), options: decoder.options)
    }
}

struct ValueUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let array: [JSONValue]
    let decoder: ValueDecoder
    private(set) var currentIndex = 0

    init(array: [JSONValue], decoder: ValueDecoder) {
        self.array = array
        self.decoder = decoder
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { array.count }
    var isAtEnd: Bool { currentIndex >= array.count }

    private var path: [any CodingKey] { decoder.codingPath + [AnyCodingKey(index: currentIndex)] }

    private func next<T>(_ type: T.Type) throws -> JSONValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: path, debugDescription: "Unkeyed container is at end."))
        }
        return array[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard try next(Any?.self).isNull else { return false }
        currentIndex += 1
        return true
    }

    /// Decodes the next element with `body` and moves on only when it succeeded.
    private mutating func take<T>(_ type: T.Type, _ body: (JSONValue, [any CodingKey]) throws -> T) throws -> T {
        let value = try body(try next(type), path)
        currentIndex += 1
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try take(type, decoder.unboxBool) }
    mutating func decode(_ type: String.Type) throws -> String { try take(type, decoder.unboxString) }
    mutating func decode(_ type: Double.Type) throws -> Double { try take(type, decoder.unboxDouble) }
    mutating func decode(_ type: Float.Type) throws -> Float { try take(type, decoder.unboxFloat) }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer() }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer() }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let decoder = self.decoder
        return try take(type) { value, path in try decoder.unbox(value, as: type, at: path) }
    }

    private mutating func integer<T: FixedWidthInteger>() throws -> T {
        let decoder = self.decoder
        return try take(T.self) { value, path in try decoder.unboxInteger(value, as: T.self, at: path) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let options = decoder.options
        return try take(KeyedDecodingContainer<NestedKey>.self) { value, path in
            try ValueDecoder(value: value, codingPath: path, options: options).container(keyedBy: type)
        }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let options = decoder.options
        return try take((any UnkeyedDecodingContainer).self) { value, path in
            try ValueDecoder(value: value, codingPath: path, options: options).unkeyedContainer()
        }
    }

    mutating func superDecoder() throws -> any Decoder {
        let options = decoder.options
        return try take((any Decoder).self) { value, path in
            ValueDecoder(value: value, codingPath: path, options: options)
        }
    }
}

/// Foundation's member-name conversions, for the snake-case strategies.
enum KeyCase {
    /// `order_id` → `orderId`; leading and trailing underscores are kept (`_id_` stays `_id_`).
    static func camelCase(fromSnakeCase key: String) -> String {
        guard !key.isEmpty, let first = key.firstIndex(where: { $0 != "_" }) else { return key }
        var last = key.index(before: key.endIndex)
        while last > first && key[last] == "_" { last = key.index(before: last) }
        let core = key[first...last]
        let words = core.split(separator: "_", omittingEmptySubsequences: true)
        guard words.count > 1 else { return key }
        let joined = String(words[0]) + words.dropFirst().map { $0.capitalized }.joined()
        return String(key[..<first]) + joined + String(key[key.index(after: last)...])
    }

    /// `orderId` → `order_id`, `myURLValue` → `my_url_value`; leading and trailing underscores kept.
    static func snakeCase(fromCamelCase key: String) -> String {
        guard !key.isEmpty else { return key }
        let characters = Array(key)
        var out = ""
        for (i, character) in characters.enumerated() {
            if character.isUppercase, i > 0 {
                let previous = characters[i - 1]
                let nextIsLower = i + 1 < characters.count && characters[i + 1].isLowercase
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) {
                    out += "_"
                }
            }
            out += character.lowercased()
        }
        return out
    }
}
