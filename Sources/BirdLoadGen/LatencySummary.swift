/// Percentiles of a set of latency samples, by the nearest-rank method: the p-th percentile of n
/// sorted samples is the sample at 1-based rank ⌈p·n⌉ (so p50 of 1…100 is 50, p99 is 99, p100 is
/// the largest). Always one of the samples, never an interpolation.
public struct LatencySummary: Sendable, Equatable {
    /// How many samples were summarised.
    public var count: Int
    /// The median (nearest rank).
    public var p50: Double
    /// The 95th percentile (nearest rank).
    public var p95: Double
    /// The 99th percentile (nearest rank).
    public var p99: Double
    /// The largest sample.
    public var max: Double

    /// Summarises `samples` (any order); nil when there are none.
    public init?(_ samples: [Double]) {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        self.init(sorted: sorted)
    }

    /// Summarises samples already sorted ascending; nil when there are none.
    public init?(sorted: [Double]) {
        guard let last = sorted.last else { return nil }
        count = sorted.count
        p50 = Self.percentile(sorted, percent: 50)
        p95 = Self.percentile(sorted, percent: 95)
        p99 = Self.percentile(sorted, percent: 99)
        max = last
    }

    /// The nearest-rank `percent`-th percentile (clamped to 1…100) of `sorted` (ascending, not
    /// empty): the sample at rank ⌈percent·n/100⌉, computed in integers so no rounding error can
    /// move it by one rank.
    public static func percentile(_ sorted: [Double], percent: Int) -> Double {
        precondition(!sorted.isEmpty, "percentile of no samples")
        let p = Swift.min(100, Swift.max(1, percent))
        let rank = Swift.max(1, (p * sorted.count + 99) / 100)
        return sorted[rank - 1]
    }
}

/// The median of a list of figures (the mean of the middle two for an even count); nil for none.
public func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}
