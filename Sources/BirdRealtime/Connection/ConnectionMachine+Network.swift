/// The network and endpoint inputs of ``ConnectionMachine`` (docs/NETWORK.md, docs/LIFECYCLE.md
/// "Network" and "Endpoint"). The driver calls `networkLost` when the path goes from usable to
/// unusable, `networkRestored` for the reverse, and `pathChanged` when a usable path gets a new
/// generation (addresses or default routes changed).
extension ConnectionMachine {
    /// The network became unusable (`description`: the path, `no default route`).
    ///
    /// - `connecting` (resolving, opening or awaiting the handshake): the attempt is abandoned
    ///   (socket aborted); `unavailable`, waiting for the network.
    /// - `unavailable` with a retry pending: the retry is cancelled; a transition
    ///   `unavailable → unavailable` says why the countdown stopped.
    /// - `connected`: a ping now (unless one is out). A socket may survive a short outage; if
    ///   the pong does not come, the pong timeout leads to `unavailable` (no network), not to a
    ///   reconnect.
    /// - other states: only remembered (a later `connect()` waits for the network).
    mutating func networkLost(_ description: String) -> [Action] {
        let wasUsable = networkUsable
        networkUsable = false
        networkDescription = description
        guard wasUsable else { return [] }
        switch state {
        case .connecting:
            return [.abortTransport] + waitForNetwork()
        case .unavailable:
            return [
                .cancelRetry,
                .changeState(
                    StateChange(previous: .unavailable, current: .unavailable, cause: .networkUnavailable(description))
                ),
            ]
        case .connected:
            return probe(reason: "network lost (\(description))")
        case .initialized, .disconnected, .failed:
            return []
        }
    }

    /// The network became usable again (`description`: the path, `default via eth0 (IPv4)`).
    ///
    /// - `unavailable` (waiting for the network): backoff reset, connect now, cause
    ///   ``StateChangeCause/networkRestored(_:)``.
    /// - `connected` (the socket outlived the outage): a ping now, unless one is out.
    /// - other states: only remembered.
    mutating func networkRestored(_ description: String) -> [Action] {
        let wasUsable = networkUsable
        networkUsable = true
        networkDescription = description
        guard !wasUsable else { return pathChanged(description) }
        switch state {
        case .unavailable:
            attempt = 0
            return open(cause: .networkRestored(description))
        case .connected:
            return probe(reason: "network back (\(description))")
        case .initialized, .connecting, .disconnected, .failed:
            return []
        }
    }

    /// A usable path changed (new addresses or default routes).
    ///
    /// - `connected`: a ping now unless one is out, so a socket that died with the old path is
    ///   found within the pong timeout instead of the activity timeout.
    /// - `unavailable` with a retry pending: backoff reset, connect now, cause
    ///   ``StateChangeCause/networkChanged(_:)`` (a new network is worth trying at once).
    /// - other states (an attempt under way included): nothing.
    mutating func pathChanged(_ description: String) -> [Action] {
        networkDescription = description
        guard networkUsable else { return [] }
        switch state {
        case .connected:
            return probe(reason: "network changed (\(description))")
        case .unavailable:
            attempt = 0
            return [.cancelRetry] + open(cause: .networkChanged(description))
        case .initialized, .connecting, .disconnected, .failed:
            return []
        }
    }

    /// The network is no longer watched (the monitor stopped): usable as far as the machine
    /// knows. Changes no state; a client waiting for the network is not left so by this alone.
    mutating func networkUnwatched() {
        networkUsable = true
    }

    /// The endpoint provider (or the handshake headers provider) threw, did not answer within
    /// the endpoint timeout, or answered something the security rules refuse: the attempt is
    /// abandoned and takes the backoff path with ``StateChangeCause/endpointUnavailable(_:)``.
    /// Only while no socket is open yet (resolving); stale answers do nothing.
    mutating func endpointFailed(_ reason: String) -> [Action] {
        guard case .connecting(socketOpen: false) = state else { return [] }
        return [.abortTransport] + backoffPath(cause: .endpointUnavailable(reason))
    }

    /// A ping now, unless one is out (then its pong timer decides).
    private mutating func probe(reason: String) -> [Action] {
        guard case .connected = state, case .ping(let pongTimeout)? = liveness.probe() else { return [] }
        return [.cancelLiveness, .pingNow(pongTimeout: pongTimeout, reason: reason)]
    }
}
