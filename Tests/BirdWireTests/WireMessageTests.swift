import Testing
@testable import BirdWire

@Suite("WireMessage envelope")
struct WireMessageTests {
    @Test("decodes string data (double encoding) and parses it on demand")
    func stringData() throws {
        let message = try WireMessage.decode(
            #"{"event":"bird:connection_established","data":"{\"connection_id\":\"1.2\",\"activity_timeout\":120}"}"#)
        #expect(message.event == "bird:connection_established")
        #expect(message.channel == nil)
        #expect(message.data?.object?["connection_id"]?.stringValue == "1.2")
        #expect(message.data?.value["activity_timeout"]?.intValue == 120)
    }

    @Test("decodes object data the same way")
    func objectData() throws {
        let message = try WireMessage.decode(#"{"channel":"c","data":{"x":[1,2]},"event":"e"}"#)
        #expect(message.channel == "c")
        #expect(message.data?.value["x"]?[1]?.intValue == 2)
        if case .json = message.data {} else { Issue.record("object data should be .json") }
    }

    @Test("a string that is not JSON stays a string; null data is absent")
    func rawStrings() throws {
        let message = try WireMessage.decode(#"{"event":"e","channel":"c","data":"plain text"}"#)
        #expect(message.data?.value == .string("plain text"))
        let none = try WireMessage.decode(#"{"event":"e","data":null}"#)
        #expect(none.data == nil)
    }

    @Test("reads the member id under either dialect's key")
    func memberId() throws {
        #expect(
            try WireMessage.decode(#"{"event":"client-x","channel":"presence-a","member_id":"m1"}"#).memberId == "m1")
        #expect(try WireMessage.decode(#"{"event":"client-x","channel":"presence-a","user_id":7}"#).memberId == "7")
    }

    @Test("typed errors for bad messages")
    func errors() {
        #expect(throws: WireDecodeError.self) { try WireMessage.decode("not json") }
        do {
            _ = try WireMessage.decode("[1,2]")
            Issue.record("expected an error")
        } catch {
            #expect(error == .notAnObject)
        }
        do {
            _ = try WireMessage.decode(#"{"data":{}}"#)
            Issue.record("expected an error")
        } catch {
            #expect(error == .missingEvent)
        }
        do {
            _ = try WireMessage.decode(#"{"event":"e","channel":5}"#)
            Issue.record("expected an error")
        } catch {
            #expect(error == .invalidField("channel"))
        }
        do {
            _ = try WireMessage.decode(#"{"event":1}"#)
            Issue.record("expected an error")
        } catch {
            #expect(error == .missingEvent)
        }
    }

    @Test("encode produces a message that decodes to the same fields")
    func encodeRoundTrip() throws {
        let original = WireMessage(event: "client-typing", channel: "private-a", value: ["on": true])
        let decoded = try WireMessage.decode(original.encode())
        #expect(decoded.event == "client-typing")
        #expect(decoded.channel == "private-a")
        #expect(decoded.data?.value == ["on": true])
        let doubled = WireMessage(event: "e", value: ["k": 1], doubleEncoded: true)
        if case .string(let s)? = try WireMessage.decode(doubled.encode()).data {
            #expect(try JSONValue(parsing: s)["k"]?.intValue == 1)
        } else {
            Issue.record("double-encoded data should decode as a string")
        }
    }

    @Test("continuity members: read when well-formed, ignored when not, written back as sent")
    func continuity() throws {
        let event = try WireMessage.decode(#"{"event":"n","channel":"c","data":"{}","offset":17}"#)
        #expect(event.offset == 17)
        #expect(event.continuity == nil)
        let answer = try WireMessage.decode(
            #"{"event":"bird_internal:subscription_succeeded","channel":"c","data":"{}","offset":40,"epoch":"e1","recovered":false,"missed":25}"#
        )
        #expect(answer.offset == 40)
        #expect(answer.continuity == WireContinuity(epoch: "e1", recovered: false, missed: 25))
        #expect(try WireMessage.decode(answer.encode()) == answer)
        for bad in [#""offset":-1"#, #""offset":1.5"#, #""offset":"3""#, #""offset":99999999999999999999"#] {
            #expect(try WireMessage.decode(#"{"event":"n",\#(bad)}"#).offset == nil, "\(bad)")
        }
        #expect(try WireMessage.decode(#"{"event":"n","recovered":true,"missed":3}"#).continuity == nil)
    }
}
