// The package's one JSON string quoting (`JSONWriter.quoted`, `appendQuoted`, `jsonQuoted`):
// the same text as a plain reference, written here scalar by scalar, for any string.

import Testing
import TestSupport

@testable import BirdWire

/// Strings with every escape at every kind of position: every control character, `"`, `\`, DEL,
/// U+2028/U+2029, two- to four-byte UTF-8, combining marks, `\r\n` (one `Character`), long plain
/// runs; lengths 0 to 200 scalars.
func quotingSamples(seed: UInt64, count: Int) -> [String] {
    var random = SplitMix64(seed: seed)
    var pieces: [String] = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }
    pieces += [
        "\"", "\\", "\u{7F}", "\u{2028}", "\u{2029}", "é", "ß", "€", "🐦", "e\u{301}", "\r\n", "/", "a", "Z", "0",
        " ", "{", "}", ":", ",", "\u{FEFF}", "\u{10FFFF}", "abcdefghijklmnopqrstuvwxyz", #"{"event":"tick"}"#,
    ]
    var samples = ["", "a", "\"", "\\", "\u{00}", "\u{1F}", pieces.joined(), String(pieces.joined().reversed())]
    for _ in 0..<count {
        let n = Int(random.next() % 60)
        samples.append((0..<n).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined())
    }
    return samples
}

@Suite("JSON string quoting")
struct JSONQuotingTests {
    @Test("quoted, appendQuoted and jsonQuoted give the reference's text for any string")
    func matchesReference() {
        for text in quotingSamples(seed: 2028, count: 3000) {
            let expected = referenceQuoted(text)
            #expect(JSONWriter.quoted(text) == expected, "\(text.debugDescription)")
            #expect(text.jsonQuoted == expected, "\(text.debugDescription)")
            var appended = "{\"k\":"
            JSONWriter.appendQuoted(text, to: &appended)
            #expect(appended == "{\"k\":" + expected, "\(text.debugDescription)")
            #expect(JSONValue.string(text).description == expected, "\(text.debugDescription)")
        }
    }

    @Test("quoted text parses back to the same string")
    func roundTrips() throws {
        for text in quotingSamples(seed: 2029, count: 500) {
            #expect(try JSONValue(parsing: JSONWriter.quoted(text)) == .string(text), "\(text.debugDescription)")
        }
    }

    @Test("the escapes, spelled out")
    func escapes() {
        #expect(JSONWriter.quoted("") == #""""#)
        #expect(JSONWriter.quoted("a\"b\\c") == #""a\"b\\c""#)
        #expect(JSONWriter.quoted("\n\r\t\u{08}\u{0C}") == #""\n\r\t\b\f""#)
        #expect(JSONWriter.quoted("\u{00}\u{01}\u{1B}\u{1F}") == #""\u0000\u0001\u001b\u001f""#)
        #expect(JSONWriter.quoted("\u{7F}\u{2028}\u{2029}é🐦/") == "\"\u{7F}\u{2028}\u{2029}é🐦/\"")
    }
}
