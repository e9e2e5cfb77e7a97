extension Duration {
    /// The duration in whole nanoseconds within `0...Int64.max` (about 292 years): a negative
    /// duration counts as zero and a longer one as the maximum. Timers convert durations that
    /// come from options or the network with this, never with unchecked arithmetic.
    package var clampedNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return .max }
        let (total, carry) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return carry ? .max : total
    }
}
