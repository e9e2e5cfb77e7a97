/// The connection lifecycle (docs/PROTOCOL.md § States to § Liveness) as a value: each input is a mutating function
/// that returns the actions a driver must perform. No sockets, clocks or queues inside — times
/// come in as arguments and randomness through ``random``.
///
/// The network inputs (`networkLost`, `networkRestored`, `pathChanged`) and the endpoint input
/// (`endpointFailed`) are in `ConnectionMachine+Network.swift`. While the network is known to
/// be unusable the machine never opens a transport: every path that would (connect, retry,
/// reconnect now) ends in `unavailable` with ``StateChangeCause/networkUnavailable(_:)`` and
/// nothing scheduled, until `networkRestored`.
struct ConnectionMachine: Sendable {
    /// The machine's state; cases carry their data.
    enum State: Sendable, Equatable {
        case initialized
        /// A socket is opening (`socketOpen == false`) or open and waiting for the handshake.
        case connecting(socketOpen: Bool)
        case connected(connectionId: String)
        case unavailable
        case disconnected
        case failed

        var publicState: ConnectionState {
            switch self {
            case .initialized: return .initialized
            case .connecting: return .connecting
            case .connected: return .connected
            case .unavailable: return .unavailable
            case .disconnected: return .disconnected
            case .failed: return .failed
            }
        }
    }

    /// What the driver must do, in order.
    enum Action: Sendable, Equatable {
        /// Open a new transport (detaching any previous one).
        case openTransport
        /// Close the current transport with a close frame and detach from it.
        case closeTransport(code: Int, reason: String)
        /// Drop the current transport without a close frame and detach from it.
        case abortTransport
        /// Record the connection id (before the state becomes `connected`).
        case setConnectionId(String)
        /// Publish a state change.
        case changeState(StateChange)
        /// Schedule a reconnect attempt.
        case scheduleRetry(delay: Duration, attempt: Int, cause: StateChangeCause)
        /// Cancel a scheduled reconnect attempt.
        case cancelRetry
        /// Arm the activity check.
        case scheduleActivityCheck(after: Duration)
        /// Send a ping and arm the pong timer.
        case sendPing(pongTimeout: Duration)
        /// Send a ping at once, for `reason` (the network changed), and arm the pong timer.
        case pingNow(pongTimeout: Duration, reason: String)
        /// Cancel the activity check and the pong timer (and the handshake timer).
        case cancelLiveness
        /// Arm the handshake timer: an open socket must get its handshake within this time.
        case scheduleHandshakeTimeout(after: Duration)
        /// The connection is up: re-subscribe channels, sign in again.
        case didConnect(connectionId: String)
        /// The connection is gone: subscriptions and identity are void.
        case didLoseConnection
        /// Report a connection-level error.
        case reportError(RealtimeError)
    }

    private(set) var state: State = .initialized
    /// The next backoff attempt number (from 0); reset by every successful handshake.
    /// (Settable within the module for the inputs in other files; only inputs change it.)
    var attempt = 0
    let backoff: Backoff
    /// `options.activityTimeout`, clamped to ``TimingRange/activityTimeout``.
    let activityTimeoutOption: Duration
    var liveness: Liveness
    /// Returns a number in `[0, 1]` for jitter.
    let random: @Sendable () -> Double
    /// Whether the network is usable as far as the driver knows (true without a monitor).
    /// Like ``attempt``, changed only by the inputs.
    var networkUsable = true
    /// The network path's description, for ``StateChangeCause/networkUnavailable(_:)``.
    var networkDescription = "no default route"

    /// `unavailable` and waiting for the network: no retry is scheduled.
    var waitingForNetwork: Bool { state == .unavailable && !networkUsable }

    init(
        backoff: Backoff = Backoff(), activityTimeout: Duration, pongTimeout: Duration,
        random: @escaping @Sendable () -> Double
    ) {
        self.backoff = backoff
        let activityTimeout = TimingRange.clamp(activityTimeout, to: TimingRange.activityTimeout)
        self.activityTimeoutOption = activityTimeout
        self.liveness = Liveness(
            activityTimeout: activityTimeout, pongTimeout: TimingRange.clamp(pongTimeout, to: TimingRange.pongTimeout))
        self.random = random
    }

    var connectionId: String? {
        if case .connected(let id) = state { return id }
        return nil
    }

    // MARK: - App commands

    /// `connect()` or the automatic start: from `initialized`, `disconnected`, `failed` (a fresh
    /// start, attempt counter reset) or `unavailable` (the wait is cut short). Without a network
    /// it goes (or stays) `unavailable`, waiting for the network.
    mutating func connect(cause: StateChangeCause) -> [Action] {
        switch state {
        case .initialized, .disconnected, .failed:
            attempt = 0
            return open(cause: cause)
        case .unavailable:
            if waitingForNetwork { return [] }
            return [.cancelRetry] + open(cause: cause)
        case .connecting, .connected:
            return []
        }
    }

    /// `disconnect()`: state `disconnected`, nothing scheduled, whatever the server answers.
    mutating func disconnect() -> [Action] {
        let previous = state
        switch state {
        case .disconnected:
            return []
        case .initialized, .failed:
            state = .disconnected
            return [change(from: previous, cause: .disconnectCalled)]
        case .unavailable:
            state = .disconnected
            return [.cancelRetry, change(from: previous, cause: .disconnectCalled)]
        case .connecting, .connected:
            state = .disconnected
            return leave(previous) + [
                .closeTransport(code: 1000, reason: "client disconnect"),
                change(from: previous, cause: .disconnectCalled),
            ]
        }
    }

    /// `dropConnection()`: the socket ends without a close frame; the backoff path.
    mutating func drop() -> [Action] {
        switch state {
        case .connecting, .connected:
            return [.abortTransport] + backoffPath(cause: .dropped)
        default:
            return []
        }
    }

    /// Close the current socket and open a new one at once (`signout()`).
    mutating func reconnectNow(cause: StateChangeCause) -> [Action] {
        switch state {
        case .connecting, .connected:
            return reopen(cause: cause, closing: .closeTransport(code: 1000, reason: "reconnecting"))
        default:
            return []
        }
    }

    /// The options cannot be used: state `failed`, error reported.
    mutating func refuse(_ error: ConfigurationError) -> [Action] {
        let previous = state
        var actions = leave(previous)
        switch previous {
        case .connecting, .connected: actions.append(.abortTransport)
        case .unavailable: actions.append(.cancelRetry)
        default: break
        }
        state = .failed
        if previous != .failed {
            actions.append(change(from: previous, cause: .configuration(error.message)))
        }
        actions.append(.reportError(RealtimeError(kind: .configuration, message: error.message)))
        return actions
    }

    // MARK: - Transport events

    /// The socket opened; the state stays `connecting` until the handshake.
    mutating func transportOpened() -> [Action] {
        guard case .connecting(socketOpen: false) = state else { return [] }
        state = .connecting(socketOpen: true)
        return [.scheduleHandshakeTimeout(after: liveness.pongTimeout)]
    }

    /// The socket opened but no handshake arrived in time: close it and back off (never sit in
    /// `connecting` forever).
    mutating func handshakeTimerFired() -> [Action] {
        guard case .connecting(socketOpen: true) = state else { return [] }
        return [.closeTransport(code: 1000, reason: "no handshake")]
            + backoffPath(cause: .networkError("no handshake within \(liveness.pongTimeout)"))
    }

    /// The server's handshake arrived at `now` (monotonic). `activityTimeoutSeconds` is the
    /// handshake's number as sent: anything but a positive finite number is ignored, and the
    /// timeout in force is `min(option, handshake's)` within ``TimingRange/activityTimeout``.
    mutating func handshake(connectionId: String?, activityTimeoutSeconds: Double?, now: Duration) -> [Action] {
        guard case .connecting = state else { return [] }
        guard let id = connectionId, !id.isEmpty else {
            let error = RealtimeError(
                kind: .handshakeWithoutId, code: 1002,
                message: "the handshake carried no connection id")
            return [.reportError(error), .closeTransport(code: 1002, reason: "handshake without connection id")]
                + backoffPath(cause: .handshakeWithoutId)
        }
        var timeout = activityTimeoutOption
        if let seconds = activityTimeoutSeconds, let offered = TimingRange.handshakeActivityTimeout(seconds: seconds) {
            timeout = min(timeout, offered)
        }
        let previous = state
        attempt = 0
        state = .connected(connectionId: id)
        var actions: [Action] = [
            .cancelLiveness, .setConnectionId(id),
            .changeState(
                StateChange(
                    previous: previous.publicState, current: .connected,
                    cause: .handshake, connectionId: id, activityTimeout: timeout)),
        ]
        if case .scheduleCheck(let after) = liveness.start(now: now, activityTimeout: timeout) {
            actions.append(.scheduleActivityCheck(after: after))
        }
        actions.append(.didConnect(connectionId: id))
        return actions
    }

    /// The socket ended. `initiatedLocally` covers the transport failing the connection for a
    /// protocol violation; `networkError` describes a failure with no close frame.
    mutating func transportClosed(code: Int, reason: String, initiatedLocally: Bool, networkError: String?) -> [Action]
    {
        switch state {
        case .connecting, .connected: break
        default: return []
        }
        if let networkError {
            return backoffPath(cause: .networkError(networkError))
        }
        if initiatedLocally {
            return backoffPath(cause: .protocolViolation(code: code, reason: reason))
        }
        let reached: Bool
        if case .connected = state { reached = true } else { reached = false }
        switch CloseCode.action(forServerClose: code, reachedConnected: reached) {
        case .fail:
            let previous = state
            state = .failed
            let error = RealtimeError(
                kind: .refused, code: code, message: CloseCode.meaning(code),
                reason: reason.isEmpty ? nil : reason)
            return leave(previous) + [
                change(from: previous, cause: .serverClose(code: code, reason: reason)),
                .reportError(error),
            ]
        case .reconnectNow:
            return reopen(cause: .serverClose(code: code, reason: reason))
        case .backoff:
            return backoffPath(
                cause: code == 1006 ? .networkError("connection lost (1006)") : .serverClose(code: code, reason: reason)
            )
        }
    }

    /// The client itself closes for a server's protocol violation (1002, 1007, 1009).
    mutating func protocolViolation(code: Int, reason: String) -> [Action] {
        switch state {
        case .connecting, .connected:
            return [.closeTransport(code: code, reason: reason)]
                + backoffPath(cause: .protocolViolation(code: code, reason: reason))
        default:
            return []
        }
    }

    // MARK: - Timers and activity

    /// The backoff wait ended.
    mutating func retryTimerFired() -> [Action] {
        guard state == .unavailable, networkUsable else { return [] }
        return open(cause: .retry(attempt: max(0, attempt - 1)))
    }

    /// A message arrived at `now`.
    mutating func inbound(now: Duration) -> [Action] {
        guard case .connected = state else { return [] }
        if case .scheduleCheck(let after)? = liveness.inbound(now: now) {
            return [.cancelLiveness, .scheduleActivityCheck(after: after)]
        }
        return []
    }

    /// The activity check fired at `now`.
    mutating func activityCheckFired(now: Duration) -> [Action] {
        guard case .connected = state else { return [] }
        switch liveness.checkFired(now: now) {
        case .scheduleCheck(let after): return [.scheduleActivityCheck(after: after)]
        case .ping(let pongTimeout): return [.sendPing(pongTimeout: pongTimeout)]
        case .timedOut: return []
        }
    }

    /// The pong timer fired: close with 4201 and go straight to `connecting` (without a network:
    /// `unavailable`, waiting for it).
    mutating func pongTimerFired() -> [Action] {
        guard case .connected = state, liveness.pongTimerFired() == .timedOut else { return [] }
        return reopen(
            cause: .pongTimeout, closing: .closeTransport(code: CloseCode.pongTimeout, reason: "pong not received"))
    }

    // MARK: - Helpers (internal for the extensions in other files)

    /// `connecting` with a new transport from a state with no socket — or, without a network,
    /// `unavailable` waiting for it.
    mutating func open(cause: StateChangeCause) -> [Action] {
        guard networkUsable else { return waitForNetwork() }
        let previous = state
        state = .connecting(socketOpen: false)
        return [change(from: previous, cause: cause), .openTransport]
    }

    /// From `connecting`/`connected` straight to `connecting` with a new transport, after
    /// `closing` (the old socket's end) — or, without a network, `unavailable` waiting for it.
    mutating func reopen(cause: StateChangeCause, closing: Action? = nil) -> [Action] {
        guard networkUsable else { return waitForNetwork(closing: closing) }
        let previous = state
        state = .connecting(socketOpen: false)
        return leave(previous) + (closing.map { [$0] } ?? []) + [change(from: previous, cause: cause), .openTransport]
    }

    /// `unavailable` with nothing scheduled, cause ``StateChangeCause/networkUnavailable(_:)``,
    /// after `closing` (the old socket's end, if any).
    mutating func waitForNetwork(closing: Action? = nil) -> [Action] {
        let previous = state
        state = .unavailable
        return leave(previous) + (closing.map { [$0] } ?? [])
            + [change(from: previous, cause: .networkUnavailable(networkDescription))]
    }

    /// `unavailable` and a retry after a full-jitter delay (without a network: no retry, waiting
    /// for it).
    mutating func backoffPath(cause: StateChangeCause) -> [Action] {
        guard networkUsable else { return waitForNetwork() }
        let previous = state
        state = .unavailable
        let n = attempt
        attempt += 1
        let delay = backoff.delay(attempt: n, unit: random())
        return leave(previous) + [
            change(from: previous, cause: cause),
            .scheduleRetry(delay: delay, attempt: n, cause: cause),
        ]
    }

    /// Actions for leaving `previous` (liveness off; channels void when it was `connected`).
    func leave(_ previous: State) -> [Action] {
        switch previous {
        case .connected: return [.cancelLiveness, .didLoseConnection]
        case .connecting: return [.cancelLiveness]
        default: return []
        }
    }

    func change(from previous: State, cause: StateChangeCause) -> Action {
        .changeState(
            StateChange(
                previous: previous.publicState, current: state.publicState, cause: cause,
                connectionId: connectionId))
    }
}
