import BirdRealtimeTestSupport
import Foundation
import Testing
@testable import BirdRealtime

@Suite("Backoff: full jitter, base 1 s, cap 30 s")
struct BackoffTests {
    @Test("upper bounds double from 1 s and stop at 30 s")
    func bounds() {
        let backoff = Backoff()
        #expect(
            (0...7).map { backoff.upperBound(attempt: $0) }
                == [1, 2, 4, 8, 16, 30, 30, 30].map { Duration.seconds($0) })
        #expect(backoff.upperBound(attempt: 10_000) == .seconds(30))
    }

    @Test("10,000 seeded draws stay within [0, min(cap, base·2ⁿ)] and cover the range")
    func seededDraws() {
        let backoff = Backoff()
        let random = SeededRandom.source(seed: 2024)
        var maxSeen: [Int: Duration] = [:]
        var minSeen: [Int: Duration] = [:]
        for i in 0..<10_000 {
            let attempt = i % 12
            let delay = backoff.delay(attempt: attempt, unit: random())
            let bound = Duration.seconds(min(30, 1 << min(attempt, 10)))
            #expect(delay >= .zero && delay <= bound)
            maxSeen[attempt] = max(maxSeen[attempt] ?? .zero, delay)
            minSeen[attempt] = min(minSeen[attempt] ?? bound, delay)
        }
        // Full jitter: draws reach close to both ends of every range.
        for attempt in 0..<12 {
            let bound = Duration.seconds(min(30, 1 << min(attempt, 10)))
            #expect(maxSeen[attempt]! > bound * 0.95)
            #expect(minSeen[attempt]! < bound * 0.05)
        }
    }

    @Test("the same seed gives the same delays")
    func deterministic() {
        let a = SeededRandom.source(seed: 7)
        let b = SeededRandom.source(seed: 7)
        #expect((0..<100).map { _ in a() } == (0..<100).map { _ in b() })
    }

    @Test("out-of-range random values are clamped")
    func clamped() {
        let backoff = Backoff()
        #expect(backoff.delay(attempt: 0, unit: 7) == .seconds(1))
        #expect(backoff.delay(attempt: 0, unit: -1) == .zero)
        #expect(backoff.delay(attempt: 0, unit: .nan) == .zero)
    }

    @Test("through the client: seeded delays within bounds, attempts reset after a handshake")
    func clientDelays() async throws {
        let h = Harness { $0.random = SeededRandom.source(seed: 99) }
        await h.settle()
        for n in 0..<8 {
            try h.socket.networkFailure()
            await h.settle()
            let retry = try #require(h.recorder.retries.last)
            #expect(retry.attempt == n)
            #expect(retry.delay >= .zero && retry.delay <= .seconds(min(30, 1 << n)))
            await h.advance(retry.delay)
            #expect(h.transport.count == n + 2)
        }
        try await h.connect()
        try h.socket.serverClose(code: 1001)
        await h.settle()
        #expect(h.recorder.retries.last?.attempt == 0)
        #expect((h.recorder.retries.last?.delay ?? .seconds(99)) <= .seconds(1))
    }
}
