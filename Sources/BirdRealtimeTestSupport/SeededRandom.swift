/// A seedable random source (SplitMix64) for backoff jitter in tests:
/// `options.random = SeededRandom.source(seed: 42)`.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `[0, 1]`.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) / Double(1 << 53 - 1)
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
