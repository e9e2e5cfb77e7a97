import BirdWire
import Testing

@testable import BirdSandbox

@Suite struct EdgeHandshakeTests {
    @Test(arguments: Dialect.allCases)
    func handshakeCarriesAFreshIdAndTheActivityTimeout(dialect: Dialect) throws {
        let harness = EdgeHarness(dialect: dialect)
        let (link, id) = harness.connect()
        let message = try #require(link.messages.first)
        #expect(message.event == ProtocolEvent.connectionEstablished.wireName(dialect))
        guard case .string(let text)? = message.data else {
            Issue.record("handshake data must be a JSON string")
            return
        }
        let data = JSONValue.fromPayload(text)
        let sent = try #require(data[dialect.connectionIdKey]?.stringValue)
        #expect(Limits.isValidConnectionId(sent))
        #expect(sent == id)
        #expect(data["activity_timeout"] == 120)
        let (_, other) = harness.connect()
        #expect(other != id)
    }

    @Test func unknownKeyIsClosedWith4001() {
        let harness = EdgeHarness()
        let (link, id) = harness.connect(key: "nope")
        #expect(id == nil)
        #expect(link.closed?.code == 4001)
        #expect(link.sent.isEmpty)
    }

    @Test(arguments: [("", 4008), ("abc", 4006), ("4", 4007), ("8", 4007)])
    func badProtocolVersionsAreRefused(version: String, code: Int) {
        let harness = EdgeHarness()
        let (link, id) = harness.connect(protocolVersion: version)
        #expect(id == nil)
        #expect(link.closed?.code == code)
    }

    @Test func missingProtocolIs4008AndVersions5To7Pass() {
        let harness = EdgeHarness()
        #expect(harness.connect(protocolVersion: nil).link.closed?.code == 4008)
        for version in ["5", "6", "7"] {
            let (link, id) = harness.connect(protocolVersion: version)
            #expect(id != nil)
            #expect(link.closed == nil)
        }
    }

    @Test func wrongPathIs4005() {
        let harness = EdgeHarness()
        let link = FakeLink()
        #expect(harness.edge.open(link: link, path: "/socket", query: [("protocol", "7")], remote: "x") == nil)
        #expect(link.closed?.code == 4005)
    }

    @Test func refusalClosesBeforeTheHandshakeUntilItExpires() {
        let harness = EdgeHarness()
        harness.edge.refuse(code: 4100, reason: "over capacity", seconds: 5)
        let (link, id) = harness.connect()
        #expect(id == nil)
        #expect(link.closed?.code == 4100)
        #expect(link.closed?.reason == "over capacity")
        #expect(link.sent.isEmpty)
        harness.time.advance(5)
        #expect(harness.connect().id != nil)
    }

    @Test func omittedHandshakeIdsAreCounted() throws {
        let harness = EdgeHarness()
        harness.edge.omitHandshakeIds = 1
        let first = harness.connect().link
        let data = try #require(first.messages.first?.data?.value)
        #expect(data["connection_id"] == nil)
        #expect(data["activity_timeout"] == 120)
        let second = harness.connect().link
        #expect(second.messages.first?.data?.value["connection_id"] != nil)
    }

    @Test func pingIsAnsweredWithPong() {
        let harness = EdgeHarness(dialect: .pusher)
        let (link, id) = harness.client()
        harness.send(id, "pusher:ping", data: "")
        #expect(link.take().map(\.event) == ["pusher:pong"])
    }

    @Test func invalidJSONAndBinaryGetAnErrorAndDoNotClose() {
        let harness = EdgeHarness()
        let (link, id) = harness.client()
        harness.edge.receive(text: "{not json", from: id)
        harness.edge.receiveBinary(from: id)
        harness.edge.receive(text: "[1,2]", from: id)
        let messages = link.take()
        #expect(messages.map(\.event) == ["bird:error", "bird:error", "bird:error"])
        #expect(link.closed == nil)
    }

    @Test func silentConnectionIsPingedThenClosedWith4201() {
        let harness = EdgeHarness()
        let (link, id) = harness.client()
        harness.time.advance(119)
        harness.edge.tick()
        #expect(link.sent.isEmpty)
        harness.time.advance(1)
        harness.edge.tick()
        #expect(link.take().map(\.event) == ["bird:ping"])
        harness.time.advance(29)
        harness.edge.tick()
        #expect(link.closed == nil)
        harness.time.advance(1)
        harness.edge.tick()
        #expect(link.closed?.code == 4201)
        #expect(harness.edge.connection(id) == nil)
    }

    @Test func anAnswerToThePingKeepsTheConnection() {
        let harness = EdgeHarness()
        let (link, id) = harness.client()
        harness.time.advance(120)
        harness.edge.tick()
        harness.send(id, "bird:pong", data: [:])
        harness.time.advance(40)
        harness.edge.tick()
        #expect(link.closed == nil)
    }

    @Test func requireSigninClosesUnsignedConnectionsWith4009() {
        let harness = EdgeHarness(dialect: .bird, requireSignin: 3)
        let (unsigned, _) = harness.client()
        let (signed, signedId) = harness.client()
        harness.signin(signedId, member: "alice")
        harness.time.advance(3)
        harness.edge.tick()
        #expect(unsigned.closed?.code == 4009)
        #expect(unsigned.closed?.reason == "sign-in required")
        #expect(signed.closed == nil)
    }

    @Test func endedConnectionsLeaveTheirChannels() {
        let harness = EdgeHarness()
        let (_, a) = harness.client()
        harness.subscribe(a, "news")
        #expect(harness.edge.channels["news"]?.subscriptionCount == 1)
        harness.edge.connectionEnded(id: a, code: 1000, reason: "")
        #expect(harness.edge.channels["news"] == nil)
        #expect(harness.edge.connectionInfos().isEmpty)
    }
}
