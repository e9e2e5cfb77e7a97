import BirdRealtime
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
        @Test("edge-restart: connecting at once on 4200, unavailable with backoff while the port is closed, then connected")
        func edgeRestart() async throws {
            let sandbox = try SandboxFixture()
            defer { sandbox.stop() }
            let client = ClientFixture(sandbox: sandbox)
            client.bird.subscribe("news")
            guard let first = await client.connected() else { return }
            await client.subscribed(["news"])
            let mark = client.recorder.mark

            let run = ScaledScenario.start("edge-restart", on: sandbox.sandbox)
            defer { run.stop() }
            guard let second = await client.connected(other: first, within: 20) else { return }
            await client.subscribed(["news"])
            await client.bird.settle()

            let changes = client.recorder.changes(since: mark)
            #expect(changes.first.map { [$0.previous, $0.current] } == [.connected, .connecting], "\(changes)")
            #expect(changes.first?.cause.closeCode == 4200, "\(changes)")
            #expect(changes.contains { $0.current == .unavailable && $0.cause.isNetworkError },
                    "the closed port is a network error: \(changes)")
            #expect(!client.recorder.retries(since: mark).isEmpty, "backoff while the edge is down")
            #expect(!changes.contains { $0.current == .failed }, "\(changes)")
            #expect(changes.last?.current == .connected && changes.last?.connectionId == second)
            await client.shutdown()
        }

        @Test("over-capacity: unavailable on 4100, each refused retry waits, connected after the window")
        func overCapacity() async throws {
            let sandbox = try SandboxFixture()
            defer { sandbox.stop() }
            let client = ClientFixture(sandbox: sandbox)
            client.bird.subscribe("news")
            guard let first = await client.connected() else { return }
            let mark = client.recorder.mark

            let run = ScaledScenario.start("over-capacity", on: sandbox.sandbox)
            defer { run.stop() }
            // Refusal window: 15 s scaled to 3 s; then the next retry connects.
            guard await client.connected(other: first, within: 25) != nil else { return }
            await client.subscribed(["news"])
            await client.bird.settle()

            let changes = client.recorder.changes(since: mark)
            #expect(changes.first.map { [$0.previous, $0.current] } == [.connected, .unavailable], "\(changes)")
            #expect(changes.first?.cause.closeCode == 4100)
            // Every attempt inside the window was refused with 4100 (backoff band), none failed.
            let attempts = changes.filter { $0.previous == .connecting }
            #expect(attempts.dropLast().allSatisfy { $0.current == .unavailable && $0.cause.closeCode == 4100 },
                    "\(attempts)")
            #expect(attempts.last?.current == .connected)
            #expect(!changes.contains { $0.current == .failed })
            let retries = client.recorder.retries(since: mark)
            #expect(retries.count == changes.filter { $0.current == .unavailable }.count,
                    "one connecting_in per unavailable: \(retries) / \(changes)")
            #expect(zip(retries, retries.dropFirst()).allSatisfy { $1.attempt == $0.attempt + 1 }, "attempts grow: \(retries.map(\.attempt))")
            await client.shutdown()
        }

        @Test("terminated-member: failed with 4009 \"terminated by the app\", no retry")
        func terminatedMember() async throws {
            let sandbox = try SandboxFixture()
            defer { sandbox.stop() }
            let client = ClientFixture(sandbox: sandbox, member: "alice")
            guard await client.connected() != nil else { return }
            _ = try await client.bird.signin()
            await eventually("the sandbox has alice signed in") {
                sandbox.sandbox.connections().contains { $0.memberId == "alice" }
            }
            let mark = client.recorder.mark

            let run = ScaledScenario.start("terminated-member", on: sandbox.sandbox)
            defer { run.stop() }
            await eventually("failed") { client.state == .failed }
            // Longer than any scaled backoff: nothing may follow `failed`.
            try await Task.sleep(for: .seconds(2))
            await client.bird.settle()

            let changes = client.recorder.changes(since: mark)
            #expect(changes.map { [$0.previous, $0.current] } == [[.connected, .failed]], "\(changes)")
            #expect(changes.first?.cause.closeCode == 4009)
            #expect(client.recorder.retries(since: mark).isEmpty)
            let errors = client.recorder.errors(since: mark)
            #expect(errors.contains { $0.code == 4009 && $0.reason == "terminated by the app" }, "\(errors)")
            #expect(client.state == .failed)
        }

        @Test("stale-connection: ping, 4201 after the pong timeout, connected again at once")
        func staleConnection() async throws {
            let sandbox = try SandboxFixture()  // activity 2 s, pong 1 s (client too)
            defer { sandbox.stop() }
            let client = ClientFixture(sandbox: sandbox)
            client.bird.subscribe("news")
            guard let first = await client.connected() else { return }
            await client.subscribed(["news"])
            let mark = client.recorder.mark

            let run = ScaledScenario.start("stale-connection", on: sandbox.sandbox)
            defer { run.stop() }
            guard let second = await client.connected(other: first, within: 15) else { return }
            await client.subscribed(["news"])
            await client.bird.settle()

            let changes = client.recorder.changes(since: mark)
            #expect(changes.map(\.current) == [.connecting, .connected], "\(changes)")
            #expect(changes.first?.cause == .pongTimeout)
            #expect(changes.last?.connectionId == second)
            #expect(client.recorder.retries(since: mark).isEmpty, "4201 reconnects with no wait")
            let pings = client.recorder.wire(since: mark).filter {
                $0.0 == .outbound && (try? WireMessage.decode($0.1))?.event == "bird:ping"
            }
            #expect(!pings.isEmpty, "the client pinged the silent edge")
        }

        @Test("auth-outage: stays connected; public channels subscribe, private ones and sign-in get 503; all recover")
        func authOutage() async throws {
            let sandbox = try SandboxFixture()
            defer { sandbox.stop() }
            let client = ClientFixture(sandbox: sandbox, member: "alice")
            let recorder = client.recorder
            client.bird.subscribe("news")
            client.bird.subscribe("private-orders")
            guard let first = await client.connected() else { return }
            _ = try await client.bird.signin()
            await client.subscribed(["news", "private-orders"])
            let mark = recorder.mark

            let run = ScaledScenario.start("auth-outage", on: sandbox.sandbox)
            defer { run.stop() }
            // 2 s scaled: 503 and 4200; the client reconnects at once and its private channel fails.
            guard let during = await client.connected(other: first) else { return }
            await eventually("private-orders failed with 503") {
                recorder.events(since: mark).contains {
                    $0.channel == "private-orders" && $0.name == BirdProtocol.Event.subscriptionError
                        && $0.data?["status"]?.intValue == 503
                }
            }
            await client.subscribed(["news"])
            await eventually("the failed sign-in reached onSigninError") { !recorder.signinErrors(since: mark).isEmpty }
            #expect(client.bird.channel(named: "private-orders")?.subscribed != true)

            // 32 s scaled: recovered and 4200 again; everything comes back.
            guard await client.connected(other: during, within: 20) != nil else { return }
            await client.subscribed(["news", "private-orders"])
            await eventually("signed in again as alice") { client.bird.currentMember?.memberId == "alice" }
            await client.bird.settle()

            let changes = recorder.changes(since: mark)
            #expect(changes.allSatisfy { [.connecting, .connected].contains($0.current) }, "\(changes)")
            #expect(changes.filter { $0.current == .connecting }.allSatisfy { $0.cause.closeCode == 4200 })
            #expect(recorder.retries(since: mark).isEmpty, "4200 reconnects with no wait")
            #expect(!recorder.errors(since: mark).contains { $0.code == 4009 }, "an outage is not a 4009")
            await client.shutdown()
        }

        @Test("rate-limited-client-events: onError 4301 and the connection stays up")
        func rateLimitedClientEvents() async throws {
            let sandbox = try SandboxFixture()
            defer { sandbox.stop() }
            let client = ClientFixture(sandbox: sandbox)
            client.bird.subscribe("news")
            guard let id = await client.connected() else { return }
            let mark = client.recorder.mark

            let run = ScaledScenario.start("rate-limited-client-events", on: sandbox.sandbox)
            defer { run.stop() }
            await eventually("onError 4301") { client.recorder.errors(since: mark).contains { $0.code == 4301 } }
            try await Task.sleep(for: .milliseconds(500))
            await client.bird.settle()
            #expect(client.recorder.changes(since: mark).isEmpty, "no state change")
            #expect(client.bird.connectionId == id)
            await client.shutdown()
        }

        @Test("flaky-network: drops and silences only ever lead back to connected, channels come back")
        func flakyNetwork() async throws {
            let sandbox = try SandboxFixture()
            defer { sandbox.stop() }
            let client = ClientFixture(sandbox: sandbox)
            client.bird.subscribe("news")
            guard let first = await client.connected() else { return }
            await client.subscribed(["news"])
            let mark = client.recorder.mark

            let run = ScaledScenario.start("flaky-network", on: sandbox.sandbox)
            // Several passes of the loop (drops every 0.4–1.2 s scaled).
            await eventually("three reconnects") {
                Set(client.recorder.connectedIds).subtracting([first]).count >= 3
            }
            run.stop()
            guard await client.connected(within: 20) != nil else { return }
            await client.subscribed(["news"])
            await client.bird.settle()

            let changes = client.recorder.changes(since: mark)
            #expect(!changes.contains { [.failed, .disconnected].contains($0.current) }, "\(changes)")
            for change in changes where change.current == .unavailable {
                #expect(change.cause.closeCode == 1006 || change.cause.isNetworkError, "\(change)")
            }
            let eventMark = client.recorder.mark
            #expect(sandbox.sandbox.publish(channel: "news", event: "after-flaky", data: ["ok": true]) == 1)
            await eventually("news delivers after the flaky run") {
                !client.recorder.events("after-flaky", on: "news", since: eventMark).isEmpty
            }
            await client.shutdown()
        }
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
