import Testing
@testable import BirdWire

@Suite("JSONValue.memberRanges: an object's members with their values' exact byte ranges")
struct JSONMemberRangesTests {
    /// The text of each member's value, cut out by its range.
    func values(_ text: String) -> [String: String]? {
        guard let members = JSONValue.memberRanges(in: text) else { return nil }
        let bytes = Array(text.utf8)
        var out: [String: String] = [:]
        for m in members { out[m.key] = String(decoding: bytes[m.value], as: UTF8.self) }
        return out
    }

    @Test("values come back byte for byte: digits, spacing, nesting, escapes, non-ASCII")
    func exactText() throws {
        let line =
            #"{"ts":"2026-01-01T00:00:00.000Z", "data" : {"id":9007199254740993, "b":1,"a":[2.50,1e3]},"k\"ey":"中\n","n":null}"#
        let v = try #require(values(line))
        #expect(v["ts"] == #""2026-01-01T00:00:00.000Z""#)
        #expect(v["data"] == #"{"id":9007199254740993, "b":1,"a":[2.50,1e3]}"#)
        #expect(v["k\"ey"] == #""中\n""#)
        #expect(v["n"] == "null")
        #expect(JSONValue.memberRanges(in: line)?.map(\.key) == ["ts", "data", "k\"ey", "n"])
    }

    @Test("a repeated key is listed each time, in order")
    func repeated() {
        #expect(JSONValue.memberRanges(in: #"{"a":1,"b":2,"a":3}"#)?.map(\.key) == ["a", "b", "a"])
        #expect(JSONValue.memberRanges(in: " { } ")?.isEmpty == true)
    }

    @Test(
        "anything but exactly one valid object is nil",
        arguments: [
            "", "[]", "1", #""x""#, "{", #"{"a"}"#, #"{"a":}"#, #"{"a":1,}"#, #"{"a":1} x"#, #"{"a":1}{}"#,
            #"{"a":[1,}"#, #"{"a":01}"#, #"{"a":1e400}"#, #"{"a":"\ud800"}"#, #"{a:1}"#,
            "{\"a\":" + String(repeating: "[", count: 300) + String(repeating: "]", count: 300) + "}",
        ])
    func invalid(_ text: String) {
        #expect(JSONValue.memberRanges(in: text) == nil)
    }
}
