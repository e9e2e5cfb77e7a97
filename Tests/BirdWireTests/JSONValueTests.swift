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

    @Test("rejects invalid UTF-8 inside strings")
    func invalidUTF8() {
        let bytes: [UInt8] = [0x22, 0xC3, 0x28, 0x22]
        #expect(throws: JSONParseError.self) {
            try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in _ = try JSONValue(parsing: buffer) }
        }
    }

    @Test("limits nesting depth instead of exhausting the stack")
    func depthLimit() throws {
        let ok = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(throws: Never.self) { try JSONValue(parsing: ok) }
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = #expect(throws: JSONParseError.self) { try JSONValue(parsing: deep) }
        #expect(error?.message.contains("nesting") == true)
    }

    @Test("description is compact JSON that parses back to the same value")
    func roundTrip() throws {
        let value: JSONValue = ["z": [1, "two", nil, true], "a": ["nested": 4009], "s": "quote\"\\\u{01}"]
        let text = value.description
        #expect(!text.contains(" "))
        #expect(try JSONValue(parsing: text) == value)
        #expect(try JSONValue(parsing: value.prettyDescription) == value)
        #expect(JSONValue.number(4009).description == "4009")
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
