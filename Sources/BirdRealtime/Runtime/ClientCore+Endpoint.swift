import Foundation

/// One endpoint resolution under way: the task asking the providers and which one it waits for
/// (for the timeout's message).
struct EndpointWork {
    var task: Task<Void, Never>
    var waitingFor: Locked<String>
    var timeout: Duration
}

/// What the providers answered.
enum ProviderAnswer: Sendable {
    case answered(endpoint: RealtimeEndpoint?, headers: [String: String])
    case failed(String)
}

extension ClientCore {
    /// The endpoint timeout in force: `options.endpointTimeout` held to 1 ms … 1 h.
    static let endpointTimeoutRange: ClosedRange<Duration> = .milliseconds(1) ... .seconds(3600)

    /// Whether connection attempts ask a provider first.
    var resolvesEndpoint: Bool { options.endpointProvider != nil || options.handshakeHeadersProvider != nil }

    /// Asks the providers for this attempt (state `connecting`, no socket yet), with a deadline
    /// on the client's clock. The answer, the timeout or a failure come back on the queue; an
    /// answer for an attempt that was abandoned meanwhile is dropped.
    func resolveEndpoint() {
        let generation = transportGeneration
        let timeout = TimingRange.clamp(options.endpointTimeout, to: Self.endpointTimeoutRange)
        let endpointProvider = options.endpointProvider
        let headersProvider = options.handshakeHeadersProvider
        let waitingFor = Locked(endpointProvider != nil ? "endpoint provider" : "handshake headers provider")
        log(.info, "resolving endpoint (at most \(Self.format(timeout)))")
        notify(.endpoint(.resolving))
        arm(.endpoint, after: timeout) { core in core.endpointTimedOut(generation: generation) }
        let queue = self.queue
        let task = Task {
            let answer = await Self.askProviders(
                endpoint: endpointProvider, headers: headersProvider, waitingFor: waitingFor)
            queue.async { [weak self] in self?.endpointAnswered(answer, generation: generation) }
        }
        endpointWork = EndpointWork(task: task, waitingFor: waitingFor, timeout: timeout)
    }

    /// Abandons the resolution under way, if any (the attempt ended or a new one starts).
    func cancelEndpointResolution() {
        guard let work = endpointWork else { return }
        endpointWork = nil
        cancelTimer(.endpoint)
        work.task.cancel()
    }

    /// Asks the endpoint provider, then the headers provider; the first failure ends it.
    private static func askProviders(
        endpoint endpointProvider: (@Sendable () async throws -> RealtimeEndpoint)?,
        headers headersProvider: (@Sendable () async throws -> [String: String])?,
        waitingFor: Locked<String>
    ) async -> ProviderAnswer {
        var endpoint: RealtimeEndpoint?
        if let endpointProvider {
            do {
                endpoint = try await endpointProvider()
            } catch {
                return .failed("endpoint provider failed: \(describe(error))")
            }
        }
        var headers: [String: String] = [:]
        if let headersProvider {
            waitingFor.withLock { $0 = "handshake headers provider" }
            do {
                headers = try await headersProvider()
            } catch {
                return .failed("handshake headers provider failed: \(describe(error))")
            }
        }
        return .answered(endpoint: endpoint, headers: headers)
    }

    /// The providers answered (on the queue): check the answer against the security rules, then
    /// open the socket; a refused answer is reported (`RealtimeError.Kind.endpoint`) and backs off.
    private func endpointAnswered(_ answer: ProviderAnswer, generation: Int) {
        guard !isShutDown, generation == transportGeneration, endpointWork != nil,
            machine.state == .connecting(socketOpen: false)
        else { return }
        endpointWork = nil
        cancelTimer(.endpoint)
        switch answer {
        case .failed(let reason):
            endpointFailed(reason)
        case .answered(let endpoint, let headers):
            let url: URL
            do throws(ConfigurationError) {
                try HandshakeHeaders.validate(headers)
                if let endpoint {
                    url = try ConnectionURL.make(options, endpoint: endpoint)
                } else if case .success(let staticURL) = socketURL {
                    url = staticURL
                } else {
                    return
                }
            } catch {
                let reason = "answer refused: \(error.message)"
                reportError(RealtimeError(kind: .endpoint, message: "endpoint \(reason)"))
                endpointFailed(reason)
                return
            }
            let used = endpoint ?? Self.endpoint(of: url)
            snapshot.withLock { $0.resolvedEndpoint = used }
            notify(
                .endpoint(.resolved(endpoint: used, url: url.absoluteString, headerNames: headers.keys.sorted())))
            openSocket(url: url, headers: headers)
        }
    }

    /// The deadline passed before the providers answered.
    private func endpointTimedOut(generation: Int) {
        guard !isShutDown, generation == transportGeneration, let work = endpointWork else { return }
        let who = work.waitingFor.snapshot
        endpointFailed("\(who) did not answer within \(Self.format(work.timeout))")
    }

    /// Publishes the failure, then lets the machine abandon the attempt (backoff path).
    private func endpointFailed(_ reason: String) {
        log(.warning, "endpoint unavailable: \(reason)")
        notify(.endpoint(.failed(reason)))
        perform(machine.endpointFailed(reason))
    }

    /// The endpoint a static socket URL stands for.
    static func endpoint(of url: URL) -> RealtimeEndpoint {
        RealtimeEndpoint(host: url.host ?? "", port: url.port, useTLS: url.scheme != "ws")
    }

    /// An error from a provider for a message: the SDK's own message, else its description,
    /// redacted and at most 200 characters.
    static func describe(_ error: any Error) -> String {
        let text = (error as? any BirdRealtimeError)?.message ?? String(describing: error)
        let redacted = Redaction.redactWireText(text)
        return redacted.count > 200 ? String(redacted.prefix(200)) + "…" : redacted
    }

    /// `10 s`, `250 ms`.
    static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return "\(seconds) s" }
        let ms = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return "\(ms) ms"
    }
}
