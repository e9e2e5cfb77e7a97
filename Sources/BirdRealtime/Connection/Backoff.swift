/// Exponential backoff with full jitter (docs/PROTOCOL.md § Reconnection): attempt *n* (from 0) waits a uniformly
/// random time in `[0, min(cap, base · 2ⁿ)]`. Pure: the random source is passed in.
///
/// Total for any values: a negative `base` or `cap` counts as zero, any attempt number is
/// accepted, and the doubling stops at `cap` (never overflows).
package struct Backoff: Sendable, Equatable {
    /// The first attempt's upper bound.
    package var base: Duration
    /// The largest upper bound.
    package var cap: Duration

    /// The protocol's backoff: base 1 s, cap 30 s.
    package init(base: Duration = .seconds(1), cap: Duration = .seconds(30)) {
        self.base = base
        self.cap = cap
    }

    /// The largest delay of attempt `attempt` (from 0): `min(cap, base · 2^attempt)`.
    package func upperBound(attempt: Int) -> Duration {
        let cap = max(.zero, self.cap)
        var bound = min(max(.zero, base), cap)
        var n = max(0, attempt)
        // Doubling a positive bound reaches any cap within 128 steps; a zero bound stays zero.
        while n > 0 && bound > .zero && bound < cap {
            bound = bound > cap / 2 ? cap : bound * 2
            n -= 1
        }
        return bound
    }

    /// The delay of attempt `attempt` for a random number `unit` in `[0, 1]` (clamped).
    package func delay(attempt: Int, unit: Double) -> Duration {
        let u = unit.isFinite ? min(1, max(0, unit)) : 0
        return upperBound(attempt: attempt) * u
    }
}
