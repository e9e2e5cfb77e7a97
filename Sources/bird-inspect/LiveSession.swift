// The inspector's driver: owns the real BirdRealtime client (and, with --sandbox, an embedded
// bird-sandbox plus a little demo traffic), registers the client's callbacks — each mapped to a
// `Message` by the core's `ClientFeed` — and performs the `Command`s that `update` returns.

import BirdInspector
import BirdRecording
import BirdRealtime
import BirdSandbox
import BirdWire
import Foundation
import Synchronization
import WebSocket

/// A running inspector session against a real edge (or the embedded sandbox).
final class LiveSession: @unchecked Sendable {
    let client: BirdRealtime
    /// The embedded sandbox with `--sandbox`.
    let sandbox: Sandbox?
    /// What the connection pane shows about the edge.
    let config: InspectorConfig
    private let inbox: MessageInbox
    private let controlBase: String?
    private let demo: SandboxDemo?
    private var scenario: ScenarioRunner?
    private let queue = DispatchQueue(label: "bird-inspect.delivery")
    /// Each channel's last offset seen, for the position a re-subscription resumed after.
    private let positions = Mutex(ResumePositions())
    /// The member the sandbox's demo sign-in endpoint is asked for (`i`, `signin ID`).
    private let chosenMember: ChosenMember
    /// `--user-id`, else `inspector`: the member before any choice, and again after a sign-out.
    private let defaultMemberId: String

    /// Connects (the client starts by itself) and subscribes `options.subscribe`, or the demo set
    /// with `--sandbox`. With `recording`, every protocol message and every auth request is also
    /// posted to the inbox as a recording entry. Throws a one-line message when the sandbox cannot
    /// start or the options cannot be used.
    init(options: InspectorOptions, inbox: MessageInbox, utcOffsetSeconds: Int = 0, recording: Bool = false) throws {
        self.inbox = inbox
        chosenMember = ChosenMember(options.memberId)
        defaultMemberId = options.memberId
        let dialect: Dialect = options.dialect == "pusher" ? .pusher : .bird
        var clientOptions: BirdRealtime.Options
        var note: String?
        var host = options.effectiveHost
        var port = options.effectivePort
        var tls = options.tls
        if options.sandbox && options.host == nil {
            let sandbox: Sandbox
            do {
                var configuration = SandboxConfiguration(
                    host: "127.0.0.1", port: 0, dialect: dialect, clientEvents: true, connectionCount: true)
                // Encrypted channels work out of the box: the embedded sandbox's master key.
                configuration.encryptionMasterKey = try Self.sandboxMasterKey(ProcessInfo.processInfo.environment)
                sandbox = try Sandbox(configuration: configuration)
                try sandbox.start()
            } catch {
                throw SessionError("cannot start the embedded sandbox: \(error)")
            }
            self.sandbox = sandbox
            let endpoints = sandbox.endpoints
            host = endpoints.host
            port = endpoints.port
            tls = false
            controlBase = endpoints.controlBase
            note =
                options.scenario.map { "embedded sandbox · scenario \(($0 as NSString).lastPathComponent)" }
                ?? "embedded sandbox"
            clientOptions = BirdRealtime.Options(
                appKey: endpoints.appKey,
                authEndpoint: URL(string: endpoints.authEndpoint).map {
                    MemberIdRules.url($0, member: options.memberId)
                },
                memberAuthEndpoint: URL(string: endpoints.memberAuthEndpoint).map {
                    MemberIdRules.url($0, member: options.memberId)
                },
                host: endpoints.host, port: endpoints.port, allowInsecure: true, dialect: dialect,
                deliveryQueue: queue)
        } else {
            sandbox = nil
            controlBase = options.sandboxControl.map { $0.hasSuffix("/sandbox") ? $0 : $0 + "/sandbox" }
            var headers: [String: String] = [:]
            for line in options.authHeaders {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[String(line[..<colon]).trimmingCharacters(in: .whitespaces)] =
                    String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            }
            clientOptions = BirdRealtime.Options(
                appKey: options.appKey ?? "", region: options.region,
                authEndpoint: options.authEndpoint.flatMap(URL.init(string:)), authHeaders: headers,
                memberAuthEndpoint: options.memberAuthEndpoint.flatMap(URL.init(string:)),
                host: options.host, port: options.port, allowInsecure: options.insecure,
                caFile: options.caFile, dialect: dialect, deliveryQueue: queue)
        }
        // The network monitor: the library's default (the routing table, not for a loopback edge),
        // unless turned off for an edge reached without a default route.
        if options.noNetworkMonitor { clientOptions.networkMonitor = .disabled }
        var config = options.config(utcOffsetSeconds: utcOffsetSeconds, edgeNote: note)
        config.networkNote =
            options.noNetworkMonitor
            ? "not monitored (--no-network-monitor)"
            : Loopback.isLoopback(host: host) ? "not monitored (loopback edge)" : "no path reported yet"
        config.host = host
        config.port = port
        config.tls = tls
        config.activityTimeout = clientOptions.activityTimeout
        config.pongTimeout = clientOptions.pongTimeout
        self.config = config
        var environment = RealtimeEnvironment.live
        if options.sandbox {
            environment.http = chosenMember.asking(
                environment.http, signinEndpoint: clientOptions.memberAuthEndpoint,
                channelEndpoint: clientOptions.authEndpoint)
        }
        if recording { environment = Self.recordingEnvironment(clientOptions, environment, inbox: inbox) }
        client = BirdRealtime(options: clientOptions, environment: environment)
        demo = sandbox.map { SandboxDemo(sandbox: $0, rate: options.demoRate, dialect: dialect) }
        // Registered before anything else touches the client; `onActivity` also replays the current
        // connection from its `connecting`, so the recording and the panes always start there.
        observe(recording: recording)
        let channels =
            options.subscribe.isEmpty && options.sandbox
            ? SandboxDemo.channels : options.subscribe
        for name in channels { client.subscribe(name) }
        if options.signin { perform(.signin) }
        demo?.start()
        if let sandbox, let name = options.scenario {
            do {
                let inbox = self.inbox
                let loaded = try ScenarioCatalogue.load(name)
                // Each line the runner logs becomes a `scenario` entry (log, JSONL, recording).
                scenario = ScenarioRunner(scenario: loaded, control: sandbox) { _ in
                } report: { report in
                    var down: Double?
                    if case .restart(_, _, let seconds)? = report.action { down = seconds }
                    let now = Date()
                    let step = ClientFeed.scenario(
                        name: loaded.name, step: report.step, action: report.action?.name,
                        text: report.text, restartDownSeconds: down, at: now)
                    inbox.post(.client(step, at: now))
                }
            } catch {
                throw SessionError("--scenario: \(error)")
            }
            scenario?.start()
        }
    }

    /// Unsubscribes and subscribes again every presence channel (authorised again, as the member
    /// now chosen).
    static func resubscribePresence(_ client: BirdRealtime) {
        for channel in client.channels where ChannelKind(channelName: channel.name) == .presence {
            client.unsubscribe(channel.name)
            client.subscribe(channel.name)
        }
    }

    /// The embedded sandbox's encryption master key: `BIRD_SANDBOX_ENCRYPTION_MASTER_KEY` (base64
    /// of 32 bytes, as `bird-sandbox` reads it) when set, else a fresh random key for this run.
    /// Never printed; a bad value is an error that does not show it.
    static func sandboxMasterKey(_ environment: [String: String]) throws -> EncryptionMasterKey {
        let name = SandboxCommandLine.encryptionMasterKeyVariable
        guard let text = environment[name], !text.isEmpty else { return .random() }
        do {
            return try EncryptionMasterKey(base64: text)
        } catch {
            throw SessionError("\(name) is not the base64 of 32 bytes (\(error))")
        }
    }

    /// The channels subscribed at start, for the model's initial channel list.
    var initialChannels: [String] { client.channels.map(\.name) }

    /// The recording header for this session.
    var recordingHeader: RecordingHeader {
        RecordingHeader(
            tool: Arguments.version, dialect: config.dialect, host: config.host, port: config.port,
            tls: config.tls, appKey: client.options.appKey, channels: initialChannels)
    }

    /// The live environment with auth HTTP observed: each request becomes an `auth` entry
    /// (`ClientFeed.recordingAuth`).
    static func recordingEnvironment(
        _ options: BirdRealtime.Options, _ base: RealtimeEnvironment, inbox: MessageInbox
    ) -> RealtimeEnvironment {
        var environment = base
        environment.http = ClientFeed.recordingAuth(
            environment.http, channelEndpoint: options.authEndpoint, signinEndpoint: options.memberAuthEndpoint
        ) { [inbox] entry in inbox.post(recorded: entry) }
        return environment
    }

    /// Stops the demo, disconnects and stops the embedded sandbox.
    func shutdown() {
        scenario?.stop()
        demo?.stop()
        client.disconnect()
        sandbox?.stop(code: 4200, reason: "edge restarting", grace: 0.2)
    }

    // MARK: - Commands

    /// Performs one command from `update`.
    func perform(_ command: Command) {
        switch command {
        case .subscribe(let name):
            client.subscribe(name)
        case .unsubscribe(let name):
            client.unsubscribe(name)
        case .trigger(let name, let event, let data):
            trigger(name, event, data)
        case .signin, .signinAs:
            if case .signinAs(let id, let info) = command {
                // Only the embedded sandbox's demo endpoint signs a chosen id (the TUI refuses
                // earlier; this is for scripts on stdin).
                guard sandbox != nil else {
                    inbox.post(
                        .client(
                            .commandError(
                                command: "signin \(id)",
                                message: "this member auth endpoint decides who signs in (a chosen id needs --sandbox)"),
                            at: Date()))
                    return
                }
                chosenMember.current = (id, info)
            }
            let client = self.client
            let chosen = sandbox == nil ? nil : chosenMember
            Task { [inbox] in
                let result: Result<Member, any Error>
                do { result = .success(try await client.signin()) } catch { result = .failure(error) }
                inbox.post(.client(ClientFeed.signin(result), at: Date()))
                // Signed in as another member than the presence channels were authorised as: they
                // are subscribed again, so their roster's "you" is the member signed in.
                if case .success(let member) = result, let chosen, let was = chosen.presenceIdentity,
                    was != member.memberId
                {
                    Self.resubscribePresence(client)
                }
            }
        case .signout:
            // Back to the starting member, so the reconnect's presence channels are not signed as
            // the member just signed out.
            if sandbox != nil { chosenMember.current = (defaultMemberId, nil) }
            client.signout()
        case .disconnect:
            client.disconnect()
        case .connect:
            client.connect()
        case .drop:
            client.dropConnection()
        case .closeConnection(let id, let code, let reason):
            closeConnection(id: id, code: code, reason: reason)
        case .ping:
            // The round trip itself arrives through onRoundTrip / onActivity; only a failure is said here.
            let client = self.client
            Task { [inbox] in
                do throws(PingError) {
                    _ = try await client.ping()
                } catch {
                    inbox.post(.client(.commandError(command: "ping", message: error.message), at: Date()))
                }
            }
        case .quit:
            break
        case .export, .copy:
            break  // the terminal loop's own (ShareEffects), never the client's
        }
    }

    private func trigger(_ name: String, _ event: String, _ data: String?) {
        let command = "trigger \(name) \(event)"
        guard let channel = client.channel(named: name) else {
            post(.commandError(command: command, message: "\(name) is not subscribed"))
            return
        }
        let value = data.map(JSONValue.fromPayload) ?? .object([:])
        do {
            if try channel.trigger(event, data: value) {
                // The data as it went out: the lossless value's text (numbers and order as typed).
                post(.sent(channel: name, event: event, data: value.description))
            } else {
                post(.commandError(command: command, message: "\(name) is not subscribed right now (reconnecting?)"))
            }
        } catch {
            post(.commandError(command: command, message: ClientFeed.describe(error)))
        }
    }

    private func closeConnection(id: String, code: Int, reason: String) {
        if let sandbox {
            if !sandbox.closeConnection(id: id, code: code, reason: reason) {
                post(.commandError(command: "close \(code)", message: "the sandbox has no connection \(id)"))
            }
            return
        }
        guard let base = controlBase, let url = URL(string: "\(base)/connections/\(id)/close") else {
            post(
                .commandError(
                    command: "close \(code)", message: "no sandbox attached (use --sandbox or --sandbox-control URL)"))
            return
        }
        let body = Array(
            JSONValue.object(["code": .number(JSONNumber(code)), "reason": .string(reason)]).description.utf8)
        Task { [inbox] in
            do {
                let response = try await HTTPClient.send(
                    method: "POST", url: url, headers: ["Content-Type": "application/json"], body: body,
                    timeout: .seconds(5))
                if !(200..<300).contains(response.status) {
                    let text = String(decoding: response.body.prefix(200), as: UTF8.self)
                    inbox.post(
                        .client(
                            .commandError(
                                command: "close \(code)", message: "sandbox answered \(response.status): \(text)"),
                            at: Date()))
                }
            } catch {
                inbox.post(
                    .client(
                        .commandError(command: "close \(code)", message: "sandbox control failed: \(error)"), at: Date()
                    ))
            }
        }
    }

    // MARK: - Callbacks → messages

    private func post(_ event: ClientEvent) {
        inbox.post(.client(event, at: Date()))
    }

    /// One ordered stream of the client's activity (state, retry, error, sign-in error, network
    /// path, endpoint, and with `recording` the wire messages), plus every channel event. Registered before the session
    /// does anything, so the library replays the connection from its `connecting`. Without a
    /// recording the wire is not observed (a wire tap costs the library a redacted copy of every
    /// message): the other kinds are registered together, which the library merges in the order
    /// they happened just the same (docs/THREADING.md).
    private func observe(recording: Bool) {
        if recording {
            client.onActivity { [weak self] in self?.handle($0, recording: true) }
        } else {
            client.onStateChange { [weak self] in self?.handle(.stateChange($0), recording: false) }
            client.onRetryScheduled { [weak self] in self?.handle(.retryScheduled($0), recording: false) }
            client.onError { [weak self] in self?.handle(.error($0), recording: false) }
            client.onSigninError { [weak self] in self?.handle(.signinError($0), recording: false) }
            client.onNetworkPathChange { [weak self] in self?.handle(.networkPath($0), recording: false) }
            client.onEndpointResolution { [weak self] in self?.handle(.endpoint($0), recording: false) }
            client.onRoundTrip { [weak self] in self?.handle(.roundTrip($0), recording: false) }
        }
        client.onChannelEvent { [weak self] event in
            self?.channelEvent(event)
        }
    }

    private func handle(_ activity: ClientActivity, recording: Bool) {
        switch ClientFeed.item(activity, recording: recording) {
        case .client(let event)?: post(event)
        case .recorded(let entry)?: inbox.post(recorded: entry)
        case nil: break
        }
    }

    private func channelEvent(_ event: BirdRealtime.ChannelEvent) {
        let resumedAfter = positions.withLock { $0.observe(event) }
        // An app event the full inbox drops is counted before it is mapped: no payload text made.
        if ClientFeed.isAppEvent(event), inbox.dropEventIfFull(channel: event.channel, name: event.name) { return }
        for mapped in ClientFeed.events(event, client: client, resumedAfter: resumedAfter) { post(mapped) }
    }
}

/// A one-line reason a session could not start.
struct SessionError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
