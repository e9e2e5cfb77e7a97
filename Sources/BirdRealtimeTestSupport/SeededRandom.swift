import BirdWire

/// A seedable random source (SplitMix64) for backoff jitter in tests:
/// `options.random = SeededRandom.source(seed: 42)`. The package's one seeded generator
/// (BirdWire's `SplitMix64`), for apps' tests too.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var generator: SplitMix64

    /// A generator starting from `seed`.
    public init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
    }

    public mutating func next() -> UInt64 {
        generator.next()
    }

    /// A number in `[0, 1]`.
    public mutating func nextUnit() -> Double {
        generator.nextClosedUnit()
    }

    /// A thread-safe `() -> Double` in `[0, 1]` for `Options.random`.
    public static func source(seed: UInt64) -> @Sendable () -> Double {
        let generator = TestLock(SeededRandom(seed: seed))
        return { generator.withLock { $0.nextUnit() } }
    }

    /// A source that always returns `value` (e.g. 1 for the largest delay, 0 for none).
    public static func constant(_ value: Double) -> @Sendable () -> Double {
        { value }
    }
}
