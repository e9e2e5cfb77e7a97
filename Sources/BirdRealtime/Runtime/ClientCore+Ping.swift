/// Round-trip times of protocol pings, and `ping(timeout:)` (docs/PROTOCOL.md § Liveness).
extension ClientCore {
    /// A `ping(timeout:)` call waiting for its pong.
    struct PingWaiter {
        var continuation: CheckedContinuation<Result<Duration, PingError>, Never>
        var timer: (any RealtimeTimer)?
    }

    /// Sends the dialect's ping now and starts a round-trip measurement.
    func sendProtocolPing() {
        roundTrip.pingSent(now: environment.clock.uptime)
        send([WireMessage(event: ProtocolEvent.ping.wireName(dialect), value: [:]).encode()])
    }

    /// A pong arrived: ends the measurement (if a ping was out), publishes it and answers the
    /// waiting `ping(timeout:)` calls.
    func pongReceived() {
        guard let rtt = roundTrip.pongReceived(now: arrivalTime) else { return }
        snapshot.withLock { $0.lastRoundTrip = rtt }
        log(.debug, "pong after \(rtt)")
        notify(.roundTrip(rtt))
        finishPings(.success(rtt))
    }

    /// `ping(timeout:)` on the queue: sends a ping unless not connected, and waits for the pong.
    func requestPing(
        timeout: Duration, _ continuation: CheckedContinuation<Result<Duration, PingError>, Never>
    ) {
        guard !isShutDown, case .connected = machine.state, transport != nil else {
            continuation.resume(returning: .failure(.notConnected))
            return
        }
        let id = nextPingId
        nextPingId += 1
        let timer = environment.clock.schedule(after: timeout, on: queue) { [weak self] in
            guard let self, let waiter = self.pingWaiters.removeValue(forKey: id) else { return }
            waiter.continuation.resume(returning: .failure(.timedOut(after: timeout)))
        }
        pingWaiters[id] = PingWaiter(continuation: continuation, timer: timer)
        sendProtocolPing()
    }

    /// The connection ended: the measurement under way is void and the waiting calls fail.
    func pingConnectionEnded() {
        roundTrip.connectionEnded()
        finishPings(.failure(.connectionClosed))
    }

    private func finishPings(_ result: Result<Duration, PingError>) {
        guard !pingWaiters.isEmpty else { return }
        let waiters = pingWaiters.values
        pingWaiters = [:]
        for waiter in waiters {
            waiter.timer?.cancel()
            waiter.continuation.resume(returning: result)
        }
    }
}
