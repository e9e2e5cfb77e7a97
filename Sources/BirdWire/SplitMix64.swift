/// The package's one seeded generator (SplitMix64, Steele–Lea–Flood 2014): the same seed gives the
/// same numbers on every machine, so scenario runs, chaos soaks and jitter in tests repeat exactly.
/// Not for secrets. `BirdRealtimeTestSupport.SeededRandom` wraps it for apps' tests.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator starting from `seed`.
    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`: the top 53 bits over 2⁵³.
    package mutating func nextUnit() -> Double {
        Double(next() >> 11) / Double(UInt64(1) << 53)
    }

    /// Uniform in `[0, 1]`: the top 53 bits over 2⁵³ − 1 (1 included, for a "largest delay" draw).
    package mutating func nextClosedUnit() -> Double {
        Double(next() >> 11) / Double((UInt64(1) << 53) - 1)
    }
}
