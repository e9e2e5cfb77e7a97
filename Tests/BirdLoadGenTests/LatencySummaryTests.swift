import Testing

@testable import BirdLoadGen

@Suite("Latency percentiles (nearest rank)")
struct LatencySummaryTests {
    @Test("1…100: p50 is 50, p95 95, p99 99, max 100, whatever the input order")
    func hundred() throws {
        let samples = (1...100).map(Double.init).reversed()
        let summary = try #require(LatencySummary(Array(samples)))
        #expect(summary == LatencySummary(sorted: (1...100).map(Double.init)))
        #expect(summary.count == 100)
        #expect(summary.p50 == 50)
        #expect(summary.p95 == 95)
        #expect(summary.p99 == 99)
        #expect(summary.max == 100)
    }

    @Test("Small sets round the rank up: 1…10 gives p50 5, p95 and p99 10; one sample is every percentile")
    func small() throws {
        let ten = try #require(LatencySummary((1...10).map(Double.init)))
        #expect(ten.p50 == 5)
        #expect(ten.p95 == 10)
        #expect(ten.p99 == 10)
        let one = try #require(LatencySummary([7.5]))
        #expect(one.p50 == 7.5 && one.p95 == 7.5 && one.p99 == 7.5 && one.max == 7.5)
        #expect(LatencySummary([]) == nil)
    }

    @Test("Ranks are exact where percent × 0.01 × n in floating point is off by a hair (n = 60, 520)")
    func exactRanks() {
        // 95 × 0.01 × 60 = 57.00000000000001 in Double: a ceiling of that would pick rank 58.
        let sixty = (1...60).map(Double.init)
        #expect(LatencySummary.percentile(sixty, percent: 95) == 57)
        #expect(LatencySummary.percentile((1...520).map(Double.init), percent: 95) == 494)
        let thousand = (1...1000).map(Double.init)
        #expect(LatencySummary.percentile(thousand, percent: 99) == 990)
        #expect(LatencySummary.percentile(thousand, percent: 95) == 950)
        let tenThousand = (1...10_000).map(Double.init)
        #expect(LatencySummary.percentile(tenThousand, percent: 99) == 9900)
        #expect(LatencySummary.percentile(tenThousand, percent: 100) == 10_000)
        // Out-of-range percents are clamped to 1…100: 0 reads as the 1st percentile.
        #expect(LatencySummary.percentile(tenThousand, percent: 0) == 100)
        #expect(LatencySummary.percentile(tenThousand, percent: 250) == 10_000)
    }

    @Test("The median of figures: middle value, or the mean of the middle two")
    func medians() {
        #expect(median([3, 1, 2]) == 2)
        #expect(median([4, 1, 3, 2]) == 2.5)
        #expect(median([]) == nil)
    }
}
