import BirdRealtime
import BirdSandbox
import BirdWire
import Foundation
import Testing
import TestSupport

/// `bird-sandbox --replay` end to end: a real client's reconnect sequence against a live sandbox
/// is written as a docs/RECORDING.md transcript, then a sandbox in replay mode plays its server
/// side to a fresh client, whose state sequence must be the same.
extension Integration {
    @Suite(.serialized) struct ReplayIntegrationTests {
        static let channels = ["public-demo", "private-room"]

        @Test("a recorded edge restart, drop and over-capacity spell replays to the same states, codes and ids")
        func replayReproducesTheReconnectSequence() async throws {
            // 1. Record against a live sandbox: an edge restart (4200, port closed for a moment:
            // refused attempts), a TCP drop, then over capacity (4100 close, refused with 4100 for
            // a moment). After each, wait until the channels are subscribed on the new connection.
            let live = try SandboxFixture()
            let originalGate = TransportGate()
            let original = ClientFixture(sandbox: live, environment: originalGate.environment)
            let recording = TranscriptWriter(dialect: .bird, channels: Self.channels)
            recording.attach(to: original.bird)
            originalGate.open()  // the wire tap is in place before the first socket can bring a handshake
            for name in Self.channels { original.bird.subscribe(name) }
            guard var id = await original.connected() else { return }
            func settled(_ connections: Int) async -> Bool {
                await eventually(
                    "\(connections) connection(s), each with 2 subscriptions; states \(original.recorder.states)"
                ) {
                    recording.connected == connections && recording.succeeded == 2 * connections
                        && original.state == .connected
                }
            }
            guard await settled(1) else { return }
            live.sandbox.restart(code: 4200, reason: "edge restarting", downSeconds: 0.4)
            guard await settled(2), let second = original.bird.connectionId, second != id else { return }
            id = second
            #expect(live.sandbox.drop(id: id))
            guard await settled(3), let third = original.bird.connectionId else { return }
            live.sandbox.refuse(code: 4100, reason: "over capacity", seconds: 0.5)
            live.sandbox.closeConnection(id: third, code: 4100, reason: "over capacity")
            guard await settled(4) else { return }
            await original.bird.settle()
            let text = recording.text
            let recorded = recording.changes
            await original.shutdown()
            live.stop()

            // The transcript reads back into one segment per connection attempt.
            let plan = ServerReplayPlan(source: try ServerReplaySource(parsing: text))
            let attempts = recorded.filter { $0.current == .connecting }.count
            #expect(plan.segments.count == attempts, "segments of\n\(text)")
            #expect(plan.segments.contains { $0.isRefused }, "the restart's refused attempts")
            #expect(
                plan.segments.contains { $0.end == .close(code: 4100, reason: "over capacity") && $0.steps.isEmpty })
            #expect(plan.segments.first?.end == .close(code: 4200, reason: "edge restarting"))
            #expect(plan.segments.last?.end == .stayOpen)
            #expect(plan.warnings.isEmpty, "\(plan.warnings)")

            // 2. Replay to a fresh client with the same subscriptions.
            let log = Box<[String]>([])
            let replay = try SandboxFixture { configuration in
                configuration.replay = plan
                configuration.replayLog = { line in log.withLock { $0.append(line) } }
            }
            let replayedGate = TransportGate()
            let replayed = ClientFixture(sandbox: replay, environment: replayedGate.environment)
            let observed = TranscriptWriter(dialect: .bird, channels: Self.channels)
            observed.attach(to: replayed.bird)
            replayedGate.open()  // the wire tap is in place before the first socket can bring a handshake
            for name in Self.channels { replayed.bird.subscribe(name) }
            await eventually("4 connections, 8 subscriptions; states \(replayed.recorder.states)", within: 30) {
                observed.connected == 4 && observed.succeeded == 8
                    && observed.changes.count >= recorded.count
            }
            #expect(await replayed.subscribed(Self.channels))
            await replayed.bird.settle()
            let replayedChanges = observed.changes
            await replayed.shutdown()
            replay.sandbox.stopReplay(grace: 0.5)
            replay.stop()

            let lines = log.snapshot
            #expect(Self.summary(replayedChanges) == Self.summary(recorded), "log:\n\(lines.joined(separator: "\n"))")
            #expect(
                replayedChanges.compactMap(\.connectionId) == recorded.compactMap(\.connectionId),
                "the recorded handshakes, verbatim")
            #expect(!lines.contains { $0.contains("mismatch") || $0.contains("unexpected") }, "\(lines)")
            #expect(lines.contains { $0.contains("segment 1/\(attempts): closed with 4200 \"edge restarting\"") })
            #expect(lines.contains { $0.contains("dropped right after accepting") })
            #expect(lines.contains { $0.contains("dropped the TCP connection") })
            #expect(lines.contains { $0.contains("closed with 4100 \"over capacity\"") })
        }

        @Test("a recorded pong timeout and termination replay the same way: silence, then 4009")
        func replayReproducesAPongTimeoutAndATermination() async throws {
            // 1. Record: the edge goes silent (the client's pong timer fires: 4201, straight
            // back), then the member is terminated (4009: failed, no retry).
            let live = try SandboxFixture()
            let originalGate = TransportGate()
            let original = ClientFixture(sandbox: live, environment: originalGate.environment)
            let recording = TranscriptWriter(dialect: .bird, channels: ["public-demo"])
            recording.attach(to: original.bird)
            originalGate.open()  // the wire tap is in place before the first socket can bring a handshake
            original.bird.subscribe("public-demo")
            guard let first = await original.connected() else { return }
            await eventually("subscribed on the first connection") { recording.succeeded == 1 }
            #expect(live.sandbox.silence(id: first))
            guard let second = await original.connected(other: first) else { return }
            await eventually("subscribed on the second connection") { recording.succeeded == 2 }
            #expect(live.sandbox.closeConnection(id: second, code: 4009, reason: "terminated by the app"))
            await eventually("failed") { original.state == .failed }
            await original.bird.settle()
            let text = recording.text
            let recorded = recording.changes
            await original.shutdown()
            live.stop()

            let plan = ServerReplayPlan(source: try ServerReplaySource(parsing: text))
            #expect(
                plan.segments.map(\.end) == [.silence, .close(code: 4009, reason: "terminated by the app")],
                "segments of\n\(text)")

            // 2. Replay.
            let log = Box<[String]>([])
            let replay = try SandboxFixture { configuration in
                configuration.replay = plan
                configuration.replayLog = { line in log.withLock { $0.append(line) } }
            }
            let replayedGate = TransportGate()
            let replayed = ClientFixture(sandbox: replay, environment: replayedGate.environment)
            let observed = TranscriptWriter(dialect: .bird, channels: ["public-demo"])
            observed.attach(to: replayed.bird)
            replayedGate.open()  // the wire tap is in place before the first socket can bring a handshake
            replayed.bird.subscribe("public-demo")
            await eventually("failed after the replay; states \(replayed.recorder.states)", within: 30) {
                replayed.state == .failed && observed.changes.count >= recorded.count
            }
            await replayed.bird.settle()
            let replayedChanges = observed.changes
            await replayed.shutdown()
            replay.sandbox.stopReplay(grace: 0.5)
            replay.stop()

            let lines = log.snapshot
            #expect(Self.summary(replayedChanges) == Self.summary(recorded), "log:\n\(lines.joined(separator: "\n"))")
            #expect(Self.summary(recorded).contains("connected → connecting 4201"), "\(Self.summary(recorded))")
            #expect(
                replayedChanges.compactMap(\.connectionId) == recorded.compactMap(\.connectionId),
                "the recorded handshakes, verbatim")
            #expect(lines.contains { $0.contains("segment 1/2: went silent") }, "\(lines)")
            #expect(lines.contains { $0.contains("segment 1/2: dropped the silent connection") }, "\(lines)")
            #expect(lines.contains { $0.contains("segment 2/2: closed with 4009 \"terminated by the app\"") })
        }

        /// previous → current, with the close code and reason of a server close.
        static func summary(_ changes: [StateChange]) -> [String] {
            changes.map { change in
                var text = "\(change.previous) → \(change.current)"
                if let code = change.cause.closeCode { text += " \(code)" }
                if case .serverClose(_, let reason) = change.cause { text += " \(reason)" }
                return text
            }
        }
    }
}

/// Holds a client's first socket until the test has attached its observers: an observer
/// registered after `init` can otherwise miss the handshake when the machine is loaded (the
/// transcript then lacks it and the replay never sends one — seen 1 in 4 runs under load).
final class TransportGate: @unchecked Sendable {
    private let opened = DispatchSemaphore(value: 0)

    /// The live environment whose transports wait (up to 10 s) until ``open()``.
    var environment: RealtimeEnvironment {
        let live = RealtimeEnvironment.live
        return RealtimeEnvironment(
            clock: live.clock,
            makeTransport: { [opened] configuration, queue, onEvents in
                if opened.wait(timeout: .now() + 10) == .success { opened.signal() }
                return live.makeTransport(configuration, queue, onEvents)
            }, http: live.http)
    }

    /// Lets every transport (the first and all later ones) open.
    func open() { opened.signal() }
}

/// Collects a client's state changes and wire messages into transcript lines, the way
/// `bird-inspect --record` writes them (docs/RECORDING.md, version 1): header, `state` and `wire`.
final class TranscriptWriter: @unchecked Sendable {
    private let lock = NSLock()
    private let start = ContinuousClock.now
    private var lines: [String]
    private var _changes: [StateChange] = []
    private var _succeeded = 0
    private let dialect: Dialect

    init(dialect: Dialect, channels: [String]) {
        self.dialect = dialect
        lines = [
            JSONValue.object([
                "ts": .string(Self.timestamp()), "mono_ms": 0, "type": "recording", "version": 1,
                "tool": "ReplayIntegrationTests", "dialect": .string(dialect.rawValue), "host": "127.0.0.1",
                "tls": false, "app_key": "sandbox-key", "channels": .array(channels.map { .string($0) }),
            ]).description
        ]
    }

    func attach(to bird: BirdRealtime) {
        bird.onStateChange { change in self.record(change) }
        bird.onWireMessage { direction, text in self.record(direction, text) }
    }

    var text: String { locked { lines.joined(separator: "\n") + "\n" } }
    var changes: [StateChange] { locked { _changes } }
    /// How many `subscription_succeeded` messages came in.
    var succeeded: Int { locked { _succeeded } }
    /// How many times the client reached `connected`.
    var connected: Int { locked { _changes.filter { $0.current == .connected }.count } }

    private func record(_ change: StateChange) {
        var object: [String: JSONValue] = [
            "type": "state", "previous": .string(change.previous.rawValue), "current": .string(change.current.rawValue),
            "cause": .string(Self.causeText(change.cause)),
        ]
        if let id = change.connectionId { object["connection_id"] = .string(id) }
        if let code = Self.closeCode(change.cause) { object["close_code"] = .number(JSONNumber(code)) }
        append(object) { self._changes.append(change) }
    }

    private func record(_ direction: WireDirection, _ text: String) {
        let inbound = direction == .inbound
        let object: [String: JSONValue] = [
            "type": "wire", "direction": .string(inbound ? "in" : "out"), "text": .string(text),
        ]
        let succeeded = inbound && text.contains(ProtocolEvent.subscriptionSucceeded.wireName(dialect))
        append(object) { if succeeded { self._succeeded += 1 } }
    }

    private func append(_ fields: [String: JSONValue], then update: () -> Void) {
        let ms = (ContinuousClock.now - start) / .milliseconds(1)
        var object = fields
        object["ts"] = .string(Self.timestamp())
        object["mono_ms"] = JSONValue((ms * 1000).rounded() / 1000)
        let line = JSONValue.object(JSONObject(object)).description
        locked {
            lines.append(line)
            update()
        }
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    private static func timestamp() -> String {
        Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true)) + "Z"
    }

    /// The inspector's cause text (BirdInspector's `TransitionCause.text`, as `--jsonl` writes it).
    static func causeText(_ cause: StateChangeCause) -> String {
        switch cause {
        case .start: return "client started"
        case .connectCalled: return "connect() called"
        case .handshake: return "handshake received"
        case .retry: return "retry due"
        case .serverClose(let code, let reason):
            return "server closed: \(code) \(CloseCode.meaning(code))" + (reason.isEmpty ? "" : " (\(reason))")
        case .pongTimeout: return "pong timeout"
        case .networkError(let message): return "network error: \(message)"
        case .protocolViolation(let code, let reason):
            return "client closed: \(code) \(CloseCode.meaning(code))" + (reason.isEmpty ? "" : " (\(reason))")
        case .handshakeWithoutId: return "handshake without connection id"
        case .disconnectCalled: return "disconnect() called"
        case .dropped: return "socket dropped"
        case .signout: return "signed out"
        case .configuration(let message): return "configuration error: \(message)"
        case .networkUnavailable, .networkRestored, .networkChanged, .endpointUnavailable: return cause.description
        }
    }

    /// The inspector's `close_code` (none for a handshake without id, unlike the client's).
    static func closeCode(_ cause: StateChangeCause) -> Int? {
        if case .handshakeWithoutId = cause { return nil }
        return cause.closeCode
    }
}
