import BirdWire
import Foundation
import Synchronization
import Testing

@testable import BirdSandbox

/// Records every control call with the virtual time it happened at.
private final class RecordingControl: ScenarioControl, Sendable {
    let calls = Mutex<[String]>([])
    let open: Mutex<[SandboxConnectionInfo]>
    let clock: @Sendable () -> Double
    let scenarioDialect: Dialect = .bird

    init(connections: [(String, String?)], clock: @escaping @Sendable () -> Double) {
        open = Mutex(
            connections.map {
                SandboxConnectionInfo(
                    id: $0.0, memberId: $0.1, channels: [], remote: "127.0.0.1:1", connectedAt: 0, silenced: false)
            })
        self.clock = clock
    }

    private func record(_ text: String) {
        let now = clock()
        calls.withLock { $0.append("\(now.formatted(.number.precision(.fractionLength(0...3)))) \(text)") }
    }

    var recorded: [String] { calls.withLock { $0 } }

    func connections() -> [SandboxConnectionInfo] { open.withLock { $0 } }
    func closeAll(code: Int, reason: String) -> Int {
        record("closeAll \(code) \(reason)")
        return open.withLock { $0.count }
    }
    func closeConnection(id: String, code: Int, reason: String) -> Bool {
        record("close \(id) \(code) \(reason)")
        return true
    }
    func drop(id: String) -> Bool {
        record("drop \(id)")
        return true
    }
    func silence(id: String) -> Bool {
        record("silence \(id)")
        return true
    }
    func refuse(code: Int, reason: String, seconds: Double?) { record("refuse \(code) \(reason) \(seconds ?? -1)") }
    func acceptConnections() { record("accept") }
    func restart(code: Int, reason: String, downSeconds: Double) { record("restart \(code) \(reason) \(downSeconds)") }
    func setAuthFailure(status: Int, prefix: String?) { record("authFailure \(status) \(prefix ?? "-")") }
    func clearAuthFailure() { record("authRecover") }
    func publish(channel: String, event: String, data: JSONValue?) -> Int {
        record("publish \(channel) \(event) \(data?.description ?? "-")")
        return 1
    }
    func omitHandshakeId(count: Int) { record("omitHandshakeId \(count)") }
    func terminate(memberId: String) -> Int {
        record("terminate \(memberId)")
        return 1
    }
    func send(id: String, text: String) -> Bool {
        record("send \(id) \(text)")
        return true
    }
}

@Suite struct ScenarioTests {
    private func run(
        _ scenario: Scenario, connections: [(String, String?)] = [("c1", nil), ("c2", "alice")], for seconds: Double
    ) -> (calls: [String], log: [String], runner: ScenarioRunner) {
        let scheduler = VirtualScheduler()
        let control = RecordingControl(connections: connections, clock: { scheduler.now })
        let log = Mutex<[String]>([])
        let runner = ScenarioRunner(scenario: scenario, control: control, scheduler: scheduler) { line in
            log.withLock { $0.append(line) }
        }
        runner.start()
        scheduler.advance(by: seconds)
        return (control.recorded, log.withLock { $0 }, runner)
    }

    // MARK: Decoding

    @Test func decodesEveryActionWithDefaults() throws {
        let scenario = try Scenario(
            json: """
                {"name": "all", "description": "every action", "loop": false, "seed": 7, "steps": [
                  {"after": 1, "action": "close-all", "code": 4100, "reason": "full"},
                  {"action": "close", "target": "oldest"},
                  {"after": [1, 2], "action": "drop", "target": "random"},
                  {"action": "silence", "target": "signed-in"},
                  {"action": "refuse", "code": 4100, "seconds": 5},
                  {"action": "refuse"},
                  {"action": "accept"},
                  {"action": "restart", "down_seconds": 2},
                  {"action": "auth-failure", "status": 500, "prefix": "private-"},
                  {"action": "auth-recover"},
                  {"action": "publish", "channel": "news", "event": "update", "data": {"a": 1}},
                  {"action": "omit-handshake-id", "count": 2},
                  {"action": "terminate"},
                  {"action": "error", "target": "newest"}
                ]}
                """)
        #expect(scenario.name == "all")
        #expect(scenario.seed == 7)
        #expect(scenario.loop == false)
        #expect(
            scenario.steps == [
                .init(after: .fixed(1), .closeAll(code: 4100, reason: "full")),
                .init(after: .fixed(0), .close(.oldest, code: 4200, reason: "closed by the scenario")),
                .init(after: .between(1, 2), .drop(.random)),
                .init(after: .fixed(0), .silence(.signedIn)),
                .init(after: .fixed(0), .refuse(code: 4100, reason: "over capacity", seconds: 5)),
                .init(after: .fixed(0), .refuse(code: 4100, reason: "over capacity", seconds: nil)),
                .init(after: .fixed(0), .accept),
                .init(after: .fixed(0), .restart(code: 4200, reason: "edge restarting", downSeconds: 2)),
                .init(after: .fixed(0), .authFailure(status: 500, prefix: "private-")),
                .init(after: .fixed(0), .authRecover),
                .init(after: .fixed(0), .publish(channel: "news", event: "update", data: ["a": 1])),
                .init(after: .fixed(0), .omitHandshakeId(count: 2)),
                .init(after: .fixed(0), .terminate(.signedIn)),
                .init(after: .fixed(0), .error(.newest, code: 4301, message: "client event rejected")),
            ])
    }

    @Test(arguments: [
        ("{", "not valid JSON"),
        ("[]", "a scenario is a JSON object"),
        (#"{"steps": [{"action": "accept"}]}"#, "scenario: 'name' is missing"),
        (#"{"name": "x"}"#, "scenario: 'steps' is missing"),
        (#"{"name": "x", "steps": []}"#, "scenario: 'steps' must be a non-empty array"),
        (#"{"name": "x", "stpes": [], "steps": [{"action": "accept"}]}"#, "scenario: unknown key 'stpes'"),
        (#"{"name": "x", "steps": [{"after": 1}]}"#, "step 1: 'action' is missing"),
        (#"{"name": "x", "steps": [{"action": "accept"}, {"action": "explode"}]}"#, "step 2: unknown action 'explode'"),
        (
            #"{"name": "x", "steps": [{"action": "drop", "target": "everyone"}]}"#,
            "step 1 (drop): 'target' must be one of"
        ),
        (#"{"name": "x", "steps": [{"action": "drop", "after": -1}]}"#, "step 1 (drop): 'after' must be"),
        (#"{"name": "x", "steps": [{"action": "drop", "after": [3, 1]}]}"#, "step 1 (drop): 'after' must be"),
        (#"{"name": "x", "steps": [{"action": "close-all", "code": "4200"}]}"#, "step 1 (close-all): 'code' must be"),
        (#"{"name": "x", "steps": [{"action": "refuse", "seconds": 0}]}"#, "step 1 (refuse): 'seconds' must be"),
        // Upper bounds, stated in the message (a huge wait must not reach the scheduler).
        (#"{"name": "x", "steps": [{"action": "drop", "after": 1e300}]}"#, "'after' must be seconds in 0…86400"),
        (#"{"name": "x", "steps": [{"action": "drop", "after": [0, 86401]}]}"#, "0…86400"),
        (
            #"{"name": "x", "steps": [{"action": "refuse", "seconds": 86401}]}"#,
            "'seconds' must be a number of seconds > 0 and ≤ 86400"
        ),
        (
            #"{"name": "x", "steps": [{"action": "restart", "down_seconds": 1e10}]}"#,
            "'down_seconds' must be a number of seconds > 0 and ≤ 3600"
        ),
        (#"{"name": "x", "steps": [{"action": "accept", "code": 1}]}"#, "step 1 (accept): unknown key 'code'"),
        (#"{"name": "x", "steps": [{"action": "publish", "channel": "a"}]}"#, "step 1 (publish): 'event' is missing"),
        (
            #"{"name": "x", "steps": [{"action": "publish", "channel": "a", "event": "e", "count": 0}]}"#,
            "step 1 (publish): 'count' must be"
        ),
        (
            #"{"name": "x", "steps": [{"action": "publish", "channel": "a", "event": "e", "count": 100001}]}"#,
            "step 1 (publish): 'count' must be"
        ),
        (
            #"{"name": "x", "steps": [{"action": "auth-failure", "status": 200}]}"#,
            "step 1 (auth-failure): 'status' must be"
        ),
        (
            #"{"name": "x", "loop": true, "steps": [{"action": "drop"}]}"#,
            "a looping scenario needs a step with 'after' > 0"
        ),
    ])
    func rejectsBadFilesWithOneClearLine(text: String, expected: String) {
        do {
            _ = try Scenario(json: text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.message.contains(expected), "\(error.message)")
            #expect(!error.message.contains("\n"))
        }
    }

    @Test func loadsBuiltInsByNameAndFilesByPath() throws {
        #expect(try ScenarioCatalogue.load("edge-restart").name == "edge-restart")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-\(UUID().uuidString).json")
            .path
        try #"{"name": "file", "steps": [{"after": 1, "action": "accept"}]}"#.write(
            toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try ScenarioCatalogue.load(path).name == "file")
        #expect(throws: ScenarioError.self) { try ScenarioCatalogue.load("no-such-scenario") }
    }

    @Test func builtInsCoverTheIssueAndDecodeNothingInvalid() {
        let names = Set(ScenarioCatalogue.all.map(\.name))
        for name in [
            "flaky-network", "edge-restart", "over-capacity", "terminated-member", "stale-connection", "auth-outage",
            "outage-publish", "rate-limited-client-events",
        ] {
            #expect(names.contains(name), "\(name)")
        }
        #expect(names.count == ScenarioCatalogue.all.count)
    }

    // MARK: Command line

    @Test func commandLineLoadsAScenarioAndRejectsUnknownOnes() throws {
        let invocation = try SandboxCommandLine.parseInvocation(["--port", "0", "--scenario", "over-capacity"])
        #expect(invocation.scenario?.name == "over-capacity")
        guard case .run(let configuration, _) = invocation.parsed else { throw ScenarioError("not a run") }
        #expect(configuration.port == 0)
        #expect(try SandboxCommandLine.parseInvocation([]).scenario == nil)
        do {
            _ = try SandboxCommandLine.parseInvocation(["--scenario", "nope"])
            Issue.record("accepted an unknown scenario")
        } catch {
            #expect(error.message.hasPrefix("--scenario: unknown scenario 'nope'"))
        }
        for scenario in ScenarioCatalogue.all {
            #expect(SandboxCommandLine.usage.contains(scenario.name))
        }
    }

    // MARK: Built-ins on a virtual clock

    @Test func edgeRestart() {
        let (calls, log, runner) = run(ScenarioCatalogue.named("edge-restart")!, for: 2.9)
        #expect(calls.isEmpty)
        #expect(log.count == 1)
        _ = runner
        let done = run(ScenarioCatalogue.named("edge-restart")!, for: 10)
        #expect(done.calls == ["3 restart 4200 edge restarting 5.0"])
        #expect(done.runner.isFinished)
        #expect(done.log.last == "scenario edge-restart: done")
    }

    @Test("each logged line is also reported in parts: step number, action and outcome")
    func reportsEachLine() {
        let scheduler = VirtualScheduler()
        let control = RecordingControl(connections: [("c1", nil)], clock: { scheduler.now })
        let reports = Mutex<[ScenarioRunner.Report]>([])
        let logged = Mutex<[String]>([])
        let runner = ScenarioRunner(
            scenario: ScenarioCatalogue.named("edge-restart")!, control: control, scheduler: scheduler
        ) { line in
            logged.withLock { $0.append(line) }
        } report: { report in
            reports.withLock { $0.append(report) }
        }
        runner.start()
        scheduler.advance(by: 10)
        let got = reports.withLock { $0 }
        #expect(got.map(\.line) == logged.withLock { $0 })
        #expect(got.map(\.step) == [nil, 1, nil])
        #expect(got.map(\.text).last == "done")
        guard got.count == 3, case .restart(_, _, let down)? = got[1].action else {
            Issue.record("no restart step reported: \(got.map(\.line))")
            return
        }
        #expect(down == 5)
        #expect(got[1].text.contains("down for 5.0 s"), "\(got[1].text)")
    }

    @Test func overCapacity() {
        let (calls, _, runner) = run(ScenarioCatalogue.named("over-capacity")!, for: 30)
        #expect(calls == ["3 refuse 4100 over capacity 15.0", "3 closeAll 4100 over capacity", "18 accept"])
        #expect(runner.isFinished)
    }

    @Test func terminatedMemberTerminatesSignedInMembers() {
        let (calls, _, _) = run(
            ScenarioCatalogue.named("terminated-member")!,
            connections: [("c1", nil), ("c2", "alice"), ("c3", "alice"), ("c4", "bob")], for: 5)
        #expect(calls == ["3 terminate alice", "3 terminate bob"])
    }

    @Test func terminatedMemberClosesEveryConnectionWhenNobodyIsSignedIn() {
        let (calls, _, _) = run(ScenarioCatalogue.named("terminated-member")!, connections: [("c1", nil)], for: 5)
        #expect(calls == ["3 closeAll 4009 terminated by the app"])
    }

    @Test func staleConnection() {
        let (calls, _, _) = run(ScenarioCatalogue.named("stale-connection")!, for: 5)
        #expect(calls == ["3 silence c1", "3 silence c2"])
    }

    @Test func authOutage() {
        let (calls, _, runner) = run(ScenarioCatalogue.named("auth-outage")!, for: 40)
        #expect(
            calls == [
                "2 authFailure 503 -", "2 closeAll 4200 edge restarting", "32 authRecover",
                "32 closeAll 4200 edge restarting",
            ])
        #expect(runner.isFinished)
    }

    @Test func rateLimitedClientEvents() throws {
        let (calls, _, _) = run(
            ScenarioCatalogue.named("rate-limited-client-events")!, connections: [("c1", nil)], for: 5)
        try #require(calls.count == 1)
        #expect(calls[0].hasPrefix("3 send c1 "))
        let frame = try JSONValue(parsing: String(calls[0].dropFirst("3 send c1 ".count)))
        #expect(frame["event"] == "bird:error")
        #expect(frame["data"]?["code"]?.intValue == 4301)
    }

    @Test func flakyNetworkLoopsWithSeededRandomTimesAndTargets() {
        let scenario = ScenarioCatalogue.named("flaky-network")!
        let first = run(scenario, connections: [("c1", nil), ("c2", nil), ("c3", nil)], for: 60)
        let second = run(scenario, connections: [("c1", nil), ("c2", nil), ("c3", nil)], for: 60)
        #expect(first.calls == second.calls, "same seed, same run")
        #expect(first.calls.count >= 10, "a loop of 2–6 s steps over 60 s")
        #expect(!first.runner.isFinished)
        var previous = 0.0
        for (index, call) in first.calls.enumerated() {
            let parts = call.split(separator: " ")
            let time = Double(parts[0]) ?? -1
            #expect(time - previous >= 2 && time - previous <= 6, "\(call)")
            previous = time
            #expect(parts[1] == (index % 3 == 1 ? "silence" : "drop"))
        }
        #expect(first.log.contains { $0.contains("(pass 2)") })
    }

    @Test func publishCountRepeatsThePublish() throws {
        let scenario = try Scenario(
            json:
                #"{"name": "many", "steps": [{"after": 1, "action": "publish", "channel": "news", "event": "e", "data": 1, "count": 3}]}"#
        )
        #expect(scenario.steps.first?.action == .publish(channel: "news", event: "e", data: 1, count: 3))
        let scheduler = VirtualScheduler()
        let control = RecordingControl(connections: [("c1", nil)], clock: { scheduler.now })
        let runner = ScenarioRunner(scenario: scenario, control: control, scheduler: scheduler)
        runner.start()
        scheduler.advance(by: 1.5)
        #expect(control.recorded == ["1 publish news e 1", "1 publish news e 1", "1 publish news e 1"])
    }

    @Test func outagePublishExceedsTheSandboxHistoryOnlyInItsSecondOutage() throws {
        let scenario = try #require(ScenarioCatalogue.named("outage-publish"))
        let counts = scenario.steps.compactMap { step -> Int? in
            if case .publish(_, _, _, let count) = step.action { return count }
            return nil
        }
        let held = HistoryLimits().maxEvents
        #expect(counts.count == 2)
        #expect(counts.first.map { $0 < held } == true)
        #expect(counts.last.map { $0 > held } == true)
    }

    @Test func stepsRunInOrderAndStopHalts() throws {
        let scenario = try Scenario(
            json: """
                {"name": "order", "steps": [
                  {"after": 1, "action": "auth-failure"},
                  {"after": 1, "action": "omit-handshake-id", "count": 3},
                  {"after": 1, "action": "publish", "channel": "news", "event": "e", "data": "x"},
                  {"after": 1, "action": "close", "target": "newest", "code": 4100, "reason": "bye"},
                  {"after": 1, "action": "accept"}
                ]}
                """)
        let scheduler = VirtualScheduler()
        let control = RecordingControl(connections: [("c1", nil), ("c2", nil)], clock: { scheduler.now })
        let runner = ScenarioRunner(scenario: scenario, control: control, scheduler: scheduler)
        runner.start()
        runner.start()
        scheduler.advance(by: 4.5)
        #expect(
            control.recorded == [
                "1 authFailure 503 -", "2 omitHandshakeId 3", #"3 publish news e "x""#, "4 close c2 4100 bye",
            ])
        runner.stop()
        scheduler.advance(by: 10)
        #expect(control.recorded.count == 4)
        #expect(!runner.isFinished)
    }

    // MARK: Against a real sandbox

    @Test func runsAgainstARealSandbox() async throws {
        let sandbox = try Sandbox(configuration: SandboxConfiguration(port: 0))
        try sandbox.start()
        defer { sandbox.stop() }
        let client = TestClient(sandbox.endpoints.webSocketURL + "?protocol=7")
        let id = try #require(await client.connectionId())
        let scenario = Scenario(
            name: "real",
            steps: [
                .init(after: .fixed(0), .error(.all, code: 4301, message: "slow down")),
                .init(after: .fixed(1), .closeAll(code: 4100, reason: "over capacity")),
            ])
        let scheduler = VirtualScheduler()
        let runner = ScenarioRunner(scenario: scenario, control: sandbox, scheduler: scheduler)
        runner.start()
        scheduler.advance(by: 0)
        let error = try #require(await client.waitFor("bird:error"))
        #expect(error.data?.value["code"]?.intValue == 4301)
        #expect(sandbox.connections().map(\.id) == [id])
        scheduler.advance(by: 1)
        let close = try #require(await client.waitForClose())
        #expect(close.code == 4100)
        #expect(runner.isFinished)
    }
}
