import Testing
@testable import BirdWire

@Suite("Dialects, events and channel kinds")
struct DialectTests {
    @Test("bird names")
    func bird() {
        let d = Dialect.bird
        #expect(d.connectionIdKey == "connection_id")
        #expect(d.presenceDataKey == "member_data")
        #expect(d.presenceIdKey == "member_id")
        #expect(d.signinDataKey == "member_data")
        #expect(d.signinIdKey == "member_id")
        #expect(d.memberChannel(memberId: "m") == "#server-to-member-m")
        #expect(d.connectionCountKey == "connection_count")
        #expect(d.defaultHost(region: "us1") == "ws-us1.realtime.bird.com")
        #expect(ProtocolEvent.subscriptionSucceeded.wireName(d) == "bird_internal:subscription_succeeded")
        #expect(ProtocolEvent.connectionCount.wireName(d) == "bird_internal:connection_count")
        #expect(ProtocolEvent.ping.wireName(d) == "bird:ping")
    }

    @Test("pusher names")
    func pusher() {
        let d = Dialect.pusher
        #expect(d.connectionIdKey == "socket_id")
        #expect(d.presenceDataKey == "channel_data")
        #expect(d.presenceIdKey == "user_id")
        #expect(d.signinDataKey == "user_data")
        #expect(d.signinIdKey == "id")
        #expect(d.memberChannel(memberId: "u") == "#server-to-user-u")
        #expect(d.defaultHost(region: "mt1") == "ws-mt1.pusher.com")
        #expect(ProtocolEvent.connectionCount.wireName(d) == "pusher_internal:subscription_count")
        #expect(ProtocolEvent(wireName: "pusher:connection_established", dialect: d) == .connectionEstablished)
        #expect(ProtocolEvent(wireName: "bird:connection_established", dialect: d) == nil)
    }

    @Test("app names are always bird's")
    func appNames() {
        #expect(ProtocolEvent.subscriptionSucceeded.appName == BirdProtocol.Event.subscriptionSucceeded)
        #expect(ProtocolEvent.memberAdded.appName == BirdProtocol.Event.memberAdded)
        #expect(ProtocolEvent.connectionCount.appName == BirdProtocol.Event.connectionCount)
    }

    @Test("every protocol event round-trips through its wire name", arguments: Dialect.allCases)
    func roundTrip(_ dialect: Dialect) {
        for event in ProtocolEvent.allCases {
            #expect(ProtocolEvent(wireName: event.wireName(dialect), dialect: dialect) == event)
            #expect(ProtocolEvent.isReserved(event.wireName(dialect), dialect: dialect))
        }
        #expect(!ProtocolEvent.isReserved("client-typing", dialect: dialect))
    }

    @Test("channel kinds by prefix")
    func kinds() {
        #expect(ChannelKind(channelName: "orders") == .public)
        #expect(ChannelKind(channelName: "private-a") == .private)
        #expect(ChannelKind(channelName: "presence-a") == .presence)
        #expect(ChannelKind(channelName: "#server-to-member-1") == .member)
        #expect(ChannelKind.private.requiresAuthorization && ChannelKind.presence.allowsClientEvents)
        #expect(!ChannelKind.public.allowsClientEvents)
    }

    @Test("limits")
    func limits() {
        #expect(Limits.isValidChannelName("a-b_c=d@e,f.g;h"))
        #expect(!Limits.isValidChannelName(""))
        #expect(!Limits.isValidChannelName("has space"))
        #expect(!Limits.isValidChannelName(String(repeating: "a", count: 201)))
        #expect(Limits.isValidConnectionId("123.456"))
        #expect(!Limits.isValidConnectionId("123"))
        #expect(!Limits.isValidConnectionId("a.1"))
    }
}
