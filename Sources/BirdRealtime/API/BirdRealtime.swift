import Foundation

/// A Bird Realtime client: one connection to an edge, its channels, and the member identity.
///
/// The client connects by itself on its private queue's next turn after `init`. All state lives
/// on that queue; the synchronous getters (`connectionState`, `connectionId`, `nextAttemptAt`,
/// `channel.subscribed`, `room.members`) read snapshots under a lock, so they may be called from
/// any thread. Handlers run on `options.deliveryQueue` (default `.main`), never under a lock;
/// they may be registered from any thread.
public final class BirdRealtime: Sendable {
    let core: ClientCore

    /// The options the client was created with.
    public var options: Options { core.options }

    /// Creates a client and starts connecting (asynchronously).
    public convenience init(options: Options) {
        self.init(options: options, environment: .live)
    }

    /// Creates a client with its outside world replaced — a `ManualClock` and a
    /// `ScriptedTransport` from BirdRealtimeTestSupport in tests.
    public init(options: Options, environment: RealtimeEnvironment) {
        let core = ClientCore(options: options, environment: environment)
        self.core = core
        core.queue.async { core.start() }
    }

    deinit {
        let core = self.core
        core.queue.async { core.shutdown() }
    }

    // MARK: - Connection

    /// The current state.
    public var connectionState: ConnectionState { core.snapshot.withLock { $0.state } }

    /// The connection id while `connected`.
    public var connectionId: String? { core.snapshot.withLock { $0.connectionId } }

    /// When the next reconnect attempt is due, while `unavailable` (for a countdown); nil while
    /// the client waits for the network (cause ``StateChangeCause/networkUnavailable(_:)``).
    public var nextAttemptAt: Date? { core.snapshot.withLock { $0.nextAttemptAt } }

    /// The network path as the client's monitor last reported it (`default via eth0 (IPv4)`);
    /// nil when the network is not watched (`Options.networkMonitor` disabled, a loopback host,
    /// a monitor that failed to start, or the client disconnected). docs/NETWORK.md.
    public var networkPath: NetworkPath? { core.snapshot.withLock { $0.networkPath } }

    /// The endpoint the latest connection attempt resolved through `Options.endpointProvider`
    /// (or the static one, when only handshake headers are provided); nil before the first answer.
    public var resolvedEndpoint: RealtimeEndpoint? { core.snapshot.withLock { $0.resolvedEndpoint } }

    /// The round-trip time of the latest protocol ping answered (`bird:ping` → `bird:pong`, or
    /// `pusher:ping` → `pusher:pong`), measured on the client's clock from sending the ping to
    /// the pong's arrival; nil before the first. Kept across reconnects until a newer one.
    public var lastRoundTrip: Duration? { core.snapshot.withLock { $0.lastRoundTrip } }

    /// Sends a protocol ping now and returns the round-trip time when its pong arrives (also
    /// reported to `onRoundTrip` and kept in ``lastRoundTrip``). A pong answers every ping out,
    /// so calls made while one is out share its measurement.
    ///
    /// - Throws: ``PingError/notConnected`` unless `connected`; ``PingError/timedOut(after:)``
    ///   when no pong arrives within `timeout` (the connection is left to the liveness rules);
    ///   ``PingError/connectionClosed`` when the connection ends first.
    public func ping(timeout: Duration = .seconds(5)) async throws(PingError) -> Duration {
        let core = self.core
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Duration, PingError>, Never>) in
            core.queue.async { core.requestPing(timeout: timeout, continuation) }
        }
        return try result.get()
    }

    /// Opens a connection from `disconnected` or `failed` (a fresh start: attempt counter reset);
    /// from `unavailable` it cuts the wait short. No effect while connecting or connected. While
    /// the network is down it goes (or stays) `unavailable` and connects when the network returns.
    public func connect() {
        core.queue.async { self.core.connect(cause: .connectCalled) }
    }

    /// Closes the connection; state `disconnected`, nothing scheduled. Channels and handlers
    /// are kept for a later `connect()`.
    public func disconnect() {
        core.queue.async { self.core.disconnect() }
    }

    /// Ends the socket without a close frame, as if the network died (the backoff path) — for
    /// tools and tests.
    public func dropConnection() {
        core.queue.async { self.core.perform(self.core.machine.drop()) }
    }

    // MARK: - Observers

    // State, retry, error, sign-in error and wire observers may be registered at any time: each
    // first receives what the current connection has reported since its `connecting` (its first
    // 1,000 notifications or 1 MiB of wire text), then everything newer, on the delivery queue.

    /// Calls `handler` with the previous and current state after every transition (first the
    /// current connection's transitions since its `connecting`).
    @discardableResult
    public func onConnectionStateChange(
        _ handler: @escaping @Sendable (_ previous: ConnectionState, _ current: ConnectionState) -> Void
    ) -> BindingToken {
        observe(.state) { if case .stateChange(let change) = $0 { handler(change.previous, change.current) } }
    }

    /// Calls `handler` after every transition, with its cause (first the current connection's
    /// transitions since its `connecting`).
    @discardableResult
    public func onStateChange(_ handler: @escaping @Sendable (StateChange) -> Void) -> BindingToken {
        observe(.state) { if case .stateChange(let change) = $0 { handler(change) } }
    }

    /// Calls `handler` once per scheduled reconnect with its delay and attempt number (from 0).
    @discardableResult
    public func onConnectingIn(_ handler: @escaping @Sendable (_ delay: Duration, _ attempt: Int) -> Void)
        -> BindingToken
    {
        observe(.retry) { if case .retryScheduled(let schedule) = $0 { handler(schedule.delay, schedule.attempt) } }
    }

    /// Calls `handler` once per scheduled reconnect with the whole schedule (delay, attempt, cause, time).
    @discardableResult
    public func onRetryScheduled(_ handler: @escaping @Sendable (RetrySchedule) -> Void) -> BindingToken {
        observe(.retry) { if case .retryScheduled(let schedule) = $0 { handler(schedule) } }
    }

    /// Calls `handler` for connection-level errors: refusal closes (4000–4099, with code and
    /// reason), `bird:error` naming no channel, a handshake without id, bad input, payloads a
    /// typed handler could not decode (``RealtimeError/Kind/payloadDecoding``) and encrypted
    /// events that did not decrypt (``RealtimeError/Kind/decryption``).
    @discardableResult
    public func onError(_ handler: @escaping @Sendable (RealtimeError) -> Void) -> BindingToken {
        observe(.error) { if case .error(let error) = $0 { handler(error) } }
    }

    /// Calls `handler` when signing in again on a new connection fails (never `onError`).
    @discardableResult
    public func onSigninError(_ handler: @escaping @Sendable (any BirdRealtimeError) -> Void) -> BindingToken {
        observe(.signinError) { if case .signinError(let error) = $0 { handler(error) } }
    }

    /// Calls `handler` with every protocol message sent or received, secrets redacted (first the
    /// current connection's messages since its `connecting`).
    @discardableResult
    public func onWireMessage(_ handler: @escaping @Sendable (_ direction: WireDirection, _ text: String) -> Void)
        -> BindingToken
    {
        observe(.wire) { if case .wireMessage(let direction, let text) = $0 { handler(direction, text) } }
    }

    /// Calls `handler` with each network path the monitor reports (the first when the monitor
    /// starts, then every change), before the state change it may cause. Nothing when the
    /// network is not watched. Read ``networkPath`` for the current one.
    @discardableResult
    public func onNetworkPathChange(_ handler: @escaping @Sendable (NetworkPath) -> Void) -> BindingToken {
        observe(.network) { if case .networkPath(let path) = $0 { handler(path) } }
    }

    /// Calls `handler` as each connection attempt resolves its endpoint (only with an
    /// `endpointProvider` or `handshakeHeadersProvider`): `.resolving` when the providers are
    /// asked (the state is `connecting`), then `.resolved` with the answer (header names only)
    /// or `.failed` with the reason before the backoff.
    @discardableResult
    public func onEndpointResolution(_ handler: @escaping @Sendable (EndpointResolution) -> Void) -> BindingToken {
        observe(.endpoint) { if case .endpoint(let resolution) = $0 { handler(resolution) } }
    }

    /// Calls `handler` with the round-trip time of each protocol ping answered — the client's
    /// own liveness pings and ``ping(timeout:)``'s — as the pong arrives.
    @discardableResult
    public func onRoundTrip(_ handler: @escaping @Sendable (Duration) -> Void) -> BindingToken {
        observe(.roundTrip) { if case .roundTrip(let rtt) = $0 { handler(rtt) } }
    }

    /// Calls `handler` with every state change, retry, error, sign-in error, wire message,
    /// network path, endpoint resolution and round trip in one stream, in the order they happened — what a
    /// recorder wants (first the current connection's notifications since its `connecting`).
    @discardableResult
    public func onActivity(_ handler: @escaping @Sendable (ClientActivity) -> Void) -> BindingToken {
        observe(.all, handler)
    }

    /// Calls `handler` with every event delivered to any channel (including the member channel
    /// and the lifecycle events), after the channel's own handlers. Only events delivered after
    /// it was registered.
    @discardableResult
    public func onChannelEvent(_ handler: @escaping @Sendable (ChannelEvent) -> Void) -> BindingToken {
        BindingToken(id: core.eventObservers.add(handler))
    }

    /// Removes a handler registered with one of the `on…` methods.
    public func unbind(_ token: BindingToken) {
        _ = core.activity.remove(token.id) || core.eventObservers.remove(token.id)
    }

    /// State changes as an async stream (each access makes a new stream; it starts with the
    /// current connection's transitions since its `connecting`).
    public var states: AsyncStream<StateChange> {
        let (stream, continuation) = AsyncStream<StateChange>.makeStream(bufferingPolicy: .unbounded)
        let id = core.activity.add(.state) { if case .stateChange(let change) = $0 { continuation.yield(change) } }
        let observers = core.activity
        continuation.onTermination = { _ in observers.remove(id) }
        return stream
    }

    private func observe(
        _ kinds: ActivityObservers.Kinds, _ handler: @escaping @Sendable (ClientActivity) -> Void
    ) -> BindingToken {
        BindingToken(id: core.activity.add(kinds, handler))
    }

    // MARK: - Channels

    /// Subscribes to `name` (now, or after the next `connected`) and returns its channel:
    /// a `PresenceChannel` for `presence-`, a `PrivateEncryptedChannel` for `private-encrypted-`
    /// (end-to-end encrypted: docs/ENCRYPTION.md), a `PrivateChannel` for other `private-`
    /// names, else a `Channel`.
    /// Subscribing to a name twice returns the same object.
    @discardableResult
    public func subscribe(_ name: String) -> Channel {
        core.subscribe(name)
    }

    /// Subscribes to `name`, resuming its stream after `position` (a ``ChannelEvent/position``
    /// the app persisted after applying that event): the edge replays what came after it, and
    /// ``Channel/continuity`` says whether anything was lost (Bird dialect; docs/LIFECYCLE.md
    /// § Continuity). When the channel is already held, it is returned as it is and `position`
    /// is ignored.
    public func subscribe(_ name: String, resumingFrom position: StreamPosition?) -> Channel {
        core.subscribe(name, resumingFrom: position)
    }

    /// Unsubscribes from `name` and forgets its channel (wins over a subscription still pending).
    public func unsubscribe(_ name: String) {
        core.unsubscribe(name)
    }

    /// The channel named `name`, if subscribed.
    public func channel(named name: String) -> Channel? {
        core.channelTable.withLock { $0[name] }
    }

    /// Every channel object, by name.
    public var channels: [Channel] {
        core.channelTable.withLock { table in table.values.sorted { $0.name < $1.name } }
    }

    // MARK: - Identity

    /// Signs this connection in as a member (through `memberAuthEndpoint` or `memberAuthorizer`),
    /// waiting for `connected` if needed. Concurrent calls share one request. Once it succeeded,
    /// the client signs in again on every new connection (failures then go to `onSigninError`).
    ///
    /// - Throws: ``ConfigurationError`` when neither member endpoint nor authorizer is set;
    ///   ``RealtimeAuthError`` when the endpoint fails; ``RealtimeError`` (`.notConnected`) when the
    ///   client is or becomes `disconnected`/`failed` first, `.timeout` when the edge does not answer.
    public func signin() async throws -> Member {
        let core = self.core
        return try await withCheckedThrowingContinuation { continuation in
            core.queue.async { core.requestSignin(continuation) }
        }
    }

    /// Forgets the identity; when the connection had one, reconnects at once without it.
    public func signout() {
        core.queue.async { self.core.signout() }
    }

    /// The member this connection is signed in as.
    public var currentMember: Member? { core.snapshot.withLock { $0.member } }

    /// Events addressed to the signed-in member.
    public var member: MemberEvents { core.memberEvents }

    // MARK: - Tests and tools

    /// Waits until the client has processed everything queued so far — transport events,
    /// in-flight authorizations — and the delivery queue has run the resulting handlers. An
    /// endpoint provider still thinking is not waited for (it may never answer).
    /// Do not call it from the delivery queue (or with `.main` as delivery queue unless the main
    /// queue is running).
    public func settle() async {
        await core.settle()
    }
}
