import Testing

@testable import BirdSandbox

/// The pusher dialect's form bodies, decoded with WebSocket's `PercentCoding` (one decoder for
/// request targets and bodies).
@Suite("Form bodies")
struct FormBodyTests {
    @Test("fields decode with + as a space, invalid escapes literal, the first of a repeated name wins")
    func fields() {
        let body = Array("socket_id=1.2&channel_name=private-a%2Bb+c&socket_id=9.9&flag&%zz=%4".utf8)
        #expect(
            FormBody.decode(body) == [
                "socket_id": "1.2", "channel_name": "private-a+b c", "flag": "", "%zz": "%4",
            ])
    }

    @Test("escapes decode to bytes first, so a character split between a raw byte and an escape survives")
    func bytesBeforeText() {
        // "é" is C3 A9: the C3 sent raw, the A9 escaped.
        #expect(FormBody.decode([UInt8(ascii: "n"), UInt8(ascii: "=")] + [0xC3] + Array("%A9".utf8)) == ["n": "é"])
        #expect(FormBody.unescape(Array("%e2%82%AC+%".utf8)) == "€ %")
    }
}
