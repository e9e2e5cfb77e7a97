/// Member sign-in (docs/PROTOCOL.md § Sign-in): one shared request for concurrent callers,
/// redone on every new connection once it succeeded, failures then on `onSigninError`.
struct SigninState {
    enum Phase: Equatable {
        case idle
        case authorizing
        case awaitingSuccess
    }

    /// Sign in on every connection.
    var wanted = false
    /// A sign-in succeeded once (later failures go to `onSigninError`).
    var everSucceeded = false
    /// `signin()` callers waiting for the result.
    var waiters: [CheckedContinuation<Member, any Error>] = []
    var phase: Phase = .idle
    var token = 0
    /// The identity on the current connection.
    var member: Member?
    /// The member's reserved channel, subscribed on this connection.
    var memberChannel: String?
}

extension ClientCore {
    var hasMemberAuthorization: Bool { options.memberAuthorizer != nil || options.memberAuthEndpoint != nil }

    /// `signin()` on the queue.
    func requestSignin(_ continuation: CheckedContinuation<Member, any Error>) {
        guard !isShutDown else {
            continuation.resume(throwing: RealtimeError(kind: .cancelled, message: "the client was released"))
            return
        }
        guard hasMemberAuthorization else {
            continuation.resume(
                throwing: ConfigurationError(message: "signin() needs memberAuthEndpoint or memberAuthorizer"))
            return
        }
        if let member = signin.member {
            continuation.resume(returning: member)
            return
        }
        switch machine.state {
        case .disconnected, .failed:
            continuation.resume(
                throwing: RealtimeError(
                    kind: .notConnected,
                    message: "signin() needs a connection; the client is \(machine.state.publicState) (call connect())")
            )
            return
        default:
            break
        }
        signin.waiters.append(continuation)
        signin.wanted = true
        if let id = machine.connectionId, signin.phase == .idle {
            startSignin(connectionId: id)
        }
    }

    func signinOnConnect(connectionId: String) {
        guard signin.wanted, signin.phase == .idle else { return }
        startSignin(connectionId: connectionId)
    }

    private func startSignin(connectionId: String) {
        signin.token += 1
        signin.phase = .authorizing
        let token = signin.token
        log(.info, "signing in")
        startTask { [self] in
            let result = await self.authorizeSignin(connectionId: connectionId)
            self.queue.async { self.signinAuthorized(token: token, connectionId: connectionId, result: result) }
        }
    }

    private func signinAuthorized(token: Int, connectionId: String, result: Result<AuthResponse, RealtimeAuthError>) {
        guard !isShutDown, signin.token == token, signin.phase == .authorizing, machine.connectionId == connectionId
        else { return }
        switch result {
        case .failure(let error):
            signinFailed(error)
        case .success(let response):
            let data: JSONValue = [
                "auth": .string(response.auth), dialect.signinDataKey: .string(response.memberData ?? ""),
            ]
            send([WireMessage(event: ProtocolEvent.signin.wireName(dialect), value: data).encode()])
            signin.phase = .awaitingSuccess
            arm(.signin, after: options.subscribeTimeout) { core in
                guard core.signin.phase == .awaitingSuccess else { return }
                core.signinFailed(
                    RealtimeError(
                        kind: .timeout, message: "no answer to the sign-in within \(core.options.subscribeTimeout)"))
            }
        }
    }

    func handleSigninSuccess(_ message: WireMessage) {
        guard signin.phase == .awaitingSuccess else {
            log(.warning, "ignored \(message.event): no sign-in was pending")
            return
        }
        let raw = message.data?.value[dialect.signinDataKey]
        let identity: JSONValue? = raw.flatMap { value in
            if case .string(let text) = value { return JSONValue.fromPayload(text) }
            return value
        }
        guard let idValue = identity?[dialect.signinIdKey], idValue != .null else {
            signinFailed(
                RealtimeError(
                    kind: .missingField,
                    message: "\(message.event) carries no \(dialect.signinDataKey).\(dialect.signinIdKey)"))
            return
        }
        let id = idValue.stringValue ?? idValue.description
        let info = identity?[dialect.presenceInfoKey] ?? identity?["member_info"] ?? identity?["user_info"] ?? identity
        let member = Member(memberId: id, info: info)
        cancelTimer(.signin)
        signin.phase = .idle
        signin.member = member
        signin.everSucceeded = true
        snapshot.withLock { $0.member = member }
        log(.info, "signed in as \(id)")
        let waiters = signin.waiters
        signin.waiters = []
        for waiter in waiters { waiter.resume(returning: member) }
        let channel = dialect.memberChannel(memberId: id)
        signin.memberChannel = channel
        send([subscribeFrame(channel, auth: nil, memberData: nil)])
    }

    private func signinFailed(_ error: any BirdRealtimeError) {
        cancelTimer(.signin)
        signin.phase = .idle
        signin.token += 1
        if signin.waiters.isEmpty {
            reportSigninError(error)
        } else {
            log(.warning, "sign-in failed: \(error.message)")
            let waiters = signin.waiters
            signin.waiters = []
            if !signin.everSucceeded { signin.wanted = false }
            for waiter in waiters { waiter.resume(throwing: error) }
        }
    }

    /// The connection is gone: the identity was the connection's.
    func signinConnectionLost() {
        cancelTimer(.signin)
        signin.phase = .idle
        signin.token += 1
        signin.member = nil
        signin.memberChannel = nil
        snapshot.withLock { $0.member = nil }
    }

    /// The client reached `disconnected` or `failed`: waiting callers are told.
    func connectionEnded() {
        guard !signin.waiters.isEmpty else { return }
        let waiters = signin.waiters
        signin.waiters = []
        if !signin.everSucceeded { signin.wanted = false }
        let error = RealtimeError(
            kind: .notConnected,
            message: "the connection ended (\(machine.state.publicState)) before the sign-in completed")
        for waiter in waiters { waiter.resume(throwing: error) }
    }

    /// `signout()` on the queue.
    func signout() {
        let hadIdentity = signin.member != nil || signin.phase != .idle
        signin.wanted = false
        signin.everSucceeded = false
        let waiters = signin.waiters
        signin.waiters = []
        for waiter in waiters {
            waiter.resume(throwing: RealtimeError(kind: .cancelled, message: "signout() was called"))
        }
        signinConnectionLost()
        log(.info, "signed out")
        if hadIdentity {
            perform(machine.reconnectNow(cause: .signout))
        }
    }
}
