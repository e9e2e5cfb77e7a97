import BirdDoctor
import BirdWire
import Foundation
import WebSocket

/// Runs `bird-inspect doctor`'s checks against a real edge, one layer after the other, and
/// returns the report. The I/O lives here (``ConnectionProbe`` for the socket, ``HTTPClient``
/// for the auth endpoints, as the client uses them); verdicts and hints come from
/// ``Diagnosis``. Each step gets the target's timeout; a failing layer skips the ones above it.
public struct DoctorRunner: Sendable {
    /// What to check.
    public var target: DoctorTarget
    /// The current time in Unix seconds (certificate dates are judged against it).
    public var now: @Sendable () -> Double

    /// Creates a runner for `target`.
    public init(target: DoctorTarget, now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.target = target
        self.now = now
    }

    /// Runs every layer and returns the report.
    public func run() async -> DoctorReport {
        let start = ContinuousClock.now
        let probe = ConnectionProbe()
        var steps: [DoctorStep] = []
        await runLayers(probe, into: &steps)
        await probe.close()
        return DoctorReport(target: target, steps: steps, totalMs: Self.ms(since: start))
    }

    // MARK: Layers

    private func runLayers(_ probe: ConnectionProbe, into steps: inout [DoctorStep]) async {
        let timeout = target.timeout
        // 1 resolve
        var started = ContinuousClock.now
        let resolved = await ConnectionProbe.resolve(host: target.host, port: target.port, timeout: timeout)
        let resolveFacts: ResolveFacts
        switch resolved {
        case .success(let addresses): resolveFacts = .resolved(addresses.map(\.description))
        case .failure(.timedOut): resolveFacts = .timedOut
        case .failure(let error): resolveFacts = .failed(error.description)
        }
        guard append(Diagnosis.resolve(resolveFacts, ms: Self.ms(since: started), target: target), &steps),
            case .success(let addresses) = resolved
        else { return }

        // 2 connect: each address in turn until one answers, all within the step's time
        started = ContinuousClock.now
        let deadline = started.advanced(by: timeout)
        var attempts: [ConnectAttempt] = []
        for address in addresses {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { break }
            let attemptStart = ContinuousClock.now
            let outcome: ConnectOutcome
            switch await probe.connect(to: address, timeout: remaining) {
            case .success: outcome = .connected
            case .failure(.refused): outcome = .refused
            case .failure(.unreachable(let why)): outcome = .unreachable(why)
            case .failure(.timedOut): outcome = .timedOut
            case .failure(let error): outcome = .failed(error.description)
            }
            attempts.append(
                ConnectAttempt(address: address.description, outcome: outcome, ms: Self.ms(since: attemptStart)))
            if outcome == .connected { break }
        }
        guard append(Diagnosis.connect(attempts, ms: Self.ms(since: started), target: target), &steps) else { return }

        // 3 tls
        if target.tls {
            started = ContinuousClock.now
            let outcome: TLSOutcome
            switch await probe.startTLS(host: target.host, caFile: target.caFile, timeout: timeout) {
            case .success(let report): outcome = .completed(report)
            case .failure(.timedOut): outcome = .timedOut
            case .failure(.closed): outcome = .closed
            case .failure(.failed(let why)): outcome = .failed(why)
            case .failure(let error): outcome = .failed(error.description)
            }
            let step = Diagnosis.tls(outcome, ms: Self.ms(since: started), target: target, now: now())
            guard append(step, &steps) else { return }
        } else {
            steps.append(Diagnosis.tlsNotUsed(target: target))
        }

        // 4 upgrade
        started = ContinuousClock.now
        let upgrade: UpgradeOutcome
        switch await probe.upgrade(requestTarget: target.requestTarget, hostHeader: target.hostHeader, timeout: timeout)
        {
        case .success(let report): upgrade = .answered(report)
        case .failure(.timedOut): upgrade = .timedOut
        case .failure(.closed): upgrade = .closed
        case .failure(.failed(let why)): upgrade = .failed(why)
        case .failure(let error): upgrade = .failed(error.description)
        }
        guard append(Diagnosis.upgrade(upgrade, ms: Self.ms(since: started), target: target), &steps) else { return }

        // 5 handshake: the first protocol message decides
        started = ContinuousClock.now
        let hello = await reply(probe) { _ in true }
        guard append(Diagnosis.handshake(hello, ms: Self.ms(since: started), target: target), &steps),
            case .message(.established(let connectionId?, _)) = hello
        else { return }

        // 6 ping
        started = ContinuousClock.now
        var answer = await send(probe, EdgeRequest.ping(target.dialect)) { message in
            if case .pong = message { return true }
            if case .error(_, _, nil) = message { return true }
            return false
        }
        steps.append(Diagnosis.ping(answer, ms: Self.ms(since: started), target: target))
        guard stillOpen(answer, after: .ping, &steps) else { return }

        // 7 public subscribe
        started = ContinuousClock.now
        let publicChannel = target.publicChannel
        answer = await send(probe, EdgeRequest.subscribe(target.dialect, channel: publicChannel)) {
            Self.answersSubscription($0, channel: publicChannel)
        }
        steps.append(Diagnosis.subscribe(answer, ms: Self.ms(since: started), target: target))
        guard stillOpen(answer, after: .subscribe, &steps) else { return }

        // 8 auth endpoint + private subscribe
        if let endpoint = target.authEndpoint {
            started = ContinuousClock.now
            let check = await authorizeChannel(probe, endpoint: endpoint, connectionId: connectionId)
            steps.append(Diagnosis.auth(check, ms: Self.ms(since: started), target: target))
            if let edge = check.edge { guard stillOpen(edge, after: .auth, &steps) else { return } }
        } else {
            steps.append(Diagnosis.notConfigured(.auth))
        }

        // 9 sign-in
        if let endpoint = target.memberAuthEndpoint {
            started = ContinuousClock.now
            let check = await signin(probe, endpoint: endpoint, connectionId: connectionId)
            steps.append(Diagnosis.signin(check, ms: Self.ms(since: started), target: target))
        } else {
            steps.append(Diagnosis.notConfigured(.signin))
        }
    }

    /// Appends `step`; on failure also the skipped rest, and returns false.
    private func append(_ step: DoctorStep, _ steps: inout [DoctorStep]) -> Bool {
        steps.append(step)
        guard step.status == .fail else { return true }
        steps += Diagnosis.skipRest(after: step.layer, reason: Diagnosis.failedReason(step.layer))
        return false
    }

    /// False (and the rest skipped) when the connection ended during `layer`.
    private func stillOpen(_ reply: EdgeReply, after layer: DoctorLayer, _ steps: inout [DoctorStep]) -> Bool {
        let reason: String
        switch reply {
        case .closed(let code, _): reason = "the edge closed the connection (\(code))"
        case .lost: reason = "the connection dropped"
        case .protocolError: reason = "the connection failed"
        case .message, .timedOut: return true
        }
        steps += Diagnosis.skipRest(after: layer, reason: reason)
        return false
    }

    private static func answersSubscription(_ message: EdgeMessage, channel: String) -> Bool {
        switch message {
        case .subscriptionSucceeded(let name), .subscriptionError(let name, _, _, _): return name == channel
        case .error(_, _, let name): return name == nil || name == channel
        default: return false
        }
    }

    // MARK: Auth

    private func authorizeChannel(_ probe: ConnectionProbe, endpoint: String, connectionId: String) async -> AuthCheck {
        let channel = target.authChannel
        let (contentType, body) = AuthRequests.channel(target.dialect, connectionId: connectionId, channel: channel)
        let httpStart = ContinuousClock.now
        let http = await post(endpoint, contentType: contentType, body: body)
        var check = AuthCheck(
            endpoint: endpoint, channel: channel, connectionId: connectionId, http: http,
            httpMs: Self.ms(since: httpStart))
        guard case .response(200...299, _, let responseBody) = http else { return check }
        let presence = ChannelKind(channelName: channel) == .presence
        let answer = AuthAnswer.read(body: responseBody, identityKey: target.dialect.presenceDataKey)
        guard answer.authWellFormed, answer.keyPart == target.appKey, let auth = answer.auth,
            !presence || answer.identity != nil
        else { return check }
        let message = EdgeRequest.subscribe(
            target.dialect, channel: channel, auth: auth, memberData: presence ? answer.identity : nil)
        check.edge = await send(probe, message) { Self.answersSubscription($0, channel: channel) }
        return check
    }

    private func signin(_ probe: ConnectionProbe, endpoint: String, connectionId: String) async -> AuthCheck {
        let (contentType, body) = AuthRequests.signin(target.dialect, connectionId: connectionId)
        let httpStart = ContinuousClock.now
        let http = await post(endpoint, contentType: contentType, body: body)
        var check = AuthCheck(
            endpoint: endpoint, channel: nil, connectionId: connectionId, http: http, httpMs: Self.ms(since: httpStart))
        guard case .response(200...299, _, let responseBody) = http else { return check }
        let answer = AuthAnswer.read(body: responseBody, identityKey: target.dialect.signinDataKey)
        guard answer.authWellFormed, answer.keyPart == target.appKey, let auth = answer.auth,
            let identity = answer.identity
        else { return check }
        check.edge = await send(probe, EdgeRequest.signin(target.dialect, auth: auth, memberData: identity)) {
            message in
            switch message {
            case .signinSuccess, .error(_, _, nil): return true
            default: return false
            }
        }
        return check
    }

    private func post(_ endpoint: String, contentType: String, body: [UInt8]) async -> AuthHTTPOutcome {
        guard let url = URL(string: endpoint) else { return .failed("not a URL") }
        var headers = ["Content-Type": contentType, "Accept": "application/json"]
        for header in target.authHeaders { headers[header.name] = header.value }
        do {
            let response = try await HTTPClient.send(
                method: "POST", url: url, headers: headers, body: body, caFile: target.caFile, timeout: target.timeout)
            return .response(
                status: response.status, contentType: response.headers["Content-Type"], body: response.body)
        } catch .timeout {
            return .timedOut
        } catch {
            return .failed(error.description)
        }
    }

    // MARK: Frames

    /// Sends `text`, then waits for a decisive answer.
    private func send(_ probe: ConnectionProbe, _ text: String, decisive: (EdgeMessage) -> Bool) async -> EdgeReply {
        switch await probe.send(text: text, timeout: target.timeout) {
        case .success: return await reply(probe, decisive: decisive)
        case .failure(.timedOut): return .timedOut
        case .failure(let error): return .lost(error.description)
        }
    }

    /// Reads until a message `decisive` accepts, a close or the step's time is up; protocol
    /// pings are answered on the way, other messages skipped.
    private func reply(_ probe: ConnectionProbe, decisive: (EdgeMessage) -> Bool) async -> EdgeReply {
        let deadline = ContinuousClock.now.advanced(by: target.timeout)
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return .timedOut }
            switch await probe.receive(timeout: remaining) {
            case .text(let text):
                let message = EdgeMessage.read(text, dialect: target.dialect)
                if case .ping = message, !decisive(message) {
                    let pong = WireMessage(event: ProtocolEvent.pong.wireName(target.dialect), value: .object([:]))
                    _ = await probe.send(text: pong.encode(), timeout: remaining)
                    continue
                }
                if decisive(message) { return .message(message) }
            case .binary, .pong:
                continue
            case .closed(let code, let reason): return .closed(code: code, reason: reason)
            case .connectionLost(let why): return .lost(why)
            case .protocolError(let why): return .protocolError(why)
            case .timedOut: return .timedOut
            }
        }
    }

    static func ms(since start: ContinuousClock.Instant) -> Double {
        let (seconds, attoseconds) = start.duration(to: .now).components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
