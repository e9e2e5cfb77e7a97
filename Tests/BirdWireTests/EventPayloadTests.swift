import Foundation
import Testing
@testable import BirdWire

@Suite("EventPayload: the exact text, its value, and why not")
struct EventPayloadTests {
    @Test("a string data is unwrapped; any other data is kept verbatim")
    func texts() throws {
        let doubleEncoded = try WireMessage.decode(#"{"event":"e","data":"{\"id\":9007199254740993,\"b\":1,\"a\":2}"}"#)
        let payload = EventPayload(try #require(doubleEncoded.data))
        #expect(payload.text == #"{"id":9007199254740993,"b":1,"a":2}"#)
        #expect(payload.sentAsString)
        #expect(payload.value["id"]?.int64Value == 9_007_199_254_740_993)
        #expect(payload.value.description == payload.text)
        #expect(payload.problem == nil)

        let raw = try WireMessage.decode(#"{"event":"e","data":{ "b" : 1.50, "a" : [ 1e3 ] }}"#)
        let verbatim = EventPayload(try #require(raw.data))
        #expect(verbatim.text == #"{ "b" : 1.50, "a" : [ 1e3 ] }"#)
        #expect(!verbatim.sentAsString)
        #expect(verbatim.value.description == #"{"b":1.50,"a":[1e3]}"#)
    }

    @Test(
        "text that is not JSON stays a string, with the reason typed",
        arguments: [
            ("hello", "notJSON"), ("1e400", "numberOutOfRange"), (#"{"a":"\ud800"}"#, "notJSON"),
            (String(repeating: "[", count: 300) + String(repeating: "]", count: 300), "tooDeep"),
        ])
    func problems(_ text: String, _ kind: String) {
        let payload = EventPayload(text: text)
        #expect(payload.value == .string(text))
        #expect(payload.text == text)
        switch (payload.problem, kind) {
        case (.notJSON?, "notJSON"), (.numberOutOfRange?, "numberOutOfRange"), (.tooDeep?, "tooDeep"): break
        default: Issue.record("\(String(describing: payload.problem)) is not \(kind)")
        }
        #expect(payload.problem?.parseError != nil)
    }

    @Test("a payload built from a value has its compact text")
    func built() {
        let payload = EventPayload(value: ["member_id": "m", "member_info": ["n": 1]])
        #expect(payload.text == #"{"member_id":"m","member_info":{"n":1}}"#)
        #expect(payload.problem == nil)
        #expect(payload == EventPayload(text: payload.text))
    }

    @Test("payloads over the parse limit are not parsed")
    func tooLarge() {
        let text = "\"" + String(repeating: "x", count: EventPayload.maxParsedBytes) + "\""
        let payload = EventPayload(text: text)
        #expect(payload.problem == .tooLarge(bytes: text.utf8.count, limit: EventPayload.maxParsedBytes))
        #expect(payload.value == .string(text))
    }

    @Test("the parse is shared by copies and safe to read from many threads at once")
    func concurrentReads() async {
        for round in 0..<50 {
            let payload = EventPayload(text: #"{"round":\#(round),"list":[1,2,3]}"#)
            let values = await withTaskGroup(of: JSONValue.self) { group in
                for _ in 0..<8 { group.addTask { payload.value } }
                var all: [JSONValue] = []
                for await value in group { all.append(value) }
                return all
            }
            #expect(values.count == 8)
            #expect(values.allSatisfy { $0["round"]?.intValue == round })
        }
    }
}
