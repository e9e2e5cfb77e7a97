import BirdRealtime
import BirdRealtimeTestSupport
import BirdWire
import Foundation
import Testing

/// Numbers from the edge and from the options never trap (docs/LIFECYCLE.md, "Ranges").
@Suite("Hostile numbers: handshake, options, backoff, timers")
struct HostileNumbersTests {
    /// A handshake whose `activity_timeout` is `value`, verbatim.
    static func handshake(activityTimeout value: String) -> String {
        WireMessage(
            event: "bird:connection_established",
            data: .string(#"{"connection_id":"1.1","activity_timeout":\#(value)}"#)
        ).encode()
    }

    /// Connects with a handshake carrying `value`; returns when the first ping was sent.
    func firstPing(activityTimeout value: String, option: Duration = .seconds(120)) async throws -> Duration? {
        let h = Harness { $0.activityTimeout = option }
        await h.settle()
        let socket = try h.socket
        socket.open()
        socket.receive(Self.handshake(activityTimeout: value))
        await h.settle()
        #expect(h.bird.connectionState == .connected, "activity_timeout \(value)")
        var waited = Duration.zero
        while waited < .seconds(3600) {
            if !socket.sent(event: "bird:ping").isEmpty { return waited }
            await h.advance(.milliseconds(500))
            waited += .milliseconds(500)
        }
        return socket.sent(event: "bird:ping").isEmpty ? nil : waited
    }

    @Test("activity_timeout 1e16, 9.3e15, 1e300: connected, the option (120 s) is in force")
    func hugeHandshakeTimeouts() async throws {
        for value in ["1e16", "9.3e15", "1e300", "9223372036854775807"] {
            #expect(try await firstPing(activityTimeout: value) == .seconds(120), "activity_timeout \(value)")
        }
    }

    @Test("activity_timeout 0.0001 is raised to 1 s; 0, -5, a string, null are ignored")
    func tinyOrInvalidHandshakeTimeouts() async throws {
        #expect(try await firstPing(activityTimeout: "0.0001") == .seconds(1))
        for value in ["0", "-5", "-0", "\"30\"", "null", "[1]", "{}"] {
            #expect(try await firstPing(activityTimeout: value) == .seconds(120), "activity_timeout \(value)")
        }
    }

    @Test("option activityTimeout is held to 1 s…1 h; the handshake's smaller value still wins")
    func optionRange() async throws {
        #expect(try await firstPing(activityTimeout: "120", option: .zero) == .seconds(1))
        #expect(try await firstPing(activityTimeout: "120", option: .seconds(-30)) == .seconds(1))
        #expect(try await firstPing(activityTimeout: "1e16", option: .seconds(Int64.max)) == .seconds(3600))
        #expect(try await firstPing(activityTimeout: "45", option: .seconds(Int64.max)) == .seconds(45))
    }

    @Test("pongTimeout is held to 1 s…1 h: zero does not make a reconnect loop")
    func pongTimeoutRange() async throws {
        let h = Harness { $0.pongTimeout = .zero }
        let socket = try await h.connect(activityTimeout: 10)
        await h.advance(.seconds(10))
        #expect(socket.sent(event: "bird:ping").count == 1)
        await h.advance(.milliseconds(999))
        #expect(socket.closedWith == nil)
        await h.advance(.milliseconds(1))
        #expect(socket.closedWith?.code == 4201)
    }

    @Test("Backoff is total: negative base, a cap near Duration's limits, any attempt number")
    func backoffIsTotal() {
        #expect(Backoff(base: .seconds(-1)).upperBound(attempt: 1000) == .zero)
        #expect(Backoff(base: .seconds(1), cap: .seconds(-5)).upperBound(attempt: 3) == .zero)
        let wide = Backoff(base: .seconds(1), cap: .seconds(Int64.max))
        #expect(wide.upperBound(attempt: 200) == .seconds(Int64.max))
        #expect(wide.upperBound(attempt: 10) == .seconds(1024))
        #expect(wide.delay(attempt: Int.max, unit: 1) > .seconds(Int64.max / 2))
        #expect(Backoff().upperBound(attempt: Int.max) == .seconds(30))
    }

    @Test("the system clock takes any delay without trapping; a negative one fires at once")
    func systemClockDelays() async {
        let clock = SystemRealtimeClock()
        let queue = DispatchQueue(label: "test.clock")
        let fired = TestBox(0)
        let huge = clock.schedule(after: .seconds(Int64.max), on: queue) { fired.mutate { $0 += 100 } }
        let big = clock.schedule(after: .seconds(10_000_000_000), on: queue) { fired.mutate { $0 += 100 } }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            _ = clock.schedule(after: .seconds(-5), on: queue) {
                fired.mutate { $0 += 1 }
                done.resume()
            }
        }
        huge.cancel()
        big.cancel()
        queue.sync {}
        #expect(fired.get == 1)
    }
}
