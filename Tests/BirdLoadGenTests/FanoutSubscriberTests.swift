import BirdWire
import Testing

@testable import BirdLoadGen

@Suite("The fan-out subscriber (protocol level)")
struct FanoutSubscriberTests {
    static func message(_ event: String, channel: String? = nil, data: String = "{}") -> String {
        WireMessage(event: event, channel: channel, data: .string(data)).encode()
    }

    @Test("Handshake → subscribe → succeeded → stamped deliveries, in the bird dialect")
    func lifecycle() {
        var subscriber = FanoutSubscriber(dialect: .bird, channel: "bench", event: "tick")
        let stamp = FanoutStamp(seq: 3, sentNanos: 1_000)
        // An app event before the subscription is not a delivery.
        #expect(
            subscriber.input(text: Self.message("tick", channel: "bench", data: stamp.payload()), receivedNanos: 5)
                .isEmpty)
        let subscribe = subscriber.input(
            text: Self.message("bird:connection_established", data: "{\"socket_id\":\"1.2\"}"), receivedNanos: 1)
        #expect(subscribe == [.send("{\"event\":\"bird:subscribe\",\"data\":{\"channel\":\"bench\"}}")])
        #expect(subscriber.phase == .subscribing)
        let succeeded = subscriber.input(
            text: Self.message("bird_internal:subscription_succeeded", channel: "bench"), receivedNanos: 2)
        #expect(succeeded == [.subscribed])
        let delivered = subscriber.input(
            text: Self.message("tick", channel: "bench", data: stamp.payload()), receivedNanos: 4_000)
        #expect(delivered == [.delivery(stamp: stamp, receivedNanos: 4_000)])
        let unstamped = subscriber.input(
            text: Self.message("tick", channel: "bench", data: "{\"p\":1}"), receivedNanos: 9)
        #expect(unstamped == [.delivery(stamp: nil, receivedNanos: 9)])
        #expect(subscriber.input(text: Self.message("other", channel: "bench"), receivedNanos: 9).isEmpty)
    }

    @Test("Pusher dialect names; pings are answered; an error ends it")
    func pusherPingError() {
        var subscriber = FanoutSubscriber(dialect: .pusher, channel: "bench", event: "tick")
        #expect(subscriber.input(text: Self.message("bird:connection_established"), receivedNanos: 1).isEmpty)
        #expect(
            subscriber.input(text: Self.message("pusher:connection_established"), receivedNanos: 1)
                == [.send("{\"event\":\"pusher:subscribe\",\"data\":{\"channel\":\"bench\"}}")])
        #expect(
            subscriber.input(text: Self.message("pusher:ping"), receivedNanos: 1)
                == [.send("{\"event\":\"pusher:pong\",\"data\":{}}")])
        let error = subscriber.input(text: Self.message("pusher:error", data: "{\"code\":4301}"), receivedNanos: 1)
        guard case .failed? = error.first else {
            Issue.record("expected a failure, got \(error)")
            return
        }
        #expect(
            subscriber.input(text: Self.message("pusher_internal:subscription_succeeded"), receivedNanos: 1).isEmpty)
    }

    @Test("The event name is read from the message's bytes; no name, no action")
    func eventNames() {
        var subscriber = FanoutSubscriber(dialect: .bird, channel: "bench", event: "tick")
        #expect(subscriber.input(text: "not json", receivedNanos: 1).isEmpty)
        #expect(subscriber.input(text: "{\"event\":\"bird:connection_established", receivedNanos: 1).isEmpty)
        #expect(subscriber.phase == .handshaking)
    }
}
