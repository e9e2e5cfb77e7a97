/// The keyed and unkeyed containers of ``JSONValueEncoder``.
struct ValueKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ValueEncoder
    let node: EncodedNode
    let codingPath: [any CodingKey]

    private func put(_ value: JSONValue, _ key: Key) {
        node.set(encoder.name(key), EncodedNode(.value(value)))
    }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        put(try encoder.number(value, at: codingPath + [key]), key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        put(try encoder.number(value, at: codingPath + [key]), key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(JSONValue(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(JSONValue(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(JSONValue(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(JSONValue(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(JSONValue(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(JSONValue(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(JSONValue(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(JSONValue(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(JSONValue(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(JSONValue(value), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        node.set(encoder.name(key), try encoder.box(value, at: codingPath + [key]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = EncodedNode(.object(keys: [], nodes: [:]))
        node.set(encoder.name(key), child)
        return KeyedEncodingContainer(
            ValueKeyedEncodingContainer<NestedKey>(encoder: encoder, node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = EncodedNode(.array([]))
        node.set(encoder.name(key), child)
        return ValueUnkeyedEncodingContainer(encoder: encoder, node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        let child = EncodedNode()
        node.set(AnyCodingKey.superKey.stringValue, child)
        return ValueEncoder(codingPath: codingPath + [AnyCodingKey.superKey], options: encoder.options, node: child)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = EncodedNode()
        node.set(encoder.name(key), child)
        return ValueEncoder(codingPath: codingPath + [key], options: encoder.options, node: child)
    }
}

struct ValueUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let encoder: ValueEncoder
    let node: EncodedNode
    let codingPath: [any CodingKey]

    var count: Int { node.count }

    private var nextPath: [any CodingKey] { codingPath + [AnyCodingKey(index: count)] }

    private func put(_ value: JSONValue) {
        node.append(EncodedNode(.value(value)))
    }

    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { put(try encoder.number(value, at: nextPath)) }
    mutating func encode(_ value: Float) throws { put(try encoder.number(value, at: nextPath)) }
    mutating func encode(_ value: Int) throws { put(JSONValue(value)) }
    mutating func encode(_ value: Int8) throws { put(JSONValue(value)) }
    mutating func encode(_ value: Int16) throws { put(JSONValue(value)) }
    mutating func encode(_ value: Int32) throws { put(JSONValue(value)) }
    mutating func encode(_ value: Int64) throws { put(JSONValue(value)) }
    mutating func encode(_ value: UInt) throws { put(JSONValue(value)) }
    mutating func encode(_ value: UInt8) throws { put(JSONValue(value)) }
    mutating func encode(_ value: UInt16) throws { put(JSONValue(value)) }
    mutating func encode(_ value: UInt32) throws { put(JSONValue(value)) }
    mutating func encode(_ value: UInt64) throws { put(JSONValue(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        node.append(try encoder.box(value, at: nextPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let path = nextPath
        let child = EncodedNode(.object(keys: [], nodes: [:]))
        node.append(child)
        return KeyedEncodingContainer(
            ValueKeyedEncodingContainer<NestedKey>(encoder: encoder, node: child, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        let child = EncodedNode(.array([]))
        node.append(child)
        return ValueUnkeyedEncodingContainer(encoder: encoder, node: child, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let path = nextPath
        let child = EncodedNode()
        node.append(child)
        return ValueEncoder(codingPath: path, options: encoder.options, node: child)
    }
}
