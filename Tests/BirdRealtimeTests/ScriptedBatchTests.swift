import BirdRealtime
import BirdRealtimeTestSupport
import Foundation
import Testing

/// The scripted transport reports reads the way the real one does (one call per read), so the
/// client's batch path is exercised without sockets.
@Suite("Batched reads through the scripted transport")
struct ScriptedBatchTests {
    @Test("a read of many messages: events, a malformed message and an error keep wire order")
    func batchOrder() async throws {
        let h = Harness()
        let socket = try await h.connect()
        h.bird.subscribe("orders")
        await h.settle()
        try await h.succeed("orders")
        var texts: [String] = []
        for i in 0..<5 {
            texts.append(#"{"event":"tick","channel":"orders","data":"{\"i\":\#(i)}"}"#)
            if i == 2 { texts.append("not json") }
        }
        texts.append(#"{"event":"bird:error","data":{"code":4301,"message":"late"}}"#)
        socket.receive(batch: texts)
        await h.settle()

        #expect(h.recorder.events("tick", on: "orders").map { $0.payload?.text } == (0..<5).map { #"{"i":\#($0)}"# })
        let inbound = h.recorder.wire.filter { $0.0 == .inbound }.map(\.1).suffix(texts.count)
        #expect(Array(inbound) == texts, "the wire tap sees the read's messages in order")
        #expect(h.recorder.errors.count == 2, "the malformed message and the error both reach onError")
        #expect(h.recorder.errors.last?.code == 4301)
    }

    @Test("an empty read delivers nothing and changes nothing")
    func emptyBatch() async throws {
        let h = Harness()
        let socket = try await h.connect()
        let before = h.recorder.wire.count
        socket.deliver(batch: [])
        await h.settle()
        #expect(h.recorder.wire.count == before)
        #expect(h.recorder.states.last == .connected)
    }
}
