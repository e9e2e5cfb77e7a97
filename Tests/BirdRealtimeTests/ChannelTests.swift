import BirdRealtime
import BirdRealtimeTestSupport
import Foundation
import Testing

@Suite("Channels: subscribe, re-subscribe, unsubscribe, timeouts")
struct ChannelTests {
    @Test("subscribe returns the channel type by prefix; the same name gives the same object")
    func types() async throws {
        let h = Harness()
        let orders = h.bird.subscribe("orders")
        let priv = h.bird.subscribe("private-a")
        let room = h.bird.subscribe("presence-r")
        #expect(!(orders is PrivateChannel))
        #expect(priv is PrivateChannel && !(priv is PresenceChannel))
        #expect(room is PresenceChannel)
        #expect(h.bird.subscribe("orders") === orders)
        #expect(h.bird.channel(named: "private-a") === priv)
        #expect(h.bird.channels.map(\.name) == ["orders", "presence-r", "private-a"])
        h.bird.unsubscribe("orders")
        #expect(h.bird.channel(named: "orders") == nil)
    }

    @Test("public channels subscribe after connected; succeeded sets subscribed and fires the event")
    func publicSubscribe() async throws {
        let h = Harness()
        let orders = h.bird.subscribe("orders")
        let fired = TestBox(0)
        orders.bind(BirdProtocol.Event.subscriptionSucceeded) { _ in fired.mutate { $0 += 1 } }
        await h.settle()
        #expect(try h.socket.sent.isEmpty)
        let socket = try await h.connect()
        let subscribe = try #require(socket.sent(event: "bird:subscribe").first)
        #expect(subscribe.data?.value["channel"]?.stringValue == "orders")
        #expect(subscribe.data?.value["auth"] == nil)
        #expect(!orders.subscribed)
        try await h.succeed("orders")
        #expect(orders.subscribed)
        #expect(fired.get == 1)
    }

    @Test("re-subscription after a reconnect: private channels re-authorized with the NEW id; handlers survive")
    func resubscribe() async throws {
        let h = Harness()
        let orders = h.bird.subscribe("orders")
        let secret = h.bird.subscribe("private-secret")
        let got = TestBox<[JSONValue?]>([])
        let succeeded = TestBox(0)
        orders.bind("order-updated") { data in got.mutate { $0.append(data) } }
        secret.bind(BirdProtocol.Event.subscriptionSucceeded) { _ in succeeded.mutate { $0 += 1 } }
        let first = try await h.connect(id: "1.1")
        let firstAuth = try #require(
            first.sent(event: "bird:subscribe").first { $0.data?.value["channel"]?.stringValue == "private-secret" })
        #expect(firstAuth.data?.value["auth"]?.stringValue == "k:sig-1.1")
        try await h.succeed("orders")
        try await h.succeed("private-secret")
        first.receive(event: "order-updated", channel: "orders", data: ["id": 1])
        await h.settle()

        first.serverClose(code: 4200)
        await h.settle()
        #expect(!orders.subscribed && !secret.subscribed)
        #expect((try? secret.trigger("client-x", data: [:])) == false)
        let second = try await h.connect(id: "2.2")
        #expect(second !== first)
        #expect(h.authorizedIds.get == ["1.1", "2.2"])
        let secondAuth = try #require(
            second.sent(event: "bird:subscribe").first { $0.data?.value["channel"]?.stringValue == "private-secret" })
        #expect(secondAuth.data?.value["auth"]?.stringValue == "k:sig-2.2")
        #expect(Set(h.subscribed(on: second)) == ["orders", "private-secret"])
        try await h.succeed("orders")
        try await h.succeed("private-secret")
        second.receive(event: "order-updated", channel: "orders", data: ["id": 2])
        await h.settle()
        #expect(got.get.map { $0?["id"]?.intValue } == [1, 2])
        #expect(succeeded.get == 2)
        #expect(secret.subscribed)
    }

    @Test("re-subscription frames of public channels are coalesced into one write")
    func coalesced() async throws {
        let h = Harness()
        for name in ["a", "b", "c", "d"] { h.bird.subscribe(name) }
        let socket = try await h.connect()
        let writes = socket.writes.filter { $0.contains { $0.contains("bird:subscribe") } }
        #expect(writes.count == 1)
        #expect(writes.first?.count == 4)
    }

    @Test("subscribing while connected sends at once")
    func subscribeWhileConnected() async throws {
        let h = Harness()
        let socket = try await h.connect()
        h.bird.subscribe("late")
        await h.settle()
        #expect(h.subscribed(on: socket) == ["late"])
    }

    @Test("unsubscribe sends unsubscribe; an unsubscribe while the subscribe is pending wins")
    func unsubscribePending() async throws {
        let h = Harness()
        let socket = try await h.connect()
        let channel = h.bird.subscribe("pending")
        let fired = TestBox(0)
        channel.bind(BirdProtocol.Event.subscriptionSucceeded) { _ in fired.mutate { $0 += 1 } }
        await h.settle()
        h.bird.unsubscribe("pending")
        await h.settle()
        let unsubscribe = try #require(socket.sent(event: "bird:unsubscribe").first)
        #expect(unsubscribe.data?.value["channel"]?.stringValue == "pending")
        try await h.succeed("pending")  // the late answer
        #expect(!channel.subscribed)
        #expect(fired.get == 0)
        #expect(h.bird.channel(named: "pending") == nil)
        // Not re-subscribed on the next connection either.
        socket.serverClose(code: 4200)
        let next = try await h.connect(id: "2.2")
        #expect(h.subscribed(on: next).isEmpty)
    }

    @Test("unsubscribe while the authorizer runs: nothing is sent")
    func unsubscribeAuthorizing() async throws {
        let gate = TestBox(false)
        let started = TestBox(false)
        let h = Harness { options in
            options.authorizer = { request in
                started.mutate { $0 = true }
                while !gate.get { try await Task.sleep(for: .milliseconds(1)) }
                return AuthResponse(auth: "k:x")
            }
        }
        let socket = try await h.connect()
        h.bird.subscribe("private-slow")
        // The authorizer is running (not merely about to): the unsubscribe comes while it runs.
        await h.waitUntil({ started.get }, what: "the authorizer started", settling: false)
        h.bird.unsubscribe("private-slow")
        gate.mutate { $0 = true }
        await h.settle()
        #expect(socket.sent(event: "bird:subscribe").isEmpty)
        #expect(socket.sent(event: "bird:unsubscribe").isEmpty)
    }

    @Test("subscribe timeout: subscription_error type Timeout after 10 s; retried on the next connection")
    func subscribeTimeout() async throws {
        let h = Harness()
        let channel = h.bird.subscribe("slow")
        let errors = TestBox<[JSONValue?]>([])
        channel.bind(BirdProtocol.Event.subscriptionError) { data in errors.mutate { $0.append(data) } }
        let socket = try await h.connect(activityTimeout: 600)
        await h.advance(.milliseconds(9_999))
        #expect(errors.get.isEmpty)
        await h.advance(.milliseconds(1))
        #expect(errors.get.count == 1)
        #expect(errors.get.first??["type"]?.stringValue == "Timeout")
        #expect(!channel.subscribed)
        socket.serverClose(code: 4200)
        let next = try await h.connect(id: "3.3")
        #expect(h.subscribed(on: next) == ["slow"])
        try await h.succeed("slow")
        #expect(channel.subscribed)
        await h.advance(.seconds(20))
        #expect(errors.get.count == 1)
    }

    @Test("unsubscribe after a subscribe timeout still sends unsubscribe: the edge may have subscribed late")
    func unsubscribeAfterTimeout() async throws {
        let h = Harness()
        let channel = h.bird.subscribe("slow")
        let errors = TestBox(0)
        channel.bind(BirdProtocol.Event.subscriptionError) { _ in errors.mutate { $0 += 1 } }
        let socket = try await h.connect(activityTimeout: 600)
        await h.advance(.seconds(10))
        #expect(errors.get == 1)
        h.bird.unsubscribe("slow")
        await h.settle()
        let unsubscribe = try #require(socket.sent(event: "bird:unsubscribe").first)
        #expect(unsubscribe.data?.value["channel"]?.stringValue == "slow")
    }

    @Test("events(named:) streams payloads")
    func eventStream() async throws {
        let h = Harness()
        let channel = h.bird.subscribe("feed")
        let stream = channel.events(named: "tick")
        let socket = try await h.connect()
        try await h.succeed("feed")
        socket.receive(event: "tick", channel: "feed", data: ["n": 1])
        socket.receive(event: "tick", channel: "feed", data: ["n": 2])
        await h.settle()
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next()??["n"]?.intValue == 1)
        #expect(await iterator.next()??["n"]?.intValue == 2)
    }

    @Test("bind returns a token for unbind; bindAll sees every event with its name")
    func bindUnbind() async throws {
        let h = Harness()
        let channel = h.bird.subscribe("feed")
        let one = TestBox(0)
        let all = TestBox<[String]>([])
        let token = channel.bind("e") { _ in one.mutate { $0 += 1 } }
        channel.bindAll { name, _ in all.mutate { $0.append(name) } }
        let socket = try await h.connect()
        try await h.succeed("feed")
        socket.receive(event: "e", channel: "feed", data: "x")
        await h.settle()
        channel.unbind(token)
        socket.receive(event: "e", channel: "feed", data: "y")
        socket.receive(event: "other", channel: "feed")
        await h.settle()
        #expect(one.get == 1)
        #expect(all.get == [BirdProtocol.Event.subscriptionSucceeded, "e", "e", "other"])
    }

    @Test("payloads: double-encoded JSON is parsed, a non-JSON string stays a string, absent data is nil")
    func payloads() async throws {
        let h = Harness()
        let channel = h.bird.subscribe("feed")
        let got = TestBox<[JSONValue?]>([])
        channel.bind("e") { data in got.mutate { $0.append(data) } }
        let socket = try await h.connect()
        socket.receive(event: "e", channel: "feed", data: ["a": 1], doubleEncoded: true)
        socket.receive(event: "e", channel: "feed", data: ["a": 2], doubleEncoded: false)
        socket.receive(#"{"event":"e","channel":"feed","data":"not json"}"#)
        socket.receive(#"{"event":"e","channel":"feed"}"#)
        await h.settle()
        let values = got.get
        #expect(values.count == 4)
        #expect(values[0]?["a"]?.intValue == 1)
        #expect(values[1]?["a"]?.intValue == 2)
        #expect(values[2] == .string("not json"))
        #expect(values[3] == nil)
    }

    @Test("connection count events reach the channel with a normalized payload")
    func connectionCount() async throws {
        let h = Harness()
        let channel = h.bird.subscribe("orders")
        let counts = TestBox<[Int]>([])
        channel.bind(BirdProtocol.Event.connectionCount) { data in
            if let n = data?["connection_count"]?.intValue { counts.mutate { $0.append(n) } }
        }
        let socket = try await h.connect()
        socket.receive(event: "bird_internal:connection_count", channel: "orders", data: ["connection_count": 3])
        await h.settle()
        #expect(counts.get == [3])
    }

    @Test("an invalid channel name gets a local subscription_error and is not sent")
    func invalidName() async throws {
        let h = Harness()
        let channel = h.bird.subscribe("bad name")
        let errors = TestBox<[String]>([])
        channel.bind(BirdProtocol.Event.subscriptionError) { data in
            errors.mutate { $0.append(data?["type"]?.stringValue ?? "") }
        }
        let socket = try await h.connect()
        #expect(socket.sent(event: "bird:subscribe").isEmpty)
        #expect(errors.get == ["InvalidChannelName"])
    }
}
