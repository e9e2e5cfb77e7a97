import BirdRealtime
import BirdRealtimeTestSupport
import Foundation
import Testing

@Suite("Round-trip time: measured on every protocol ping, ping(timeout:) on demand")
struct RoundTripTests {
    /// Starts `ping(timeout:)` on `h`'s client and waits until its ping is on the wire (or the
    /// call has already returned).
    private static func startPing(
        _ h: Harness, timeout: Duration = .seconds(5), pingsBefore: Int = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (Task<Result<Duration, PingError>, Never>, TestBox<Bool>) {
        let done = TestBox(false)
        let bird = h.bird
        let task = Task { () -> Result<Duration, PingError> in
            defer { done.mutate { $0 = true } }
            do throws(PingError) {
                return .success(try await bird.ping(timeout: timeout))
            } catch {
                return .failure(error)
            }
        }
        let socket = try h.socket
        let ping = ProtocolEvent.ping.wireName(h.dialect)
        await h.waitUntil(
            { socket.sent(event: ping).count > pingsBefore || done.get }, what: "the ping sent",
            sourceLocation: sourceLocation)
        return (task, done)
    }

    /// The result of a `ping` started with ``startPing``: waits (5 s of real time) for it to
    /// return; when it has not, records an issue and runs the manual clock past any timeout so the
    /// call ends (a test fails, never hangs).
    private static func result(
        _ started: (Task<Result<Duration, PingError>, Never>, TestBox<Bool>), _ h: Harness,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Result<Duration, PingError> {
        await h.waitUntil({ started.1.get }, what: "ping() returned", sourceLocation: sourceLocation)
        if !started.1.get { await h.advance(.seconds(3_600)) }
        return await started.0.value
    }

    @Test("the liveness ping's pong gives the round-trip time on the injected clock, to onRoundTrip and lastRoundTrip")
    func livenessPing() async throws {
        let h = Harness()
        let seen = TestBox<[Duration]>([])
        h.bird.onRoundTrip { rtt in seen.mutate { $0.append(rtt) } }
        let socket = try await h.connect(activityTimeout: 120)
        #expect(h.bird.lastRoundTrip == nil)
        await h.advance(.seconds(120))
        #expect(socket.sent(event: "bird:ping").count == 1)
        await h.advance(.milliseconds(250))
        socket.receive(event: "bird:pong")
        await h.settle()
        #expect(h.bird.lastRoundTrip == .milliseconds(250))
        #expect(seen.get == [.milliseconds(250)])
    }

    @Test("the Pusher dialect measures pusher:ping → pusher:pong")
    func pusherDialect() async throws {
        let h = Harness(dialect: .pusher)
        let seen = TestBox<[Duration]>([])
        h.bird.onRoundTrip { rtt in seen.mutate { $0.append(rtt) } }
        let socket = try await h.connect(activityTimeout: 120)
        await h.advance(.seconds(120))
        #expect(socket.sent(event: "pusher:ping").count == 1)
        await h.advance(.milliseconds(75))
        socket.receive(event: "pusher:pong", data: [:])
        await h.settle()
        #expect(seen.get == [.milliseconds(75)])
        #expect(h.bird.lastRoundTrip == .milliseconds(75))
    }

    @Test("a pong with no ping out measures nothing; onActivity carries the measurement in order")
    func unsolicitedPong() async throws {
        let h = Harness()
        let tags = TestBox<[String]>([])
        let socket = try await h.connect()
        h.bird.onActivity { activity in
            if case .roundTrip(let rtt) = activity { tags.mutate { $0.append("rtt \(rtt)") } }
        }
        socket.receive(event: "bird:pong")
        await h.settle()
        #expect(h.bird.lastRoundTrip == nil)
        #expect(tags.get.isEmpty)
        let ping = try await Self.startPing(h)
        await h.advance(.milliseconds(12))
        socket.receive(event: "bird:pong")
        #expect(await Self.result(ping, h) == .success(.milliseconds(12)))
        await h.settle()
        #expect(tags.get == ["rtt \(Duration.milliseconds(12))"])
    }

    @Test("ping() sends a ping now and returns the time to its pong")
    func pingNow() async throws {
        let h = Harness()
        let socket = try await h.connect()
        let ping = try await Self.startPing(h)
        #expect(socket.sent(event: "bird:ping").count == 1)
        await h.advance(.milliseconds(40))
        #expect(!ping.1.get)
        socket.receive(event: "bird:pong")
        #expect(await Self.result(ping, h) == .success(.milliseconds(40)))
        #expect(h.bird.lastRoundTrip == .milliseconds(40))
    }

    @Test("ping() before connected throws notConnected and sends nothing")
    func notConnected() async throws {
        let h = Harness()
        await h.settle()
        let result: Result<Duration, PingError>
        do throws(PingError) {
            result = .success(try await h.bird.ping())
        } catch {
            result = .failure(error)
        }
        #expect(result == .failure(.notConnected))
        #expect(try h.socket.sent(event: "bird:ping").isEmpty)
    }

    @Test("ping(timeout:) throws timedOut at exactly the timeout; a late pong still measures")
    func timeout() async throws {
        let h = Harness()
        let socket = try await h.connect()
        let ping = try await Self.startPing(h, timeout: .seconds(2))
        await h.advance(.milliseconds(1_999))
        #expect(!ping.1.get)
        await h.advance(.milliseconds(1))
        #expect(await Self.result(ping, h) == .failure(.timedOut(after: .seconds(2))))
        await h.advance(.seconds(1))
        socket.receive(event: "bird:pong")
        await h.settle()
        #expect(h.bird.lastRoundTrip == .seconds(3))
        #expect(socket.closedWith == nil)
    }

    @Test(
        "the connection ending first throws connectionClosed; the next connection's pong does not answer the old ping")
    func connectionClosed() async throws {
        let h = Harness()
        let first = try await h.connect()
        let ping = try await Self.startPing(h)
        h.bird.dropConnection()
        #expect(await Self.result(ping, h) == .failure(.connectionClosed))
        #expect(first.aborted)
        await h.advance(.seconds(60))
        let second = try await h.connect(id: "2.2")
        second.receive(event: "bird:pong")
        await h.settle()
        #expect(h.bird.lastRoundTrip == nil)
    }

    @Test("concurrent ping() calls share the one pong")
    func concurrentCalls() async throws {
        let h = Harness()
        let socket = try await h.connect()
        let a = try await Self.startPing(h)
        await h.advance(.milliseconds(10))
        let b = try await Self.startPing(h, pingsBefore: 1)
        await h.advance(.milliseconds(5))
        socket.receive(event: "bird:pong")
        #expect(await Self.result(a, h) == .success(.milliseconds(15)))
        #expect(await Self.result(b, h) == .success(.milliseconds(15)))
    }
}
