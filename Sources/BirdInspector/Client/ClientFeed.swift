// The client library's callbacks as the inspector's messages: every `onActivity` item, every
// channel event, a sign-in's result, and (when recording) every auth request. Pure mappings of the
// library's values, so `bird-inspect`'s LiveSession only registers callbacks and posts what comes
// out, and every mapping is unit-tested with the real library.

import BirdRealtime
import BirdRecording
import BirdWire
import Foundation

/// The library's callbacks mapped to `ClientEvent`s and recording entries.
public enum ClientFeed {
    /// What one `onActivity` item becomes.
    public enum Item: Sendable, Equatable {
        /// A client event, for `update` and for the recording.
        case client(ClientEvent)
        /// A `wire` entry, for the recording only.
        case recorded(RecordedEntry)
    }

    /// The item an `onActivity` notification becomes: state changes, retries, errors, sign-in
    /// errors, network paths, endpoint resolutions and round trips are client events; wire messages are `wire` entries when `recording`, else nothing.
    public static func item(_ activity: ClientActivity, recording: Bool) -> Item? {
        switch activity {
        case .stateChange(let change):
            return .client(.stateChanged(record(change)))
        case .retryScheduled(let schedule):
            return .client(
                .retryScheduled(
                    RetryRecord(
                        delay: schedule.delay, attempt: schedule.attempt,
                        cause: cause(schedule.cause))))
        case .error(let error):
            return .client(
                .error(
                    ErrorReport(
                        code: error.code, message: error.message, reason: error.reason,
                        kind: error.kind == .decryption ? ErrorReport.decryptionKind : nil,
                        channel: error.channel, event: error.event)))
        case .signinError(let error):
            return .client(.signinFailed(message: error.message))
        case .wireMessage(let direction, let text):
            guard recording else { return nil }
            return .recorded(.wire(direction: direction == .inbound ? .inbound : .outbound, text: text))
        case .networkPath(let path):
            return .client(.networkPath(NetworkPathRecord(usable: path.isUsable, description: path.description)))
        case .endpoint(let resolution):
            return .client(.endpoint(record(resolution)))
        case .roundTrip(let rtt):
            return .client(.roundTrip(rtt))
        }
    }

    /// A `--scenario` runner's report (BirdSandbox's `ScenarioRunner.Report`) as a `scenario`
    /// event; for a restart (`restartDownSeconds`) with when its down time ends, counted from `at`.
    public static func scenario(
        name: String, step: Int?, action: String?, text: String, restartDownSeconds: Double?,
        at: Date
    ) -> ClientEvent {
        let back = restartDownSeconds.flatMap { $0.isFinite && $0 >= 0 ? Checked.date(at, plus: $0) : nil }
        return .scenario(ScenarioStepRecord(name: name, step: step, action: action, text: text, edgeBackAt: back))
    }

    /// An endpoint resolution as the inspector records it: the socket URL without its query
    /// string (BirdWire's `Redaction.endpoint`), header names only.
    public static func record(_ resolution: EndpointResolution) -> EndpointRecord {
        switch resolution {
        case .resolving:
            return .resolving
        case .resolved(let endpoint, let url, let names):
            return .resolved(
                host: endpoint.host, port: endpoint.port, tls: endpoint.useTLS,
                url: Redaction.endpoint(url), headerNames: names.sorted())
        case .failed(let reason):
            return .failed(reason)
        }
    }

    /// A state change as the inspector records it.
    public static func record(_ change: StateChange) -> StateChangeRecord {
        StateChangeRecord(
            previous: change.previous, current: change.current, cause: cause(change.cause),
            connectionId: change.connectionId, activityTimeout: change.activityTimeout)
    }

    /// The inspector's cause for each of the library's.
    public static func cause(_ cause: StateChangeCause) -> TransitionCause {
        switch cause {
        case .start: return .started
        case .connectCalled: return .connectCalled
        case .handshake: return .handshake
        case .retry: return .retryDue
        case .serverClose(let code, let reason): return .closed(code: code, reason: reason, by: .server)
        case .pongTimeout: return .pongTimeout
        case .networkError(let message): return .networkError(message)
        case .protocolViolation(let code, let reason): return .closed(code: code, reason: reason, by: .client)
        case .handshakeWithoutId: return .handshakeWithoutId
        case .disconnectCalled: return .disconnectCalled
        case .dropped: return .dropped
        case .signout: return .signout
        case .configuration(let message): return .other("configuration error: \(message)")
        case .networkUnavailable(let path): return .networkUnavailable(path)
        case .networkRestored(let path): return .networkRestored(path)
        case .networkChanged(let path): return .networkChanged(path)
        case .endpointUnavailable(let reason): return .endpointUnavailable(reason)
        }
    }

    /// Whether a channel event is an app (or client) event, which becomes one `.event` (the
    /// inbox may drop it) — not one of the protocol events `events` reads the payload of.
    public static func isAppEvent(_ event: ChannelEvent) -> Bool {
        switch event.name {
        case BirdProtocol.Event.subscriptionSucceeded, BirdProtocol.Event.subscriptionError,
            BirdProtocol.Event.memberAdded, BirdProtocol.Event.memberRemoved, BirdProtocol.Event.connectionCount:
            return false
        default:
            return true
        }
    }

    /// The client events a channel event (`onChannelEvent`) becomes. A subscription's success
    /// brings the roster of a presence channel along, read from `client` as it is then, and its
    /// continuity, resumed after `resumedAfter` (``ResumePositions/observe(_:)``).
    public static func events(_ event: ChannelEvent, client: BirdRealtime, resumedAfter: StreamPosition? = nil)
        -> [ClientEvent]
    {
        guard event.name == BirdProtocol.Event.subscriptionSucceeded,
            let presence = client.channel(named: event.channel) as? PresenceChannel
        else { return events(event, roster: nil, resumedAfter: resumedAfter) }
        return events(event, roster: (presence.members, presence.myId), resumedAfter: resumedAfter)
    }

    /// The client events a channel event becomes, given the presence roster (members and own
    /// id) when the event is a presence channel's subscription success, and for a subscription
    /// success the position it resumed after. A protocol event missing its member id or count
    /// becomes nothing; a subscription error's endpoint is recorded without its query string
    /// (BirdWire's `Redaction.endpoint`); an app event keeps its offset.
    public static func events(
        _ event: ChannelEvent, roster: (members: [String: JSONValue], myId: String?)?,
        resumedAfter: StreamPosition? = nil
    ) -> [ClientEvent] {
        // Only protocol events' payloads are read (parsed): an app event keeps its text unparsed.
        switch event.name {
        case BirdProtocol.Event.subscriptionSucceeded:
            let continuity = event.continuity.map { ContinuityRecord($0, resumedAfter: resumedAfter) }
            var out: [ClientEvent] = [.subscribed(channel: event.channel, continuity: continuity)]
            if let roster {
                let members = roster.members
                    .map { PresenceMember(id: $0.key, info: $0.value.isNull ? nil : $0.value.description) }
                    .sorted { $0.id < $1.id }
                out.append(.membersSnapshot(channel: event.channel, members: members, myId: roster.myId))
            }
            return out
        case BirdProtocol.Event.subscriptionError:
            let data = event.data
            return [
                .subscriptionError(
                    channel: event.channel,
                    SubscriptionFailure(
                        type: data?["type"]?.stringValue ?? "Error",
                        status: data?["status"]?.intValue,
                        endpoint: data?["endpoint"]?.stringValue.map(Redaction.endpoint),
                        message: data?["error"]?.stringValue ?? data?.description ?? "subscription failed"))
            ]
        case BirdProtocol.Event.memberAdded:
            let data = event.data
            guard let id = data?["member_id"]?.stringValue else { return [] }
            let info = data?["member_info"].map(\.description)
            return [.memberAdded(channel: event.channel, PresenceMember(id: id, info: info))]
        case BirdProtocol.Event.memberRemoved:
            let data = event.data
            guard let id = data?["member_id"]?.stringValue else { return [] }
            return [.memberRemoved(channel: event.channel, memberId: id)]
        case BirdProtocol.Event.connectionCount:
            let data = event.data
            guard let count = data?["connection_count"]?.intValue else { return [] }
            return [.connectionCount(channel: event.channel, count: count)]
        default:
            // The payload's exact text (after the dialect's string unwrapping): what was sent; for
            // a decrypted event the plaintext, with the envelope as it travelled.
            return [
                .event(
                    ChannelEventRecord(
                        channel: event.channel, event: event.name, data: event.payload?.text,
                        memberId: event.memberId, ciphertext: event.ciphertext,
                        offset: event.offset))
            ]
        }
    }

    /// A sign-in's result (`signin()` returned or threw).
    public static func signin(_ result: Result<Member, any Error>) -> ClientEvent {
        switch result {
        case .success(let member): return .signinSucceeded(memberId: member.memberId, info: member.info?.description)
        case .failure(let error): return .signinFailed(message: describe(error))
        }
    }

    /// An error as one line: the library's message for its errors, the description otherwise.
    public static func describe(_ error: any Error) -> String {
        if let error = error as? any BirdRealtimeError { return error.message }
        return "\(error)"
    }

    /// The auth HTTP of a recording session: `perform` with every request recorded as an `auth`
    /// entry (kind, endpoint without query, channel, status or error, elapsed ms — never headers
    /// or bodies), handed to `record` when the answer (or the failure) arrives.
    public static func recordingAuth(
        _ perform: @escaping AuthHTTPPerformer, channelEndpoint: URL?, signinEndpoint: URL?,
        record: @escaping @Sendable (RecordedEntry) -> Void
    ) -> AuthHTTPPerformer {
        { request in
            let what = AuthRecord.describe(
                url: request.url, body: request.body, channelEndpoint: channelEndpoint,
                signinEndpoint: signinEndpoint)
            let started = ContinuousClock.now
            func entry(status: Int?, error: String?) {
                let ms = Checked.milliseconds(ContinuousClock.now - started)
                record(
                    .auth(
                        AuthRecord(
                            kind: what.kind, endpoint: what.endpoint, channel: what.channel,
                            status: status, error: error, ms: ms)))
            }
            do {
                let response = try await perform(request)
                entry(status: response.status, error: nil)
                return response
            } catch {
                // The error text may name the URL: keep only the recorded endpoint form of it.
                entry(
                    status: nil,
                    error: "\(error)".replacingOccurrences(of: request.url.absoluteString, with: what.endpoint))
                throw error
            }
        }
    }
}
