import Testing
@testable import BirdWire

@Suite("JSONValue parsing and writing")
struct JSONValueTests {
    @Test("parses every kind of value")
    func parsesKinds() throws {
        let value = try JSONValue(parsing: #" { "a": [1, 2.5, -3e2, true, false, null], "b": "x\ny", "c": {} } "#)
        #expect(value["a"]?[0] == .number(1))
        #expect(value["a"]?[1]?.doubleValue == 2.5)
        #expect(value["a"]?[2]?.doubleValue == -300)
        #expect(value["a"]?[3] == .bool(true))
        #expect(value["a"]?[5] == .null)
        #expect(value["b"]?.stringValue == "x\ny")
        #expect(value["c"] == .object([:]))
    }

    @Test("decodes escapes and surrogate pairs")
    func escapes() throws {
        let value = try JSONValue(parsing: #""\u00e9\ud83d\ude00\"\\\/\t""#)
        #expect(value.stringValue == "é😀\"\\/\t")
    }

    @Test(
        "rejects malformed input with an offset",
        arguments: [
            "", "{", "[1,]", "{\"a\" 1}", "tru", "01", "1.", "\"\\x\"", "\"\\ud800\"", "[1] 2", "{\"a\":1,}",
            "\"a\u{01}\"", "nul", "-", "1e",
        ])
    func rejects(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
    }

    @Test("rejects invalid UTF-8 inside strings, typed")
    func invalidUTF8() {
        let bytes: [UInt8] = [0x22, 0xC3, 0x28, 0x22]
        let error = #expect(throws: JSONParseError.self) {
            try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in _ = try JSONValue(parsing: buffer) }
        }
        #expect(error?.kind == .invalidUTF8)
    }

    @Test(
        "lone and mismatched surrogates are typed errors", arguments: [#""\ud800""#, #""\udc00x""#, #""\ud800\u0041""#])
    func surrogates(_ text: String) {
        let error = #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
        #expect(error?.kind == .invalidUnicodeEscape)
    }

    @Test("limits nesting depth instead of exhausting the stack, typed")
    func depthLimit() throws {
        let ok = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(throws: Never.self) { try JSONValue(parsing: ok) }
        for (open, close) in [("[", "]"), ("{\"a\":", "}")] {
            let deep = String(repeating: open, count: 100_000) + "1" + String(repeating: close, count: 100_000)
            let error = #expect(throws: JSONParseError.self) { try JSONValue(parsing: deep) }
            #expect(error?.kind == .tooDeep)
            #expect(error?.message.contains("nesting") == true)
        }
    }

    @Test("10 MiB payloads parse (arrays, objects, strings, numbers) or fail with a typed reason")
    func largePayloads() throws {
        let mib10 = 10 << 20
        let numbers = "[" + Array(repeating: "12345.678", count: mib10 / 10).joined(separator: ",") + "]"
        #expect(try JSONValue(parsing: numbers).arrayValue?.count == mib10 / 10)
        let keys = (0..<(mib10 / 16)).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let object = try JSONValue(parsing: "{\(keys)}")
        #expect(object.objectValue?.count == mib10 / 16)
        #expect(object["k\(mib10 / 16 - 1)"]?.intValue == mib10 / 16 - 1)
        let string = "\"" + String(repeating: "ab\\n", count: mib10 / 4) + "\""
        #expect(try JSONValue(parsing: string).stringValue?.utf8.count == mib10 / 4 * 3)
        let digits = "0." + String(repeating: "7", count: mib10)
        #expect(try JSONValue(parsing: digits).numberValue?.text.utf8.count == mib10 + 2)
        let broken = String(numbers.dropLast())
        let error = #expect(throws: JSONParseError.self) { try JSONValue(parsing: broken) }
        #expect(error?.kind == .syntax)
    }

    @Test("description is compact JSON that parses back to the same value")
    func roundTrip() throws {
        let value: JSONValue = ["z": [1, "two", nil, true], "a": ["nested": 4009], "s": "quote\"\\\u{01}"]
        let text = value.description
        #expect(!text.contains(" "))
        #expect(try JSONValue(parsing: text) == value)
        #expect(try JSONValue(parsing: value.prettyDescription) == value)
        #expect(JSONValue.number(4009).description == "4009")
        #expect(value.description == #"{"z":[1,"two",null,true],"a":{"nested":4009},"s":"quote\"\\\u0001"}"#)
    }

    @Test("literals and optional coalescing compile and mean what they say")
    func literals() {
        let data: JSONValue? = nil
        let fallback = data ?? ""
        #expect(fallback == .string(""))
        let object: JSONValue = ["on": true]
        #expect(object["on"]?.boolValue == true)
    }

    @Test("fromPayload keeps non-JSON text as a string")
    func fromPayload() {
        #expect(JSONValue.fromPayload("{\"a\":1}")["a"]?.intValue == 1)
        #expect(JSONValue.fromPayload("hello") == .string("hello"))
    }
}
