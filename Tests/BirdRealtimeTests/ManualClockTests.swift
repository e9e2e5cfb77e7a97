import BirdRealtime
import BirdRealtimeTestSupport
import Foundation
import Testing

@Suite("ManualClock")
struct ManualClockTests {
    @Test("timers run in deadline order, each at its own deadline; cancelled ones never run")
    func order() {
        let clock = ManualClock()
        let queue = DispatchQueue(label: "clock.test")
        let log = TestBox<[(String, Duration)]>([])
        _ = clock.schedule(after: .seconds(3), on: queue) { log.mutate { $0.append(("c", clock.uptime)) } }
        _ = clock.schedule(after: .seconds(1), on: queue) { log.mutate { $0.append(("a", clock.uptime)) } }
        let cancelled = clock.schedule(after: .seconds(2), on: queue) { log.mutate { $0.append(("x", clock.uptime)) } }
        _ = clock.schedule(after: .seconds(2), on: queue) {
            log.mutate { $0.append(("b", clock.uptime)) }
            _ = clock.schedule(after: .milliseconds(500), on: queue) { log.mutate { $0.append(("b2", clock.uptime)) } }
        }
        cancelled.cancel()
        clock.advance(by: .milliseconds(2_999))
        #expect(log.get.map(\.0) == ["a", "b", "b2"])
        #expect(log.get.map(\.1) == [.seconds(1), .seconds(2), .milliseconds(2_500)])
        clock.advance(by: .milliseconds(1))
        #expect(log.get.map(\.0) == ["a", "b", "b2", "c"])
        #expect(clock.pendingCount == 0)
        #expect(clock.uptime == .seconds(3))
    }

    @Test("sleepers resume when time passes their deadline")
    func sleepers() async throws {
        let clock = ManualClock()
        let woke = TestBox(false)
        let task = Task {
            try await clock.sleep(for: .seconds(5))
            woke.mutate { $0 = true }
        }
        // The sleeper registers from another task: wait for it, with a deadline that fails the test.
        let deadline = ContinuousClock.now + .seconds(10)
        while clock.pendingCount == 0 {
            guard ContinuousClock.now < deadline else {
                Issue.record("the sleeper did not register with the clock within 10 s")
                return
            }
            try await Task.sleep(for: .milliseconds(1))
        }
        clock.advance(by: .seconds(4))
        #expect(!woke.get)
        clock.advance(by: .seconds(1))
        try await task.value
        #expect(woke.get)
    }

    @Test("wall time follows virtual time")
    func wall() {
        let clock = ManualClock(origin: Date(timeIntervalSince1970: 100))
        clock.advance(by: .seconds(30))
        #expect(clock.wallNow == Date(timeIntervalSince1970: 130))
    }
}
