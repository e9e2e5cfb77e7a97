import Testing

@testable import BirdWire

/// The client's lazy envelope gives exactly what `WireMessage.decode` gives — the same message,
/// the same errors — and its payload, made over the frame, the same text, value and problem as
/// a payload made from the decoded `data`.
@Suite("Wire envelope (data left in the frame)")
struct WireEnvelopeTests {
    /// Frames covering every shape of `data`: plain and escaped strings, `\u` escapes and
    /// surrogate pairs, non-ASCII text, values, `null`, a repeated `data`, no `data`.
    static let frames: [String] = [
        #"{"event":"tick","channel":"bench","data":"{\"t\":1764552000.1234567,\"pad\":\"xxxx\"}"}"#,
        #"{"event":"e","channel":"c","data":"plain text"}"#,
        #"{"event":"e","channel":"c","data":""}"#,
        #"{"event":"e","data":"a\"b\\c\/d\be\ff\ng\rh\ti"}"#,
        #"{"event":"e","data":"caf\u00e9 \ud83d\ude00 \u0000 end"}"#,
        #"{"event":"e","data":"\u00e9\"x\"","channel":"c"}"#,
        #"{"event":"e","data":"naïve — ✓ \"quoted\" 😀"}"#,
        #"{"event":"e","data":{"a":[1,2.50,"x"],"b":null}}"#,
        #"{"event":"e","data":  [ 1 , 2 ]  ,"channel":"c"}"#,
        #"{"event":"e","data":12345678901234567890123}"#,
        #"{"event":"e","data":true}"#,
        #"{"event":"e","data":null}"#,
        #"{"event":"e","data":"first","data":{"second":2}}"#,
        #"{"event":"e","data":{"first":1},"data":null}"#,
        #"{"event":"e","channel":"c","user_id":"u1","offset":7,"data":"{}"}"#,
        #"{"event":"e","data":"not json {"}"#,
        #"{"event":"e","data":"1e400"}"#,
        #" { "data" : "x\"y" , "event" : "e" } "#,
        #"{"event":"e"}"#,
    ]

    /// Frames every decoder must refuse, each for its own reason.
    static let bad: [String] = [
        #"{"event":"e","data":"bad \x escape"}"#,
        #"{"event":"e","data":"lone \ud83d surrogate"}"#,
        #"{"event":"e","data":"short \u12"}"#,
        "{\"event\":\"e\",\"data\":\"control \u{01} char\"}",
        #"{"event":"e","data":"unterminated}"#,
        #"{"event":"e","data":"ends in escape\"#,
        #"{"event":"e","data":{"open":1}"#,
        #"{"data":"x"}"#,
        #"["event"]"#,
        #"{"event":"e","channel":5,"data":"x"}"#,
        #"{"event":"e","data":"x"} trailing"#,
    ]

    @Test("decodes every frame to the message WireMessage.decode gives", arguments: frames)
    func sameMessage(_ frame: String) throws {
        let expected = try WireMessage.decode(frame)
        let envelope = try WireEnvelope.decode(frame)
        #expect(envelope.message == expected)
        var head = expected
        head.data = nil
        #expect(envelope.head == head)
        #expect((envelope.data == nil) == (expected.data == nil))
    }

    @Test("its payload has the text, value, problem and form of the decoded data", arguments: frames)
    func samePayload(_ frame: String) throws {
        let expected = try WireMessage.decode(frame).data.map(EventPayload.init)
        let payload = try WireEnvelope.decode(frame).payload
        #expect(payload?.text == expected?.text)
        #expect(payload?.sentAsString == expected?.sentAsString)
        #expect(payload?.value == expected?.value)
        #expect(payload?.problem == expected?.problem)
        // Value first, text after (the text is made from the frame on its own, not from the parse).
        let second = try WireEnvelope.decode(frame).payload
        #expect(second?.value == expected?.value)
        #expect(second?.text == expected?.text)
    }

    @Test("an escaped string data reads back exactly with escapes at any two positions of up to 3 words")
    func escapesAtEveryOffset() throws {
        // The unescaping copies a word at a time up to each backslash: a backslash at every byte
        // offset of a word, and two in one word, must each end the copied run exactly there.
        let escapes = [#"\""#, #"\\"#, #"\n"#, #"\/"#, #"\t"#]
        let unescaped = ["\"", "\\", "\n", "/", "\t"]
        for length in 1...24 {
            for first in 0..<length {
                for second in first..<length {
                    var quoted = ""
                    var text = ""
                    for position in 0..<length {
                        if position == first || position == second {
                            let kind = (position + length) % escapes.count
                            quoted += escapes[kind]
                            text += unescaped[kind]
                        } else {
                            let letter = String(UnicodeScalar(UInt8(ascii: "a") + UInt8(position % 26)))
                            quoted += letter
                            text += letter
                        }
                    }
                    let frame = "{\"event\":\"e\",\"data\":\"" + quoted + "\"}"
                    let payload = try WireEnvelope.decode(frame).payload
                    #expect(payload?.text == text, "\(frame)")
                    // The value is parsed from the unescaped bytes on their own (not from the text).
                    let fresh = try WireEnvelope.decode(frame).payload
                    #expect(fresh?.value == EventPayload(text: text).value, "\(frame)")
                }
            }
        }
    }

    @Test("refuses what WireMessage.decode refuses, with the same error", arguments: bad)
    func sameErrors(_ frame: String) {
        let expected = Result { () throws(WireDecodeError) -> WireMessage in try WireMessage.decode(frame) }
        let got = Result { () throws(WireDecodeError) -> WireEnvelope in try WireEnvelope.decode(frame) }
        guard case .failure(let expectedError) = expected else {
            Issue.record("WireMessage.decode accepted \(frame)")
            return
        }
        guard case .failure(let error) = got else {
            Issue.record("WireEnvelope.decode accepted \(frame)")
            return
        }
        #expect(error == expectedError)
    }

    @Test("a span outside its frame reads as clamped bytes, never out of bounds")
    func clampedSpan() {
        let span = WireDataSpan(range: 5..<500, kind: .escapedString)
        // 5..<12: the quote before `b` to the end, escapes undone, nothing read past the frame.
        #expect(span.text(in: #"{"a":"b\"c"}"#) == #""b"c"}"#)
        let json = WireDataSpan(range: 400..<500, kind: .json)
        #expect(json.text(in: "{}") == "")
    }
}
