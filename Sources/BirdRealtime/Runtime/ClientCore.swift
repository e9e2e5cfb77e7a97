import Foundation

/// The driver: owns the connection machine and performs its actions on one private serial queue.
/// Everything marked "queue-confined" is touched only on ``queue``; the `Locked` values are the
/// snapshots that the synchronous getters read from any thread.
final class ClientCore: @unchecked Sendable {
    struct Snapshot {
        var state: ConnectionState = .initialized
        var connectionId: String?
        var nextAttemptAt: Date?
        var member: Member?
        /// The network path as the monitor last reported it; nil when not watched.
        var networkPath: NetworkPath?
        /// The endpoint the latest attempt resolved through the providers.
        var resolvedEndpoint: RealtimeEndpoint?
        /// The latest protocol ping's round-trip time (`ClientCore+Ping.swift`).
        var lastRoundTrip: Duration?
    }

    enum TimerKind: Hashable {
        case retry, activity, pong, signin, handshake, endpoint
        /// The one timer of every subscribe timeout (``SubscribeTimeouts``).
        case subscribe
    }

    struct TimerSlot {
        var generation = 0
        var timer: (any RealtimeTimer)?
    }

    let options: BirdRealtime.Options
    let environment: RealtimeEnvironment
    let dialect: Dialect
    let queue = DispatchQueue(label: "com.bird.realtime.client")
    let deliverer: Deliverer
    let memberEvents = MemberEvents()
    let socketURL: Result<URL, ConfigurationError>

    // MARK: Shared (locked)
    let snapshot = Locked(Snapshot())
    let channelTable = Locked<[String: Channel]>([:])
    let liveTransport = Locked<(any Transport)?>(nil)
    /// Observers of state changes, retries, errors, sign-in errors and wire messages, with the
    /// current connection's start-up buffer.
    let activity: ActivityObservers
    let eventObservers = ObserverList<@Sendable (ChannelEvent) -> Void>()

    // MARK: Queue-confined
    // The client's serial queue keeps accesses to these apart: the ones on the inbound path (per
    // message) skip Swift's dynamic exclusivity check (≈ 80 instructions per access, several per
    // event) with `@exclusivity(unchecked)`. Never pass one of them `inout` to code that can reach
    // it again (the compiler's static checks still apply; nothing checks at run time).
    @exclusivity(unchecked) var machine: ConnectionMachine
    var transport: (any Transport)?
    @exclusivity(unchecked) var transportGeneration = 0
    var timers: [TimerKind: TimerSlot] = [:]
    @exclusivity(unchecked) var records: [String: SubscriptionRecord] = [:] {
        didSet { routeMemo = nil }
    }
    /// The channel the last channel event was routed to (a stream of one channel's events
    /// compares names instead of hashing them); forgotten by every change to ``records``.
    @exclusivity(unchecked) var routeMemo: (name: String, channel: Channel)?
    /// The deadlines of the subscriptions waiting for their answer, served by the `subscribe` timer.
    var subscribeTimeouts = SubscribeTimeouts()
    @exclusivity(unchecked) var signin = SigninState()
    var inflight: [Int: Task<Void, Never>] = [:]
    var nextTaskId = 0
    @exclusivity(unchecked) var isShutDown = false
    /// The network path monitor and what it last said (`ClientCore+Network.swift`).
    var network: NetworkWatch
    /// The endpoint resolution under way, if any (`ClientCore+Endpoint.swift`).
    var endpointWork: EndpointWork?
    /// How many more notifications (and bytes of wire text) the start-up buffer takes on this
    /// connection, so that wire messages nobody taps are handed over only while it does.
    @exclusivity(unchecked) var startupBudget = (items: ActivityObservers.maxItems, bytes: ActivityObservers.maxBytes)
    /// Deliveries made while a transport batch is handled; handed to the deliverer together when
    /// the batch ends (one lock and at most one hop onto the delivery queue per socket read).
    @exclusivity(unchecked) var staged: [Deliverer.Item] = []
    /// Greater than zero while a transport batch is handled.
    @exclusivity(unchecked) var stagingDepth = 0
    /// The clock's uptime when the transport batch being handled arrived (read once per batch).
    @exclusivity(unchecked) var batchArrival: Duration?
    /// The round-trip measurement of the protocol ping out, if any, and the `ping(timeout:)`
    /// calls waiting for its pong (`ClientCore+Ping.swift`).
    var roundTrip = RoundTripMeter()
    var pingWaiters: [Int: PingWaiter] = [:]
    var nextPingId = 0

    init(options: BirdRealtime.Options, environment: RealtimeEnvironment) {
        self.options = options
        self.environment = environment
        self.dialect = options.dialect
        let deliverer = Deliverer(queue: options.deliveryQueue)
        self.deliverer = deliverer
        let logHandler = options.logHandler
        activity = ActivityObservers(deliverer: deliverer) { level, message in logHandler?(level, message) }
        self.machine = ConnectionMachine(
            activityTimeout: options.activityTimeout, pongTimeout: options.pongTimeout,
            random: options.random)
        do throws(ConfigurationError) {
            socketURL = .success(try ConnectionURL.make(options))
        } catch {
            socketURL = .failure(error)
        }
        network = NetworkWatch(monitor: Self.chooseMonitor(options))
        memberEvents.reporter.withLock { $0 = { [weak self] error in self?.reportErrorFromAnyThread(error) } }
    }

    // MARK: - Commands (on the queue)

    func start() {
        guard !isShutDown, machine.state == .initialized else { return }
        connect(cause: .start)
    }

    func connect(cause: StateChangeCause) {
        guard !isShutDown else { return }
        switch socketURL {
        case .failure(let error):
            perform(machine.refuse(error))
        case .success:
            startNetworkMonitor()
            perform(machine.connect(cause: cause))
        }
    }

    /// `disconnect()`: the machine's, then the network monitor stops (a later `connect()`
    /// starts it again).
    func disconnect() {
        guard !isShutDown else { return }
        perform(machine.disconnect())
        stopNetworkMonitor()
    }

    func shutdown() {
        guard !isShutDown else { return }
        isShutDown = true
        for kind in Array(timers.keys) { cancelTimer(kind) }
        _ = subscribeTimeouts.stopAll()
        records = [:]
        // Channels hold the core; forgetting them breaks the cycle so the core can be freed.
        let channels = channelTable.withLock { table -> [Channel] in
            defer { table = [:] }
            return Array(table.values)
        }
        for channel in channels { channel.reset() }
        detachTransport()?.close(code: 1000, reason: "client released")
        stopNetworkMonitor()
        for task in inflight.values { task.cancel() }
        pingConnectionEnded()
        let waiters = signin.waiters
        signin.waiters = []
        for waiter in waiters {
            waiter.resume(throwing: RealtimeError(kind: .cancelled, message: "the client was released"))
        }
    }

    // MARK: - Actions

    func perform(_ actions: [ConnectionMachine.Action]) {
        for action in actions {
            switch action {
            case .openTransport:
                openTransport()
            case .closeTransport(let code, let reason):
                detachTransport()?.close(code: code, reason: reason)
            case .abortTransport:
                detachTransport()?.abort()
            case .setConnectionId(let id):
                snapshot.withLock { $0.connectionId = id }
            case .changeState(let change):
                publish(change)
            case .scheduleRetry(let delay, let attempt, let cause):
                scheduleRetry(delay: delay, attempt: attempt, cause: cause)
            case .cancelRetry:
                cancelTimer(.retry)
                snapshot.withLock { $0.nextAttemptAt = nil }
            case .scheduleActivityCheck(let after):
                arm(.activity, after: after) { core in
                    _ = core.heardWhileHeldBack()
                    core.perform(core.machine.activityCheckFired(now: core.environment.clock.uptime))
                }
            case .sendPing(let pongTimeout):
                log(.debug, "no activity for \(machine.liveness.activityTimeout); sending ping")
                sendProtocolPing()
                arm(.pong, after: pongTimeout) { core in
                    if core.heardWhileHeldBack() { return }
                    core.perform(core.machine.pongTimerFired())
                }
            case .pingNow(let pongTimeout, let reason):
                log(.info, "\(reason); sending ping now")
                sendProtocolPing()
                arm(.pong, after: pongTimeout) { core in
                    if core.heardWhileHeldBack() { return }
                    core.perform(core.machine.pongTimerFired())
                }
            case .cancelLiveness:
                cancelTimer(.activity)
                cancelTimer(.pong)
                cancelTimer(.handshake)
            case .scheduleHandshakeTimeout(let after):
                arm(.handshake, after: after) { core in core.perform(core.machine.handshakeTimerFired()) }
            case .didConnect(let id):
                resubscribeAll(connectionId: id)
                signinOnConnect(connectionId: id)
            case .didLoseConnection:
                connectionLost()
                pingConnectionEnded()
            case .reportError(let error):
                reportError(error)
            }
        }
    }

    private func publish(_ change: StateChange) {
        snapshot.withLock { s in
            s.state = change.current
            if change.current != .connected { s.connectionId = nil }
            if change.current != .unavailable { s.nextAttemptAt = nil }
        }
        log(change.current == .failed ? .error : .info, "state \(change)")
        if change.current == .disconnected || change.current == .failed {
            connectionEnded()
        }
        if change.current == .connecting {
            startupBudget = (ActivityObservers.maxItems, ActivityObservers.maxBytes)
        }
        notify(.stateChange(change))
    }

    private func scheduleRetry(delay: Duration, attempt: Int, cause: StateChangeCause) {
        let at = environment.clock.wallNow.addingTimeInterval(delay.seconds)
        snapshot.withLock { $0.nextAttemptAt = at }
        log(.info, "reconnecting in \(delay) (attempt \(attempt), \(cause))")
        arm(.retry, after: delay) { core in
            core.snapshot.withLock { $0.nextAttemptAt = nil }
            core.perform(core.machine.retryTimerFired())
        }
        notify(.retryScheduled(RetrySchedule(delay: delay, attempt: attempt, cause: cause, at: at)))
    }

    // MARK: - Timers

    /// Liveness under flow control: while the transport holds back reads because deliveries are
    /// behind, the server's latest messages (a pong among them) may wait unread behind data this
    /// client has not consumed yet, so that backlog counts as activity now — a slow handler must
    /// not make a live connection look dead. Returns whether it did.
    func heardWhileHeldBack() -> Bool {
        guard let flow = transport as? any InboundFlowControl, flow.isHoldingBack else { return false }
        perform(machine.inbound(now: environment.clock.uptime))
        return true
    }

    /// Arms the timer `kind` (replacing a previous one); `fire` runs on the queue unless cancelled.
    func arm(_ kind: TimerKind, after delay: Duration, _ fire: @escaping @Sendable (ClientCore) -> Void) {
        var slot = timers[kind] ?? TimerSlot()
        slot.timer?.cancel()
        slot.generation += 1
        let generation = slot.generation
        slot.timer = environment.clock.schedule(after: delay, on: queue) { [weak self] in
            guard let self, !self.isShutDown, self.timers[kind]?.generation == generation else { return }
            self.timers[kind]?.timer = nil
            fire(self)
        }
        timers[kind] = slot
    }

    func cancelTimer(_ kind: TimerKind) {
        guard var slot = timers[kind] else { return }
        slot.timer?.cancel()
        slot.timer = nil
        slot.generation += 1
        timers[kind] = slot
    }

    // MARK: - Transport

    /// Opens a new transport — after asking the endpoint and headers providers, when set.
    private func openTransport() {
        guard case .success(let url) = socketURL else { return }
        _ = detachTransport()
        if resolvesEndpoint {
            resolveEndpoint()
        } else {
            openSocket(url: url, headers: [:])
        }
    }

    /// Opens the socket to `url` with `headers` on the upgrade request.
    func openSocket(url: URL, headers: [String: String]) {
        let generation = transportGeneration
        let configuration = TransportConfiguration(
            url: url, headers: headers, connectTimeout: .seconds(10), caFile: options.caFile)
        // Header names only: the values are tokens.
        let names = headers.keys.sorted().joined(separator: ", ")
        log(.info, "opening \(url.absoluteString)" + (names.isEmpty ? "" : " (handshake headers: \(names))"))
        // One call per socket read: what it delivers reaches the delivery queue in one hop.
        let transport = environment.makeTransport(configuration, queue) { [weak self] events in
            self?.handleTransportBatch(events, generation: generation)
        }
        // Flow control: a batch's read credit comes back once its deliveries have run.
        (transport as? any InboundFlowControl)?.setDeliveryFence { [deliverer] release in deliverer.enqueue(release) }
        self.transport = transport
        liveTransport.withLock { $0 = transport }
        transport.connect()
    }

    /// Forgets the current transport (its later events are ignored) and returns it.
    @discardableResult
    func detachTransport() -> (any Transport)? {
        transportGeneration += 1
        cancelEndpointResolution()
        let old = transport
        transport = nil
        liveTransport.withLock { $0 = nil }
        return old
    }

    /// Handles the events of one socket read; what they deliver goes to the delivery queue in one hop.
    private func handleTransportBatch(_ events: [TransportEvent], generation: Int) {
        stagingDepth += 1
        batchArrival = environment.clock.uptime
        // Room for one delivery per event up front (no regrowth while staging), and each event
        // read in place (no copy of it per iteration).
        staged.reserveCapacity(events.count)
        for index in events.indices { handleTransportEvent(events[index], generation: generation) }
        batchArrival = nil
        stagingDepth -= 1
        if stagingDepth == 0 { deliverer.enqueue(contentsOf: &staged) }
    }

    private func handleTransportEvent(_ event: TransportEvent, generation: Int) {
        guard generation == transportGeneration, !isShutDown else { return }
        switch event {
        case .opened:
            log(.debug, "socket open; waiting for the handshake")
            perform(machine.transportOpened())
        case .text(let text):
            handleText(text)
        case .binary(let bytes):
            perform(machine.inbound(now: arrivalTime))
            if wantsWire { tap(.inbound, "<binary message, \(bytes.count) bytes>") }
            reportError(
                RealtimeError(
                    kind: .binaryMessage, code: 1003,
                    message: "ignored a binary message of \(bytes.count) bytes (the protocol uses text frames)"))
        case .heartbeat:
            perform(machine.inbound(now: arrivalTime))
        case .closed(let info):
            _ = detachTransport()
            log(.info, "socket closed: \(info.code) \(info.reason)\(info.failure.map { " — \($0.message)" } ?? "")")
            perform(
                machine.transportClosed(
                    code: info.code, reason: info.reason, initiatedLocally: info.initiatedLocally,
                    networkError: info.failure?.message))
        }
    }

    /// When the inbound message being handled arrived: the batch's arrival time, else now.
    var arrivalTime: Duration { batchArrival ?? environment.clock.uptime }

    /// Sends protocol messages in one write.
    func send(_ texts: [String]) {
        guard !texts.isEmpty else { return }
        guard let transport else {
            log(.debug, "not sent (no socket): \(texts.count) message(s)")
            return
        }
        for text in texts where wantsWire { tap(.outbound, text) }
        do {
            try transport.send(texts: texts)
        } catch {
            log(.warning, "send failed: \(error)")
        }
    }

    /// Sends a client event from any thread (the channel is subscribed).
    func sendClientEvent(channel: Channel, event: String, dataText: String) -> Bool {
        let text = WireMessage(event: event, channel: channel.name, data: .json(dataText)).encode()
        guard let transport = liveTransport.snapshot else { return false }
        if activity.wantsWire { tap(.outbound, text, onQueue: false) }
        do {
            try transport.send(texts: [text])
            return true
        } catch {
            log(.warning, "client event \(event) on \(channel.name) not sent: \(error)")
            return false
        }
    }

    // MARK: - Reporting

    /// Whether a wire message should be handed to the observers (someone taps the wire, or the
    /// start-up buffer still takes messages). Call on the queue.
    var wantsWire: Bool { startupBudget.items > 0 || activity.hasWireObservers }

    /// Hands a wire message (redacted) to the `onWireMessage` observers and the start-up buffer.
    /// `onQueue` false: called from another thread than the client's queue.
    func tap(_ direction: WireDirection, _ text: String, onQueue: Bool = true) {
        let redacted = Redaction.redactWireText(text)
        if onQueue {
            notify(.wireMessage(direction, redacted))
        } else {
            deliverer.enqueue { [activity] in activity.deliver(.wireMessage(direction, redacted)) }
        }
    }

    /// Hands a notification to its observers (and the start-up buffer) on the delivery queue.
    /// Call on the queue.
    func notify(_ item: ClientActivity) {
        if startupBudget.items > 0 {
            startupBudget.items -= 1
            startupBudget.bytes -= item.bufferedSize
            if startupBudget.bytes < 0 { startupBudget.items = 0 }
        }
        enqueueDelivery { [activity] in activity.deliver(item) }
    }

    func reportError(_ error: RealtimeError) {
        log(.error, "error: \(error)")
        notify(.error(error))
    }

    /// Reports an error from any thread (it joins the queue first, so it is ordered after what
    /// the queue has already reported).
    func reportErrorFromAnyThread(_ error: RealtimeError) {
        queue.async { [weak self] in
            guard let self, !self.isShutDown else { return }
            self.reportError(error)
        }
    }

    func reportSigninError(_ error: any BirdRealtimeError) {
        log(.warning, "sign-in failed: \(error.message)")
        notify(.signinError(error))
    }

    // MARK: - Delivery (on the queue)

    /// Queues handler work after everything queued before it (staged while a transport batch is
    /// handled). Call only on the client's queue.
    func enqueueDelivery(_ item: consuming Deliverer.Item) {
        if stagingDepth > 0 {
            staged.append(item)
        } else {
            deliverer.enqueue(item)
        }
    }

    /// Queues a closure for the delivery queue, like the `Deliverer.Item` overload.
    func enqueueDelivery(_ work: @escaping @Sendable () -> Void) {
        enqueueDelivery(.work(work))
    }

    func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard let handler = options.logHandler else { return }
        handler(level, Redaction.redactWireText(message()))
    }

    // MARK: - Async work

    /// Runs `body` as a task tracked for ``settle()``.
    func startTask(_ body: @escaping @Sendable () async -> Void) {
        let id = nextTaskId
        nextTaskId += 1
        let queue = self.queue
        inflight[id] = Task { [weak self] in
            await body()
            queue.async { [weak self] in self?.inflight[id] = nil }
        }
    }

    /// Waits until queued work, in-flight authorizations and pending deliveries are done.
    func settle() async {
        while true {
            let tasks: [Task<Void, Never>] = queue.sync { Array(inflight.values) }
            if tasks.isEmpty { break }
            for task in tasks { await task.value }
        }
        queue.sync {}
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            deliverer.enqueue { continuation.resume() }
        }
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}
