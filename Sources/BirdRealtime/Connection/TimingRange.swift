/// The ranges the client holds its liveness times to (docs/LIFECYCLE.md, "Ranges"). Values from
/// the network (the handshake's `activity_timeout`) and from the options go through here before
/// any arithmetic or timer sees them, so no edge and no option can make the client trap or spin.
enum TimingRange {
    /// The activity timeout in force: 1 s to 1 h.
    static let activityTimeout: ClosedRange<Duration> = .seconds(1) ... .seconds(3600)
    /// The pong timeout (also the wait for the handshake): 1 s to 1 h.
    static let pongTimeout: ClosedRange<Duration> = .seconds(1) ... .seconds(3600)

    /// `value` moved into `range` (below → lower bound, above → upper bound).
    static func clamp(_ value: Duration, to range: ClosedRange<Duration>) -> Duration {
        min(max(value, range.lowerBound), range.upperBound)
    }

    /// The handshake's `activity_timeout` (seconds, any JSON number) as a duration in
    /// ``activityTimeout``, or nil when it is not a positive finite number (then it is ignored).
    /// Huge values (`1e16`) become the upper bound; tiny ones (`0.001`) the lower bound.
    static func handshakeActivityTimeout(seconds: Double) -> Duration? {
        guard seconds.isFinite, seconds > 0 else { return nil }
        let upper = activityTimeout.upperBound
        // Compared as seconds before converting: the conversion itself never sees a large value.
        guard seconds < Double(upper.components.seconds) else { return upper }
        return clamp(.milliseconds(Int64((seconds * 1000).rounded())), to: activityTimeout)
    }
}
