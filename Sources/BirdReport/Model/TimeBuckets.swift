/// Event-rate buckets: a round width that cuts the recording into at most ``maxBuckets``.
public enum TimeBuckets {
    /// The most buckets a channel's chart has.
    public static let maxBuckets = 60

    /// Widths tried, smallest first (ms).
    static let widths: [Double] = [
        100, 250, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000,
        1_800_000, 3_600_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000,
    ]

    /// The width for a recording of `durationMs`.
    public static func width(forDurationMs durationMs: Double) -> Double {
        for width in widths where durationMs / width <= Double(maxBuckets) { return width }
        // Longer than 60 days: whole days, as many as it takes to stay within maxBuckets.
        let days = (durationMs / 86_400_000 / Double(maxBuckets)).rounded(.up)
        return max(1, days) * 86_400_000
    }

    /// How many buckets of `width` cover `durationMs` (at least one).
    public static func count(durationMs: Double, width: Double) -> Int {
        let n = (durationMs / width).rounded(.up)
        guard n.isFinite, n >= 1 else { return 1 }
        return Int(min(n, Double(maxBuckets * 2)))
    }

    /// The bucket of an event at `atMs`, clamped to the last one.
    static func index(atMs: Double, width: Double, count: Int) -> Int {
        let i = (atMs / width).rounded(.down)
        guard i.isFinite, i >= 0 else { return 0 }
        return min(Int(min(i, Double(count - 1))), count - 1)
    }
}
