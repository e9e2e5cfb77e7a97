import BirdWire
import Testing

@testable import BirdSandbox

/// Malformed and hostile messages: each gets an answer or is ignored; the edge and the other
/// connections carry on.
@Suite struct EdgeHostileInputTests {
    static let inputs: [String] = [
        "", " ", "null", "42", "\"str\"", "{}", "{\"event\":null}", "{\"event\":42}",
        "{\"event\":\"bird:subscribe\"}", "{\"event\":\"bird:subscribe\",\"data\":42}",
        "{\"event\":\"bird:subscribe\",\"data\":{\"channel\":42}}",
        "{\"event\":\"bird:subscribe\",\"data\":{\"channel\":\"private-x\",\"auth\":42}}",
        "{\"event\":\"bird:subscribe\",\"data\":{\"channel\":\"private-x\",\"auth\":\"sandbox-key\"}}",
        "{\"event\":\"bird:subscribe\",\"data\":{\"channel\":\"private-x\",\"auth\":\":\"}}",
        "{\"event\":\"bird:subscribe\",\"data\":{\"channel\":\"presence-x\",\"auth\":\"a:b\",\"member_data\":{\"member_id\":1}}}",
        "{\"event\":\"bird:subscribe\",\"data\":\"{\\\"channel\\\":\\\"presence-x\\\",\\\"member_data\\\":\\\"[]\\\"}\"}",
        "{\"event\":\"bird:unsubscribe\",\"data\":{\"channel\":\"never\"}}", "{\"event\":\"bird:unsubscribe\"}",
        "{\"event\":\"bird:signin\",\"data\":{\"auth\":1,\"member_data\":2}}",
        "{\"event\":\"bird:signin\",\"data\":[]}",
        "{\"event\":\"bird:connection_established\",\"data\":{}}", "{\"event\":\"bird_internal:member_added\"}",
        "{\"event\":\"bird:whatever\"}", "{\"event\":\"client-x\",\"channel\":\"\",\"data\":1}",
        "{\"event\":\"client-x\",\"channel\":[1]}", "{\"event\":\"bird:ping\",\"data\":1e999}",
        String(repeating: "[", count: 5000),
        "{\"event\":\"x\",\"data\":" + String(repeating: "{\"a\":", count: 400) + "1"
            + String(repeating: "}", count: 400) + "}",
        "{\"event\":\"bird:subscribe\",\"data\":{\"channel\":\"\(String(repeating: "é", count: 300))\"}}",
        "{\"event\":\"bird:subscribe\",\"data\":{\"channel\":\"a\\u0000b\"}}",
    ]

    @Test func nothingCrashesAndOthersAreUndisturbed() {
        let h = EdgeHarness(dialect: .bird, clientEvents: true, connectionCount: true)
        let (calm, calmId) = h.client()
        h.subscribe(calmId, "news")
        _ = calm.take()
        let (hostile, hostileId) = h.client()
        for input in Self.inputs {
            h.edge.receive(text: input, from: hostileId)
        }
        h.edge.receiveBinary(from: hostileId)
        #expect(hostile.closed == nil)
        #expect(hostile.messages.allSatisfy { $0.event.hasPrefix("bird") })
        #expect(calm.take().isEmpty)
        #expect(h.edge.publish(channel: "news", event: "still", data: nil) == 1)
        #expect(h.edge.channels.keys.sorted() == ["news"])
        // Messages for unknown or ended connections are ignored.
        h.edge.receive(text: "{\"event\":\"bird:ping\"}", from: "1.1")
        h.edge.connectionEnded(id: "1.1", code: 1006, reason: "")
    }

    @Test func theDialectsDoNotMix() {
        let h = EdgeHarness(dialect: .pusher)
        let (link, id) = h.client()
        h.send(id, "bird:subscribe", data: ["channel": "news"])
        let answer = link.take()
        #expect(answer.map(\.event) == ["pusher:error"])
        #expect(h.edge.channels.isEmpty)
    }
}
