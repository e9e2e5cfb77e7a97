import BirdWire
import Testing

@testable import BirdSandbox

@Suite struct EdgeSubscriptionTests {
    @Test(arguments: Dialect.allCases)
    func publicSubscriptionSucceedsAndReceivesEvents(dialect: Dialect) {
        let h = EdgeHarness(dialect: dialect)
        let (link, id) = h.client()
        h.subscribe(id, "news")
        let messages = link.take()
        #expect(messages.map(\.event) == [h.wire(.subscriptionSucceeded)])
        #expect(messages.first?.channel == "news")
        #expect(h.edge.publish(channel: "news", event: "headline", data: .string("{\"t\":1}")) == 1)
        let event = link.take().first
        #expect(event?.event == "headline")
        #expect(event?.data?.value == ["t": 1])
    }

    @Test(arguments: Dialect.allCases)
    func privateSubscriptionChecksTheSignature(dialect: Dialect) throws {
        let h = EdgeHarness(dialect: dialect)
        let (link, id) = h.client()
        h.subscribe(id, "private-a", auth: "sandbox-key:" + String(repeating: "0", count: 64))
        h.subscribe(id, "private-b")
        h.subscribe(
            id, "private-c", auth: h.sign(Signature.privateChannelString(connectionId: "1.2", channel: "private-c")))
        let errors = link.take()
        #expect(errors.map(\.event) == Array(repeating: h.wire(.subscriptionError), count: 3))
        for error in errors {
            #expect(error.data?.value["status"] == 401)
            #expect(error.data?.value["type"] == "AuthError")
        }
        #expect(h.edge.channels.isEmpty)
        h.joinPrivate(id, "private-a")
        #expect(link.take().map(\.event) == [h.wire(.subscriptionSucceeded)])
    }

    @Test func aSignatureWithAnotherSecretIsRefused() {
        let h = EdgeHarness()
        let (link, id) = h.client()
        let auth = Signature.auth(appKey: "sandbox-key", secret: "other", string: "\(id):private-x")
        h.subscribe(id, "private-x", auth: auth)
        #expect(link.take().first?.data?.value["status"] == 401)
    }

    @Test func invalidChannelNamesAreRefused() {
        let h = EdgeHarness()
        let (link, id) = h.client()
        h.subscribe(id, String(repeating: "a", count: 201))
        h.subscribe(id, "bad name")
        h.subscribe(id, "#server-to-member-alice")
        #expect(link.take().map(\.event) == Array(repeating: "bird:subscription_error", count: 3))
        #expect(h.edge.channels.isEmpty)
    }

    @Test func unsubscribeLeavesSilently() {
        let h = EdgeHarness()
        let (link, id) = h.client()
        h.subscribe(id, "news")
        _ = link.take()
        h.send(id, "bird:unsubscribe", data: ["channel": "news"])
        #expect(link.take().isEmpty)
        #expect(h.edge.publish(channel: "news", event: "e", data: nil) == 0)
    }

    @Test func connectionCountIsSentOnJoinAndLeave() {
        let h = EdgeHarness(dialect: .pusher, connectionCount: true)
        let (a, aId) = h.client()
        let (_, bId) = h.client()
        h.subscribe(aId, "news")
        #expect(a.messages(named: "pusher_internal:subscription_count").last?.data?.value["subscription_count"] == 1)
        h.subscribe(bId, "news")
        #expect(a.messages(named: "pusher_internal:subscription_count").last?.data?.value["subscription_count"] == 2)
        h.send(bId, "pusher:unsubscribe", data: ["channel": "news"])
        #expect(a.messages(named: "pusher_internal:subscription_count").last?.data?.value["subscription_count"] == 1)
    }

    @Test func noConnectionCountUnlessEnabled() {
        let h = EdgeHarness()
        let (a, aId) = h.client()
        h.subscribe(aId, "news")
        #expect(a.messages(named: "bird_internal:connection_count").isEmpty)
    }
}

@Suite struct EdgePresenceTests {
    @Test(arguments: Dialect.allCases)
    func rosterRulesForJoinAndLeave(dialect: Dialect) throws {
        let h = EdgeHarness(dialect: dialect)
        let (a, aId) = h.client()
        let (b1, b1Id) = h.client()
        let (_, b2Id) = h.client()
        h.joinPresence(aId, "presence-room", member: "alice", info: ["name": "Alice"])
        let roster = try #require(a.take().first { $0.event == h.wire(.subscriptionSucceeded) })
        guard case .string? = roster.data else {
            Issue.record("presence data must be a JSON string")
            return
        }
        #expect(roster.data?.value["presence"]?["ids"] == ["alice"])
        #expect(roster.data?.value["presence"]?["hash"]?["alice"] == ["name": "Alice"])

        h.joinPresence(b1Id, "presence-room", member: "bob")
        let joined = b1.take()
        #expect(joined.map(\.event) == [h.wire(.subscriptionSucceeded)])  // not told about itself
        #expect(joined.first?.data?.value["presence"]?["count"] == 2)
        let added = a.take()
        #expect(added.map(\.event) == [h.wire(.memberAdded)])
        #expect(added.first?.data?.value[dialect.presenceIdKey] == "bob")

        h.joinPresence(b2Id, "presence-room", member: "bob")  // bob's second connection
        #expect(a.take().isEmpty)
        #expect(b1.take().isEmpty)

        h.send(b1Id, dialect.eventPrefix + "unsubscribe", data: ["channel": "presence-room"])
        #expect(a.take().isEmpty)  // bob still has a connection
        h.edge.connectionEnded(id: b2Id, code: 1006, reason: "")
        let removed = a.take()
        #expect(removed.map(\.event) == [h.wire(.memberRemoved)])
        #expect(removed.first?.data?.value[dialect.presenceIdKey] == "bob")
    }

    @Test func presenceNeedsTheExactSignedMemberData() {
        let h = EdgeHarness(dialect: .pusher)
        let (link, id) = h.client()
        let signed = "{\"user_id\": \"a\"}"
        let auth = h.sign(Signature.presenceChannelString(connectionId: id, channel: "presence-x", memberData: signed))
        h.subscribe(id, "presence-x", auth: auth, presenceData: "{\"user_id\":\"a\"}")
        #expect(link.take().first?.data?.value["status"] == 401)
        h.subscribe(id, "presence-x", auth: auth, presenceData: signed)
        #expect(link.take().first?.event == "pusher_internal:subscription_succeeded")
    }

    @Test func rosterIsCappedAt100Members() {
        let h = EdgeHarness()
        for i in 0..<100 {
            let (_, id) = h.client()
            h.joinPresence(id, "presence-big", member: "m\(i)")
        }
        let (link, id) = h.client()
        h.joinPresence(id, "presence-big", member: "late")
        let error = link.take().first
        #expect(error?.event == "bird:subscription_error")
        #expect(error?.data?.value["type"] == "LimitReached")
        #expect(h.edge.channels["presence-big"]?.roster.count == 100)
    }

    @Test func memberInfoOver2KBIsRefused() {
        let h = EdgeHarness()
        let (link, id) = h.client()
        h.joinPresence(id, "presence-x", member: "a", info: ["blob": .string(String(repeating: "x", count: 2100))])
        #expect(link.take().first?.data?.value["type"] == "LimitReached")
    }
}

@Suite struct EdgeClientEventTests {
    private func pair(_ dialect: Dialect = .bird, enabled: Bool = true) -> (
        EdgeHarness, FakeLink, String, FakeLink, String
    ) {
        let h = EdgeHarness(dialect: dialect, clientEvents: enabled)
        let (a, aId) = h.client()
        let (b, bId) = h.client()
        return (h, a, aId, b, bId)
    }

    @Test(arguments: Dialect.allCases)
    func passesToOthersNeverEchoedPresenceAddsTheSender(dialect: Dialect) {
        let (h, a, aId, b, bId) = pair(dialect)
        h.joinPresence(aId, "presence-room", member: "alice")
        h.joinPresence(bId, "presence-room", member: "bob")
        _ = a.take()
        _ = b.take()
        h.send(aId, "client-typing", channel: "presence-room", data: ["on": true])
        #expect(a.take().isEmpty)
        let got = b.take()
        #expect(got.map(\.event) == ["client-typing"])
        #expect(got.first?.memberId == "alice")
        #expect(got.first?.data?.value == ["on": true])
        #expect(b.sent.isEmpty)
    }

    @Test func privateChannelEventsCarryNoSender() {
        let (h, a, aId, b, bId) = pair()
        h.joinPrivate(aId, "private-x")
        h.joinPrivate(bId, "private-x")
        _ = a.take()
        _ = b.take()
        h.send(aId, "client-x", channel: "private-x", data: "hi")
        let got = b.take().first
        #expect(got?.event == "client-x")
        #expect(got?.memberId == nil)
    }

    @Test func disabledPublicUnsubscribedTooBigAllGet4301() {
        let (h0, a0, a0Id, _, _) = pair(enabled: false)
        h0.joinPrivate(a0Id, "private-x")
        _ = a0.take()
        h0.send(a0Id, "client-x", channel: "private-x", data: 1)
        #expect(a0.take().first?.data?.value["code"] == 4301)

        let (h, a, aId, b, bId) = pair()
        h.subscribe(aId, "news")
        h.subscribe(bId, "news")
        h.joinPrivate(bId, "private-y")
        _ = a.take()
        _ = b.take()
        h.send(aId, "client-x", channel: "news", data: 1)
        h.send(aId, "client-x", channel: "private-y", data: 1)
        h.send(aId, "client-x", data: 1)
        var errors = a.take()
        h.joinPrivate(aId, "private-y")
        _ = a.take()
        h.send(aId, "client-x", channel: "private-y", data: .string(String(repeating: "x", count: 10 * 1024 + 1)))
        h.send(aId, "client-" + String(repeating: "x", count: 200), channel: "private-y", data: 1)
        errors += a.take()
        #expect(errors.count == 5)
        #expect(errors.allSatisfy { $0.event == "bird:error" && $0.data?.value["code"] == 4301 })
        #expect(b.take().isEmpty)
    }

    @Test func moreThanTenPerSecondIsRateLimited() {
        let (h, a, aId, b, bId) = pair()
        h.joinPrivate(aId, "private-x")
        h.joinPrivate(bId, "private-x")
        _ = a.take()
        _ = b.take()
        for i in 0..<12 { h.send(aId, "client-n", channel: "private-x", data: .number(JSONNumber(i))) }
        #expect(b.take().count == 10)
        #expect(a.take().filter { $0.data?.value["code"] == 4301 }.count == 2)
        h.time.advance(1)
        h.send(aId, "client-n", channel: "private-x", data: 99)
        #expect(b.take().count == 1)
    }

    @Test func nonClientEventsFromClientsAreRejected() {
        let (h, a, aId, _, _) = pair()
        h.send(aId, "my-event", channel: "private-x", data: 1)
        #expect(a.take().first?.event == "bird:error")
    }
}

@Suite struct EdgeSigninTests {
    @Test(arguments: Dialect.allCases)
    func signinSucceedsAndMemberEventsReachEveryConnection(dialect: Dialect) {
        let h = EdgeHarness(dialect: dialect)
        let (a1, a1Id) = h.client()
        let (a2, a2Id) = h.client()
        let (other, _) = h.client()
        h.signin(a1Id, member: "alice")
        h.signin(a2Id, member: "alice")
        let success = a1.take().first
        #expect(success?.event == h.wire(.signinSuccess))
        #expect(
            JSONValue.fromPayload(success?.data?.value[dialect.signinDataKey]?.stringValue ?? "")[dialect.signinIdKey]
                == "alice")
        _ = a2.take()
        let channel = dialect.memberChannel(memberId: "alice")
        #expect(h.edge.publish(channel: channel, event: "notice", data: .string("{}")) == 2)
        #expect(a1.take().first?.channel == channel)
        #expect(a2.take().first?.event == "notice")
        #expect(other.take().isEmpty)
        #expect(h.edge.connectionInfos().first?.memberId == "alice")
    }

    @Test func aPresenceAuthCannotPassAsASignin() {
        let h = EdgeHarness()
        let (link, id) = h.client()
        let data = "{\"member_id\":\"alice\"}"
        let channelAuth = h.sign(Signature.presenceChannelString(connectionId: id, channel: "", memberData: data))
        h.send(id, "bird:signin", data: ["auth": .string(channelAuth), "member_data": .string(data)])
        let error = link.take().first
        #expect(error?.event == "bird:error")
        #expect(error?.data?.value["code"] == 4009)
        #expect(h.edge.connectionInfos().first?.memberId == nil)
        #expect(link.closed == nil)
    }

    @Test func terminateClosesEveryConnectionOfTheMemberWith4009() {
        let h = EdgeHarness(dialect: .pusher)
        let (a1, a1Id) = h.client()
        let (a2, a2Id) = h.client()
        let (b, bId) = h.client()
        h.signin(a1Id, member: "alice")
        h.signin(a2Id, member: "alice")
        h.signin(bId, member: "bob")
        #expect(h.edge.terminate(memberId: "alice") == 2)
        #expect(a1.closed?.code == 4009)
        #expect(a1.closed?.reason == "terminated by the app")
        #expect(a2.closed?.code == 4009)
        #expect(b.closed == nil)
    }
}
