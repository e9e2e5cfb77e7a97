import BirdWire
import Testing

@testable import BirdSandbox

/// Per-connection inbound budgets on a manual clock: floods are closed with 1008 and no longer
/// read; a client inside its budget never notices it.
@Suite struct InboundBudgetTests {
    private func harness(_ budget: InboundBudget) -> EdgeHarness {
        var configuration = SandboxConfiguration(clientEvents: true)
        configuration.inboundBudget = budget
        return EdgeHarness(configuration)
    }

    @Test func anInvalidJSONFloodIsClosedWith1008AfterTheErrorBurst() {
        let h = harness(InboundBudget(errorBurst: 20, errorsPerSecond: 5))
        let (calm, calmId) = h.client()
        h.subscribe(calmId, "news")
        _ = calm.take()
        let (flooder, flooderId) = h.client()
        for _ in 0..<1000 { h.edge.receive(text: "{not json", from: flooderId) }
        #expect(flooder.messages(named: "bird:error").count == 20)  // one answer per token, then the close
        #expect(flooder.closed?.code == 1008)
        #expect(flooder.closed?.reason.hasPrefix("error flood") == true)
        #expect(flooder.paused)  // what it still sends is not read
        #expect(h.edge.connection(flooderId) == nil)
        // The calm connection is untouched and still served.
        h.send(calmId, "bird:ping")
        #expect(calm.take().map(\.event) == ["bird:pong"])
        #expect(calm.closed == nil)
    }

    @Test func errorsRefillOverTime() {
        let h = harness(InboundBudget(errorBurst: 10, errorsPerSecond: 5))
        let (link, id) = h.client()
        // 5 bad messages a second for a minute: exactly the sustained rate, never closed.
        for _ in 0..<60 {
            for _ in 0..<5 { h.edge.receive(text: "[]", from: id) }
            h.time.advance(1)
        }
        #expect(link.closed == nil)
        #expect(link.messages(named: "bird:error").count == 300)
        // Twice the rate: the burst runs out.
        for _ in 0..<3 {
            for _ in 0..<10 { h.edge.receive(text: "[]", from: id) }
            h.time.advance(1)
        }
        #expect(link.closed?.code == 1008)
    }

    @Test func tooManyValidMessagesAreAFloodToo() {
        let h = harness(InboundBudget(messageBurst: 100, messagesPerSecond: 50))
        let (link, id) = h.client()
        for _ in 0..<100 { h.send(id, "bird:ping") }
        #expect(link.closed == nil)
        #expect(link.messages(named: "bird:pong").count == 100)
        h.send(id, "bird:ping")
        #expect(link.closed?.code == 1008)
        #expect(link.closed?.reason == "message flood: over 100 messages, 50/s")
        #expect(link.messages(named: "bird:pong").count == 100)
    }

    @Test func bytesAndControlFramesCountToo() {
        let h = harness(InboundBudget(byteBurst: 1000, bytesPerSecond: 100))
        let (big, bigId) = h.client()
        h.edge.receiveBinary(from: bigId, size: 600)
        #expect(big.closed == nil)
        h.edge.receiveBinary(from: bigId, size: 600)
        #expect(big.closed?.code == 1008)
        #expect(big.closed?.reason.hasPrefix("message flood: over 1000 bytes") == true)

        let pings = harness(InboundBudget(messageBurst: 10, messagesPerSecond: 1))
        let (link, id) = pings.client()
        for _ in 0..<10 { pings.edge.receiveControlFrame(from: id, size: 4) }
        #expect(link.closed == nil)
        pings.edge.receiveControlFrame(from: id, size: 4)
        #expect(link.closed?.code == 1008)
    }

    @Test func theDefaultsLetACorrectClientThrough() {
        let h = EdgeHarness(dialect: .bird, clientEvents: true)
        let (link, id) = h.client()
        // Re-subscribing to 500 channels in one go, then pings and client events at their limit
        // for a minute.
        for i in 0..<500 { h.subscribe(id, "channel-\(i)") }
        h.joinPrivate(id, "private-room")
        for _ in 0..<60 {
            for n in 0..<10 { h.send(id, "client-move", channel: "private-room", data: ["n": .string("\(n)")]) }
            h.send(id, "bird:ping")
            h.time.advance(1)
        }
        #expect(link.closed == nil)
        #expect(link.messages(named: "bird:error").isEmpty)
    }

    @Test func aBudgetMustBeUsable() {
        var configuration = SandboxConfiguration()
        configuration.inboundBudget.errorsPerSecond = 0
        #expect(throws: SandboxError.self) { try Sandbox(configuration: configuration) }
        configuration.inboundBudget = InboundBudget(messageBurst: .infinity)
        #expect(throws: SandboxError.self) { try Sandbox(configuration: configuration) }
    }
}
