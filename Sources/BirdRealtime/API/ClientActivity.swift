/// One notification about the client's connection, as `onActivity` observers receive them: every
/// kind in one stream, in the order they happened.
///
/// Each case is also delivered to its own observer (`onStateChange`, `onRetryScheduled`,
/// `onError`, `onSigninError`, `onWireMessage`, `onNetworkPathChange`, `onEndpointResolution`,
/// `onRoundTrip`); a recorder that wants one ordered log of all of
/// them registers once with `onActivity`.
public enum ClientActivity: Sendable, CustomStringConvertible {
    /// A state transition (`onStateChange`).
    case stateChange(StateChange)
    /// A reconnect was scheduled (`onRetryScheduled`).
    case retryScheduled(RetrySchedule)
    /// A connection-level error (`onError`).
    case error(RealtimeError)
    /// Signing in again on a new connection failed (`onSigninError`).
    case signinError(any BirdRealtimeError)
    /// A protocol message sent or received, secrets redacted (`onWireMessage`).
    case wireMessage(WireDirection, String)
    /// The network path monitor reported a new path (`onNetworkPathChange`).
    case networkPath(NetworkPath)
    /// The endpoint of the attempt under way is being resolved, was resolved, or could not be
    /// (`onEndpointResolution`; only with an endpoint or handshake headers provider).
    case endpoint(EndpointResolution)
    /// A protocol ping was answered after this round-trip time (`onRoundTrip`).
    case roundTrip(Duration)

    public var description: String {
        switch self {
        case .stateChange(let change): return "state \(change)"
        case .retryScheduled(let schedule): return "retry in \(schedule.delay) (attempt \(schedule.attempt))"
        case .error(let error): return "error \(error)"
        case .signinError(let error): return "sign-in error \(error.message)"
        case .wireMessage(let direction, let text): return "\(direction) \(text)"
        case .networkPath(let path): return "network \(path)"
        case .endpoint(let resolution): return resolution.description
        case .roundTrip(let rtt): return "round trip \(rtt)"
        }
    }
}
