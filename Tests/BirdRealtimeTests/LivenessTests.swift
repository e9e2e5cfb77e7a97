import BirdRealtime
import BirdRealtimeTestSupport
import Foundation
import Testing

@Suite("Liveness: ping after inactivity, 4201 after the pong timeout")
struct LivenessTests {
    @Test("ping at exactly the activity timeout; close 4201 at exactly the pong timeout; reconnect at once")
    func exactTiming() async throws {
        let h = Harness()
        let socket = try await h.connect(activityTimeout: 120)
        await h.advance(.milliseconds(119_999))
        #expect(socket.sent(event: "bird:ping").isEmpty)
        await h.advance(.milliseconds(1))
        #expect(socket.sent(event: "bird:ping").count == 1)
        await h.advance(.milliseconds(29_999))
        #expect(socket.closedWith == nil)
        #expect(h.transport.count == 1)
        await h.advance(.milliseconds(1))
        #expect(socket.closedWith?.code == 4201)
        #expect(h.transport.count == 2)
        #expect(h.bird.connectionState == .connecting)
        #expect(!h.recorder.states.contains(.unavailable))
        #expect(h.recorder.changes.last?.cause == .pongTimeout)
    }

    @Test("inbound messages postpone the ping; a pong cancels the timeout")
    func activityPostpones() async throws {
        let h = Harness()
        let socket = try await h.connect(activityTimeout: 120)
        await h.advance(.seconds(60))
        socket.receive(event: "bird:pong")  // any message counts
        await h.advance(.milliseconds(119_999))
        #expect(socket.sent(event: "bird:ping").isEmpty)
        await h.advance(.milliseconds(1))
        #expect(socket.sent(event: "bird:ping").count == 1)
        await h.advance(.seconds(10))
        socket.receive(event: "bird:pong")
        await h.advance(.seconds(60))
        #expect(socket.closedWith == nil)
        await h.advance(.seconds(60))
        #expect(socket.sent(event: "bird:ping").count == 2)
    }

    @Test("the activity timeout in force is min(option, handshake)")
    func minimumTimeout() async throws {
        let small = Harness { $0.activityTimeout = .seconds(30) }
        let s1 = try await small.connect(activityTimeout: 120)
        await small.advance(.seconds(30))
        #expect(s1.sent(event: "bird:ping").count == 1)
        let server = Harness()
        let s2 = try await server.connect(activityTimeout: 45)
        await server.advance(.milliseconds(44_999))
        #expect(s2.sent(event: "bird:ping").isEmpty)
        await server.advance(.milliseconds(1))
        #expect(s2.sent(event: "bird:ping").count == 1)
    }

    @Test("custom pong timeout")
    func customPongTimeout() async throws {
        let h = Harness { $0.pongTimeout = .seconds(5) }
        let socket = try await h.connect(activityTimeout: 10)
        await h.advance(.seconds(10))
        await h.advance(.milliseconds(4_999))
        #expect(socket.closedWith == nil)
        await h.advance(.milliseconds(1))
        #expect(socket.closedWith?.code == 4201)
    }

    @Test("the client answers the server's ping with a pong")
    func answersPing() async throws {
        let h = Harness()
        let socket = try await h.connect()
        socket.receive(event: "bird:ping", data: [:])
        await h.settle()
        #expect(socket.sent(event: "bird:pong").count == 1)
    }
}
