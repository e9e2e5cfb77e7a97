import BirdWire
import Dispatch
import Synchronization

/// The control calls a scenario uses; ``Sandbox`` conforms, tests substitute a recording fake.
public protocol ScenarioControl: Sendable {
    func connections() -> [SandboxConnectionInfo]
    @discardableResult func closeAll(code: Int, reason: String) -> Int
    @discardableResult func closeConnection(id: String, code: Int, reason: String) -> Bool
    @discardableResult func drop(id: String) -> Bool
    @discardableResult func silence(id: String) -> Bool
    func refuse(code: Int, reason: String, seconds: Double?)
    func acceptConnections()
    func restart(code: Int, reason: String, downSeconds: Double)
    func setAuthFailure(status: Int, prefix: String?)
    func clearAuthFailure()
    @discardableResult func publish(channel: String, event: String, data: JSONValue?) -> Int
    func omitHandshakeId(count: Int)
    @discardableResult func terminate(memberId: String) -> Int
    @discardableResult func send(id: String, text: String) -> Bool
    /// The wire dialect, for the error event's name.
    var scenarioDialect: Dialect { get }
}

extension Sandbox: ScenarioControl {
    public var scenarioDialect: Dialect { configuration.dialect }
}

/// When scenario steps run: real time on a queue, or a virtual clock in tests.
public protocol ScenarioScheduler: Sendable {
    /// Runs `work` once, `seconds` from now, never concurrently with other scheduled work.
    func schedule(after seconds: Double, _ work: @escaping @Sendable () -> Void)
}

/// Real time on a private serial queue.
public struct DispatchScenarioScheduler: ScenarioScheduler {
    private let queue: DispatchQueue

    public init(queue: DispatchQueue = DispatchQueue(label: "bird-sandbox.scenario")) {
        self.queue = queue
    }

    public func schedule(after seconds: Double, _ work: @escaping @Sendable () -> Void) {
        queue.asyncAfter(deadline: .now() + max(0, seconds), execute: work)
    }
}

/// Plays a ``Scenario`` against a ``ScenarioControl``: waits each step's `after`, performs it,
/// logs one line per step (and hands the same line with the step's action to `report`).
public final class ScenarioRunner: Sendable {
    /// One line the runner logs, in parts: the start (the description), each step, and `done`.
    public struct Report: Sendable {
        /// The line as logged (`scenario edge-restart: step 1/3 restart: …`).
        public let line: String
        /// The step's number, from 1 (nil for the start and `done` lines).
        public let step: Int?
        /// The step's action (nil for the start and `done` lines).
        public let action: Scenario.Action?
        /// What the line says after its step: the description, the step's outcome (with its pass
        /// when the scenario loops), or `done`.
        public let text: String
    }

    /// The scenario being played.
    public let scenario: Scenario
    private let control: any ScenarioControl
    private let scheduler: any ScenarioScheduler
    private let log: @Sendable (String) -> Void
    private let report: @Sendable (Report) -> Void
    private let state: Mutex<State>

    private struct State {
        var index = 0
        var pass = 1
        var running = false
        var finished = false
        var random: SplitMix64
    }

    public init(
        scenario: Scenario, control: any ScenarioControl,
        scheduler: any ScenarioScheduler = DispatchScenarioScheduler(),
        log: @escaping @Sendable (String) -> Void = { _ in },
        report: @escaping @Sendable (Report) -> Void = { _ in }
    ) {
        self.scenario = scenario
        self.control = control
        self.scheduler = scheduler
        self.log = log
        self.report = report
        self.state = Mutex(State(random: SplitMix64(seed: scenario.seed)))
    }

    /// Whether the last step ran (never true for a looping scenario).
    public var isFinished: Bool { state.withLock { $0.finished } }

    /// Starts playing; a second call does nothing.
    public func start() {
        let first = state.withLock { s -> Bool in
            guard !s.running, !s.finished else { return false }
            s.running = true
            return true
        }
        guard first else { return }
        say("scenario \(scenario.name): \(scenario.description)", text: scenario.description)
        scheduleNext()
    }

    /// Stops before the next step; faults already in effect (a refusal, an auth failure) stay.
    public func stop() {
        state.withLock { $0.running = false }
    }

    private func scheduleNext() {
        let delay: Double? = state.withLock { s in
            guard s.running else { return nil }
            switch scenario.steps[s.index].after {
            case .fixed(let seconds): return seconds
            case .between(let low, let high): return low + (high - low) * s.random.nextUnit()
            }
        }
        guard let delay else { return }
        scheduler.schedule(after: delay) { [self] in fire() }
    }

    private func fire() {
        let current: (step: Scenario.Step, number: Int, pass: Int)? = state.withLock { s in
            guard s.running else { return nil }
            return (scenario.steps[s.index], s.index + 1, s.pass)
        }
        guard let current else { return }
        let outcome = perform(current.step.action)
        let passText = scenario.loop ? " (pass \(current.pass))" : ""
        say(
            "scenario \(scenario.name): step \(current.number)/\(scenario.steps.count)\(passText) "
                + "\(current.step.action.name): \(outcome)",
            step: current.number, action: current.step.action, text: outcome + passText)
        let done = state.withLock { s -> Bool in
            s.index += 1
            guard s.index == scenario.steps.count else { return false }
            if scenario.loop {
                s.index = 0
                s.pass += 1
                return false
            }
            s.running = false
            s.finished = true
            return true
        }
        if done {
            say("scenario \(scenario.name): done", text: "done")
        } else {
            scheduleNext()
        }
    }

    private func say(_ line: String, step: Int? = nil, action: Scenario.Action? = nil, text: String) {
        log(line)
        report(Report(line: line, step: step, action: action, text: text))
    }

    /// Performs one action; returns what happened, for the log.
    private func perform(_ action: Scenario.Action) -> String {
        switch action {
        case .closeAll(let code, let reason):
            let count = control.closeAll(code: code, reason: reason)
            return "closed \(count) with \(code) \"\(reason)\""
        case .close(let target, let code, let reason):
            let ids = resolve(target)
            for id in ids { control.closeConnection(id: id, code: code, reason: reason) }
            return "closed \(describe(ids)) with \(code) \"\(reason)\""
        case .drop(let target):
            let ids = resolve(target)
            for id in ids { control.drop(id: id) }
            return "dropped \(describe(ids))"
        case .silence(let target):
            let ids = resolve(target)
            for id in ids { control.silence(id: id) }
            return "silenced \(describe(ids))"
        case .refuse(let code, let reason, let seconds):
            control.refuse(code: code, reason: reason, seconds: seconds)
            return "refusing new connections with \(code) \"\(reason)\" "
                + (seconds.map { "for \($0) s" } ?? "until accept")
        case .accept:
            control.acceptConnections()
            return "accepting connections"
        case .restart(let code, let reason, let down):
            control.restart(code: code, reason: reason, downSeconds: down)
            return "closed all with \(code) \"\(reason)\", down for \(down) s"
        case .authFailure(let status, let prefix):
            control.setAuthFailure(status: status, prefix: prefix)
            return "auth endpoints answer \(status)" + (prefix.map { " for channels starting with \($0)" } ?? "")
        case .authRecover:
            control.clearAuthFailure()
            return "auth endpoints work again"
        case .publish(let channel, let event, let data, let count):
            var reached = 0
            for _ in 0..<max(1, count) { reached = control.publish(channel: channel, event: event, data: data) }
            return count > 1
                ? "\(count) × \(event) on \(channel), each reached \(reached)"
                : "\(event) on \(channel) reached \(reached)"
        case .omitHandshakeId(let count):
            control.omitHandshakeId(count: count)
            return "the next \(count) handshake(s) carry no id"
        case .terminate(let target):
            let infos = control.connections()
            let chosen = target == .signedIn ? infos.filter { $0.memberId != nil } : pick(target, from: infos)
            let members = Array(Set(chosen.compactMap(\.memberId))).sorted()
            if members.isEmpty, target == .signedIn {
                let count = control.closeAll(code: CloseCode.unauthorized, reason: "terminated by the app")
                return "nobody signed in: closed \(count) with 4009 \"terminated by the app\""
            }
            var count = 0
            for member in members { count += control.terminate(memberId: member) }
            return "terminated \(members.isEmpty ? "nobody" : members.joined(separator: ", ")) (\(count) connection(s))"
        case .error(let target, let code, let message):
            let ids = resolve(target)
            let frame: JSONValue = [
                "event": .string(control.scenarioDialect.eventPrefix + "error"),
                "data": ["code": .number(JSONNumber(code)), "message": .string(message)],
            ]
            for id in ids { control.send(id: id, text: frame.description) }
            return "error \(code) \"\(message)\" to \(describe(ids))"
        }
    }

    private func resolve(_ target: Scenario.Target) -> [String] {
        pick(target, from: control.connections()).map(\.id)
    }

    private func pick(_ target: Scenario.Target, from infos: [SandboxConnectionInfo]) -> [SandboxConnectionInfo] {
        switch target {
        case .all: return infos
        case .oldest: return Array(infos.prefix(1))
        case .newest: return Array(infos.suffix(1))
        case .signedIn: return infos.filter { $0.memberId != nil }
        case .random:
            guard !infos.isEmpty else { return [] }
            let index = state.withLock { Int($0.random.next() % UInt64(infos.count)) }
            return [infos[index]]
        }
    }

    private func describe(_ ids: [String]) -> String {
        ids.isEmpty ? "no connection" : ids.joined(separator: ", ")
    }
}
