import Foundation
import Testing
@testable import BirdWire

/// The parser's fast paths (plain runs eight bytes at a time, one-pass unescaping, member names
/// matched on their bytes, numbers without a string conversion) give exactly what the careful
/// paths give, errors included.
@Suite("JSON parser fast paths")
struct FastPathTests {
    /// Parses `text` as one JSON value.
    func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try JSONValue(parsing: text)
    }

    @Test("escaped ASCII strings of every length round-trip, escapes at every position")
    func escapedStrings() throws {
        let pieces = ["a", "\"", "\\", "/", "\n", "\t", "\r", "\u{08}", "\u{0C}", "xxxxxxxx", "{\"k\":1}", " "]
        var generator = SystemRandomNumberGenerator()
        for length in 0..<80 {
            var text = ""
            for _ in 0..<length { text += pieces.randomElement(using: &generator)! }
            let quoted = JSONWriter.quoted(text)
            #expect(try parse(quoted) == .string(text), "\(quoted)")
            // Inside an envelope too (the double-encoded `data` of every message).
            let message = try WireMessage.decode("{\"event\":\"e\",\"data\":\(quoted)}")
            #expect(message.data == .string(text))
        }
    }

    @Test("non-ASCII text and \\u escapes next to simple escapes")
    func mixedEscapes() throws {
        #expect(try parse(#""caf\u00e9 \"x\" é\n""#) == .string("café \"x\" é\n"))
        #expect(try parse(#""é\"""#) == .string("é\""))
        #expect(try parse(#""\"é""#) == .string("\"é"))
        #expect(try parse(#""0123456789\u0041\"""#) == .string("0123456789A\""))
    }

    @Test("errors inside escaped strings keep their messages and offsets")
    func escapedErrors() {
        func error(_ text: String) -> JSONParseError? {
            do {
                _ = try parse(text)
                return nil
            } catch {
                return error
            }
        }
        #expect(error(#""ab\x""#) == JSONParseError(message: "invalid escape", offset: 5))
        #expect(error("\"a\\n\u{01}\"") == JSONParseError(message: "control character in a string", offset: 4))
        #expect(error(#""abcdefghij\"#) == JSONParseError(message: "unterminated escape", offset: 12))
        #expect(error(#""abc\nxyz"#) == JSONParseError(message: "unterminated string", offset: 9))
        #expect(error(#""abcdefghijklmnop"#) == JSONParseError(message: "unterminated string", offset: 17))
        #expect(error("\"abcdefgh\u{01}ijk\"") == JSONParseError(message: "control character in a string", offset: 9))
    }

    @Test("invalid UTF-8 after an escape is still rejected")
    func invalidUTF8AfterEscape() {
        let bytes: [UInt8] = [0x22, 0x5C, 0x6E, 0xC3, 0x28, 0x22]
        #expect(throws: JSONParseError.self) {
            try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in _ = try JSONValue(parsing: buffer) }
        }
    }

    @Test("plain runs stop at the first quote, backslash, control or non-ASCII byte")
    func plainRuns() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [0x61, 0x22, 0x5C, 0x1F, 0x20, 0x7F, 0x80, 0xC3, 0x00, 0x41, 0x7E, 0x21, 0x5B, 0x5D]
        for _ in 0..<2000 {
            let count = Int.random(in: 0..<40, using: &generator)
            let bytes = (0..<count).map { _ -> UInt8 in
                Int.random(in: 0..<4, using: &generator) == 0
                    ? alphabet.randomElement(using: &generator)! : UInt8.random(in: 0x20...0x7E, using: &generator)
            }
            let start = count == 0 ? 0 : Int.random(in: 0...count, using: &generator)
            let expected =
                bytes[start...].firstIndex { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 || $0 >= 0x80 } ?? count
            let got = bytes.withUnsafeBufferPointer { JSONParser.plainRunEnd($0, from: start) }
            #expect(got == expected, "\(bytes) from \(start)")
        }
    }

    @Test("numbers parsed without a string conversion equal Double(String)")
    func numbers() throws {
        var generator = SystemRandomNumberGenerator()
        var samples = [
            "0", "-0", "1", "-1", "0.5", "1764452929.123456", "1764452929.1234567", "9007199254740992",
            "9007199254740993", "0.1", "0.30000000000000004", "123456789012345678901234567890", "1e10", "-2.5E-3",
            "0.0000000000000000000001", "0.00000000000000000000001", "4.35", "100.0",
        ]
        for _ in 0..<3000 {
            let whole = UInt64.random(
                in: 0...UInt64(1) << UInt64.random(in: 1...62, using: &generator), using: &generator)
            let fraction = String(UInt64.random(in: 0...999_999_999, using: &generator)).prefix(
                Int.random(in: 0...9, using: &generator))
            samples.append(
                (Bool.random(using: &generator) ? "-" : "") + "\(whole)" + (fraction.isEmpty ? "" : ".\(fraction)"))
        }
        for text in samples {
            let expected = try #require(Double(text))
            let value = try parse(text)
            #expect(value.doubleValue?.bitPattern == expected.bitPattern, "\(text)")
        }
    }

    @Test("envelope member names match however they are spelled")
    func memberNames() throws {
        let escaped = try WireMessage.decode(
            #"{"\u0065vent":"e","ch\u0061nnel":"c","d\u0061ta":"x","us\u0065r_id":"u"}"#)
        #expect(escaped == WireMessage(event: "e", channel: "c", data: .string("x"), memberId: "u"))
        let other = try WireMessage.decode(#"{"event":"e","events":"no","chan":1,"datum":{},"é":2,"member_id":"m"}"#)
        #expect(other == WireMessage(event: "e", memberId: "m"))
        #expect(throws: WireDecodeError.missingEvent) { try WireMessage.decode(#"{"Event":"e"}"#) }
    }
}
