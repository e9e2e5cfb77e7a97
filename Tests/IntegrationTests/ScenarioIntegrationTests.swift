import BirdRealtime
import BirdRealtimeTestSupport
import BirdSandbox
import BirdWire
import Dispatch
import Foundation
import Testing

/// Each built-in scenario of `bird-sandbox --scenario` (README's table, docs/SCENARIOS.md) played
/// against a real client over loopback, judged by the client's state sequence, retries and errors.
///
/// The scenarios run at a fifth of their time (waits, refusal windows and down times scaled by
/// ``ScaledScenario/factor``) so the suite stays short; the client's backoff jitter is scaled the
/// same way by ``ClientFixture``. Deadlines are generous functional bounds, not timing claims.
extension Integration {
    @Suite(.serialized) struct ScenarioIntegrationTests {
        @Test(
            "edge-restart: connecting at once on 4200, unavailable with backoff while the port is closed, then connected"
        )
        func edgeRestart() async throws {
            guard let run = try await ScenarioRun.start("edge-restart") else { return }
            defer { run.stop() }
            guard let second = await run.reconnected(within: 20) else { return }

            let changes = run.changes
            #expect(changes.first.map { [$0.previous, $0.current] } == [.connected, .connecting], "\(changes)")
            #expect(changes.first?.cause.closeCode == 4200, "\(changes)")
            #expect(
                changes.contains { $0.current == .unavailable && $0.cause.isNetworkError },
                "the closed port is a network error: \(changes)")
            #expect(!run.retries.isEmpty, "backoff while the edge is down")
            #expect(!changes.contains { $0.current == .failed }, "\(changes)")
            #expect(changes.last?.current == .connected && changes.last?.connectionId == second)
        }

        @Test("over-capacity: unavailable on 4100, each refused retry waits, connected after the window")
        func overCapacity() async throws {
            guard let run = try await ScenarioRun.start("over-capacity") else { return }
            defer { run.stop() }
            // Refusal window: 15 s scaled to 3 s; then the next retry connects.
            guard await run.reconnected(within: 25) != nil else { return }

            let changes = run.changes
            #expect(changes.first.map { [$0.previous, $0.current] } == [.connected, .unavailable], "\(changes)")
            #expect(changes.first?.cause.closeCode == 4100)
            // Every attempt inside the window was refused with 4100 (backoff band), none failed.
            let attempts = changes.filter { $0.previous == .connecting }
            #expect(
                attempts.dropLast().allSatisfy { $0.current == .unavailable && $0.cause.closeCode == 4100 },
                "\(attempts)")
            #expect(attempts.last?.current == .connected)
            #expect(!changes.contains { $0.current == .failed })
            let retries = run.retries
            #expect(
                retries.count == changes.filter { $0.current == .unavailable }.count,
                "one connecting_in per unavailable: \(retries) / \(changes)")
            #expect(
                zip(retries, retries.dropFirst()).allSatisfy { $1.attempt == $0.attempt + 1 },
                "attempts grow: \(retries.map(\.attempt))")
        }

        @Test("terminated-member: failed with 4009 \"terminated by the app\", no retry")
        func terminatedMember() async throws {
            guard let run = try await ScenarioRun.start("terminated-member", member: "alice", channels: []) else {
                return
            }
            defer { run.stop() }
            await eventually("failed") { run.client.state == .failed }
            await run.client.bird.settle()
            // Nothing can follow `failed`: no retry is scheduled (only `connect()` leaves it).
            #expect(run.client.bird.nextAttemptAt == nil)
            #expect(run.client.state == .failed)

            let changes = run.changes
            #expect(changes.map { [$0.previous, $0.current] } == [[.connected, .failed]], "\(changes)")
            #expect(changes.first?.cause.closeCode == 4009)
            #expect(run.retries.isEmpty)
            let errors = run.client.recorder.errors(since: run.mark)
            #expect(errors.contains { $0.code == 4009 && $0.reason == "terminated by the app" }, "\(errors)")
        }

        @Test("stale-connection: ping, 4201 after the pong timeout, connected again at once")
        func staleConnection() async throws {
            // The fixtures' activity timeout is 2 s and pong timeout 1 s, client and sandbox.
            guard let run = try await ScenarioRun.start("stale-connection") else { return }
            defer { run.stop() }
            guard let second = await run.reconnected(within: 15) else { return }

            let changes = run.changes
            #expect(changes.map(\.current) == [.connecting, .connected], "\(changes)")
            #expect(changes.first?.cause == .pongTimeout)
            #expect(changes.last?.connectionId == second)
            #expect(run.retries.isEmpty, "4201 reconnects with no wait")
            let pings = run.client.recorder.wire(since: run.mark).filter {
                $0.0 == .outbound && (try? WireMessage.decode($0.1))?.event == "bird:ping"
            }
            #expect(!pings.isEmpty, "the client pinged the silent edge")
        }

        @Test("auth-outage: stays connected; public channels subscribe, private ones and sign-in get 503; all recover")
        func authOutage() async throws {
            guard
                let run = try await ScenarioRun.start(
                    "auth-outage", member: "alice", channels: ["news", "private-orders"])
            else { return }
            defer { run.stop() }
            let recorder = run.client.recorder
            let mark = run.mark
            // 2 s scaled: 503 and 4200; the client reconnects at once and its private channel fails.
            guard let during = await run.client.connected(other: run.first) else { return }
            await eventually("private-orders failed with 503") {
                recorder.events(since: mark).contains {
                    $0.channel == "private-orders" && $0.name == BirdProtocol.Event.subscriptionError
                        && $0.data?["status"]?.intValue == 503
                }
            }
            await run.client.subscribed(["news"])
            await eventually("the failed sign-in reached onSigninError") { !recorder.signinErrors(since: mark).isEmpty }
            #expect(run.client.bird.channel(named: "private-orders")?.subscribed != true)

            // 32 s scaled: recovered and 4200 again; everything comes back.
            guard await run.reconnected(other: during, within: 20) != nil else { return }
            await eventually("signed in again as alice") { run.client.bird.currentMember?.memberId == "alice" }

            let changes = run.changes
            #expect(changes.allSatisfy { [.connecting, .connected].contains($0.current) }, "\(changes)")
            #expect(changes.filter { $0.current == .connecting }.allSatisfy { $0.cause.closeCode == 4200 })
            #expect(run.retries.isEmpty, "4200 reconnects with no wait")
            #expect(!recorder.errors(since: mark).contains { $0.code == 4009 }, "an outage is not a 4009")
        }

        @Test("rate-limited-client-events: onError 4301 and the connection stays up")
        func rateLimitedClientEvents() async throws {
            guard let run = try await ScenarioRun.start("rate-limited-client-events") else { return }
            defer { run.stop() }
            await eventually("onError 4301") {
                run.client.recorder.errors(since: run.mark).contains { $0.code == 4301 }
            }
            // A round trip through the edge after the 4301 (the edge answers in order, so a close it
            // meant to send would have come first) instead of a sleep.
            run.client.bird.subscribe("public-barrier")
            await run.client.subscribed(["public-barrier"])
            await run.client.bird.settle()
            #expect(run.changes.isEmpty, "no state change")
            #expect(run.client.bird.connectionId == run.first)
        }

        @Test("flaky-network: drops and silences only ever lead back to connected, channels come back")
        func flakyNetwork() async throws {
            guard let run = try await ScenarioRun.start("flaky-network") else { return }
            defer { run.stop() }
            // Several passes of the loop (drops every 0.4–1.2 s scaled).
            await eventually("three reconnects") {
                Set(run.client.recorder.connectedIds).subtracting([run.first]).count >= 3
            }
            run.scenario.stop()
            guard await run.client.connected(within: 20) != nil else { return }
            await run.client.subscribed(["news"])
            await run.client.bird.settle()

            let changes = run.changes
            #expect(!changes.contains { [.failed, .disconnected].contains($0.current) }, "\(changes)")
            for change in changes where change.current == .unavailable {
                #expect(change.cause.closeCode == 1006 || change.cause.isNetworkError, "\(change)")
            }
            let eventMark = run.client.recorder.mark
            #expect(run.sandbox.sandbox.publish(channel: "news", event: "after-flaky", data: ["ok": true]) == 1)
            await eventually("news delivers after the flaky run") {
                !run.client.recorder.events("after-flaky", on: "news", since: eventMark).isEmpty
            }
        }
    }
}

/// A sandbox, a client connected to it (signed in as `member` when given) with its channels
/// subscribed, and a built-in scenario started after that.
struct ScenarioRun {
    let sandbox: SandboxFixture
    let client: ClientFixture
    let channels: [String]
    /// The connection id before the scenario.
    let first: String
    /// The recorder's position when the scenario started.
    let mark: ClientRecorder.Mark
    let scenario: ScaledScenario

    static func start(_ name: String, member: String? = nil, channels: [String] = ["news"]) async throws
        -> ScenarioRun?
    {
        let sandbox = try SandboxFixture()
        let client = ClientFixture(sandbox: sandbox, member: member)
        for name in channels { client.bird.subscribe(name) }
        guard let first = await client.connected() else {
            sandbox.stop()
            return nil
        }
        if let member {
            _ = try await client.bird.signin()
            await eventually("the sandbox has \(member) signed in") {
                sandbox.sandbox.connections().contains { $0.memberId == member }
            }
        }
        await client.subscribed(channels)
        let mark = client.recorder.mark
        return ScenarioRun(
            sandbox: sandbox, client: client, channels: channels, first: first, mark: mark,
            scenario: ScaledScenario.start(name, on: sandbox.sandbox))
    }

    /// Waits for a connection other than `other` (default: the first) with every channel back.
    func reconnected(other: String? = nil, within seconds: Double) async -> String? {
        guard let id = await client.connected(other: other ?? first, within: seconds) else { return nil }
        await client.subscribed(channels)
        await client.bird.settle()
        return id
    }

    var changes: [StateChange] { client.recorder.changes(since: mark) }
    var retries: [RetrySchedule] { client.recorder.retries(since: mark) }

    func stop() {
        scenario.stop()
        if client.state != .failed { client.bird.disconnect() }
        sandbox.stop()
    }
}

/// A built-in scenario played in scaled time on a real sandbox.
struct ScaledScenario {
    /// Every wait, refusal window and down time is multiplied by this.
    static let factor = 0.2

    let runner: ScenarioRunner

    static func start(_ name: String, on sandbox: Sandbox) -> ScaledScenario {
        let scenario = ScenarioCatalogue.named(name)!
        let runner = ScenarioRunner(
            scenario: scenario, control: ScaledControl(base: sandbox, factor: factor),
            scheduler: ScaledScheduler(factor: factor))
        runner.start()
        return ScaledScenario(runner: runner)
    }

    func stop() { runner.stop() }
}

/// Real time on a queue, every wait multiplied by `factor`.
struct ScaledScheduler: ScenarioScheduler {
    let factor: Double
    private let base = DispatchScenarioScheduler()

    init(factor: Double) { self.factor = factor }

    func schedule(after seconds: Double, _ work: @escaping @Sendable () -> Void) {
        base.schedule(after: seconds * factor, work)
    }
}

/// The sandbox's control calls with their durations scaled.
struct ScaledControl: ScenarioControl {
    let base: Sandbox
    let factor: Double

    func connections() -> [SandboxConnectionInfo] { base.connections() }
    func closeAll(code: Int, reason: String) -> Int { base.closeAll(code: code, reason: reason) }
    func closeConnection(id: String, code: Int, reason: String) -> Bool {
        base.closeConnection(id: id, code: code, reason: reason)
    }
    func drop(id: String) -> Bool { base.drop(id: id) }
    func silence(id: String) -> Bool { base.silence(id: id) }
    func refuse(code: Int, reason: String, seconds: Double?) {
        base.refuse(code: code, reason: reason, seconds: seconds.map { $0 * factor })
    }
    func acceptConnections() { base.acceptConnections() }
    func restart(code: Int, reason: String, downSeconds: Double) {
        base.restart(code: code, reason: reason, downSeconds: downSeconds * factor)
    }
    func setAuthFailure(status: Int, prefix: String?) { base.setAuthFailure(status: status, prefix: prefix) }
    func clearAuthFailure() { base.clearAuthFailure() }
    func publish(channel: String, event: String, data: JSONValue?) -> Int {
        base.publish(channel: channel, event: event, data: data)
    }
    func omitHandshakeId(count: Int) { base.omitHandshakeId(count: count) }
    func terminate(memberId: String) -> Int { base.terminate(memberId: memberId) }
    func send(id: String, text: String) -> Bool { base.send(id: id, text: text) }
    var scenarioDialect: Dialect { base.configuration.dialect }
}

extension StateChangeCause {
    /// Whether this is a network failure (refused, reset, unreachable, …).
    var isNetworkError: Bool {
        if case .networkError = self { return true }
        return false
    }
}
