import Testing
@testable import BirdWire

@Suite struct LeadSmokeTests {
    @Test func decodesDoubleEncodedHandshake() throws {
        let m = try WireMessage.decode(
            #"{"event":"bird:connection_established","data":"{\"connection_id\":\"123.456\",\"activity_timeout\":120}"}"#
        )
        #expect(m.event == "bird:connection_established")
        #expect(m.data?.object?["connection_id"] == "123.456")
        #expect(m.data?.object?["activity_timeout"]?.intValue == 120)
    }

    @Test func decodesObjectDataLazily() throws {
        let m = try WireMessage.decode(
            #" { "channel" : "c", "data" : {"a":[1,2,{"b":"x\"y"}]}, "event":"e", "extra": [1,{"z":null}], "user_id": "u1" } "#
        )
        #expect(m.channel == "c")
        #expect(m.memberId == "u1")
        #expect(m.data == .json(#"{"a":[1,2,{"b":"x\"y"}]}"#))
        #expect(m.data?.value["a"]?[2]?["b"] == "x\"y")
    }

    @Test func rejectsBadInput() {
        #expect(throws: WireDecodeError.notAnObject) { try WireMessage.decode("[1,2]") }
        #expect(throws: WireDecodeError.missingEvent) { try WireMessage.decode(#"{"data":1}"#) }
        #expect(throws: (any Error).self) { try WireMessage.decode(#"{"event":"x""#) }
        #expect(throws: (any Error).self) { try WireMessage.decode(String(repeating: "[", count: 100_000)) }
        #expect(throws: WireDecodeError.invalidField("channel")) {
            try WireMessage.decode(#"{"event":"x","channel":5}"#)
        }
    }

    @Test func roundTripsEncoding() throws {
        let m = WireMessage(event: "client-typing", channel: "private-a", value: ["on": true, "n": 3, "s": "é\n"])
        let back = try WireMessage.decode(m.encode())
        #expect(back.data?.value == ["on": true, "n": 3, "s": "é\n"])
        #expect(JSONValue.number(4009).description == "4009")
        #expect(try JSONValue(parsing: #"["\ud83d\ude00", 1.5e2, -0, true, null]"#) == ["😀", 150, 0, true, nil])
    }

    @Test func signsLikePusher() {
        let auth = Signature.auth(
            appKey: "278d425bdf160c739803", secret: "7ad3773142a6692b25b8", string: "1234.1234:private-foobar")
        #expect(auth == "278d425bdf160c739803:58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4")
        #expect(Signature.md5Hex(Array("".utf8)) == "d41d8cd98f00b204e9800998ecf8427e")
    }

    @Test func closeBands() {
        #expect(CloseCode.action(forServerClose: 4099, reachedConnected: true) == .fail)
        #expect(CloseCode.action(forServerClose: 4250, reachedConnected: true) == .reconnectNow)
        #expect(CloseCode.action(forServerClose: 4250, reachedConnected: false) == .backoff)
        #expect(CloseCode.action(forServerClose: 1006, reachedConnected: true) == .backoff)
        #expect(CloseCode.summary(4009) == "4009 unauthorized — refused, no retry")
    }

    @Test func redactsSignatures() {
        let text = #"{"event":"bird:subscribe","data":{"channel":"private-a","auth":"key:abcdef0123"}}"#
        let r = Redaction.redactWireText(text)
        #expect(!r.contains("abcdef0123"))
        #expect(r.contains("key:<redacted>"))
        let d = Redaction.redactWireText(#"{"data":"{\"auth\":\"key:deadbeef\",\"x\":1}"}"#)
        #expect(!d.contains("deadbeef"))
    }
}
