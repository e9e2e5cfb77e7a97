import BirdWire

/// A scripted sequence of faults for `bird-sandbox --scenario`, built on the control calls.
/// The JSON format is documented in docs/SCENARIOS.md.
public struct Scenario: Sendable, Equatable {
    /// Short name, shown in the step log.
    public var name: String
    /// What the scenario does and what a correct client should do.
    public var description: String
    /// Start again from the first step after the last.
    public var loop: Bool
    /// Seed of the random choices (`"after": [min, max]`, `"target": "random"`).
    public var seed: UInt64
    /// The steps, in order.
    public var steps: [Step]

    /// The most events one `publish` step sends (its `count`).
    public static let maxPublishCount = 100_000

    public init(name: String, description: String = "", loop: Bool = false, seed: UInt64 = 1, steps: [Step]) {
        self.name = name
        self.description = description
        self.loop = loop
        self.seed = seed
        self.steps = steps
    }

    /// One step: wait, then act.
    public struct Step: Sendable, Equatable {
        /// Seconds to wait after the previous step (or the start).
        public var after: Delay
        /// What to do.
        public var action: Action

        public init(after: Delay, _ action: Action) {
            self.after = after
            self.action = action
        }
    }

    /// A wait: fixed, or uniformly random in a range (seeded).
    public enum Delay: Sendable, Equatable {
        case fixed(Double)
        case between(Double, Double)

        /// The shortest wait this delay can produce.
        public var minimum: Double {
            switch self {
            case .fixed(let s): s
            case .between(let low, _): low
            }
        }
    }

    /// Which open connections a step acts on.
    public enum Target: String, Sendable, Equatable, CaseIterable {
        case all
        case oldest
        case newest
        case random
        case signedIn = "signed-in"
    }

    /// What a step does; each maps onto one or more control calls of docs/PROTOCOL.md § Sandbox control API.
    public enum Action: Sendable, Equatable {
        /// ``Sandbox/closeAll(code:reason:)``.
        case closeAll(code: Int, reason: String)
        /// ``Sandbox/closeConnection(id:code:reason:)`` for each target.
        case close(Target, code: Int, reason: String)
        /// ``Sandbox/drop(id:)`` for each target (the client sees 1006).
        case drop(Target)
        /// ``Sandbox/silence(id:)`` for each target.
        case silence(Target)
        /// ``Sandbox/refuse(code:reason:seconds:)``; nil seconds: until an `accept` step.
        case refuse(code: Int, reason: String, seconds: Double?)
        /// ``Sandbox/acceptConnections()``.
        case accept
        /// ``Sandbox/restart(code:reason:downSeconds:)``.
        case restart(code: Int, reason: String, downSeconds: Double)
        /// ``Sandbox/setAuthFailure(status:prefix:)``.
        case authFailure(status: Int, prefix: String?)
        /// ``Sandbox/clearAuthFailure()``.
        case authRecover
        /// ``Sandbox/publish(channel:event:data:)``, `count` times in a row (1 by default).
        case publish(channel: String, event: String, data: JSONValue?, count: Int = 1)
        /// ``Sandbox/omitHandshakeId(count:)``.
        case omitHandshakeId(count: Int)
        /// 4009 "terminated by the app": ``Sandbox/terminate(memberId:)`` for every member signed
        /// in on a target; with target `signed-in` and nobody signed in, every connection is
        /// closed with 4009 "terminated by the app" instead.
        case terminate(Target)
        /// Sends the error event `{"code", "message"}` (not a close) to each target.
        case error(Target, code: Int, message: String)

        /// The action's name in scenario files.
        public var name: String {
            switch self {
            case .closeAll: "close-all"
            case .close: "close"
            case .drop: "drop"
            case .silence: "silence"
            case .refuse: "refuse"
            case .accept: "accept"
            case .restart: "restart"
            case .authFailure: "auth-failure"
            case .authRecover: "auth-recover"
            case .publish: "publish"
            case .omitHandshakeId: "omit-handshake-id"
            case .terminate: "terminate"
            case .error: "error"
            }
        }

        /// Every action name, for error messages.
        public static let names = [
            "close-all", "close", "drop", "silence", "refuse", "accept", "restart", "auth-failure", "auth-recover",
            "publish", "omit-handshake-id", "terminate", "error",
        ]
    }
}

/// A scenario that cannot be loaded, as one line.
public struct ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message.
    public var message: String
    public init(_ message: String) {
        self.message = message.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
    public var description: String { message }
}

// MARK: - Decoding

extension Scenario {
    /// Parses a scenario file's text; errors name the step and key at fault.
    public init(json text: String) throws(ScenarioError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: text)
        } catch {
            throw ScenarioError("not valid JSON: \(error)")
        }
        try self.init(value: value)
    }

    /// Builds a scenario from parsed JSON.
    public init(value: JSONValue) throws(ScenarioError) {
        guard let object = value.objectValue else { throw ScenarioError("a scenario is a JSON object") }
        var fields = Fields(object, context: "scenario")
        try fields.allow(["name", "description", "loop", "seed", "steps"])
        let name = try fields.string("name", default: nil)
        guard !name.isEmpty else { throw ScenarioError("scenario: 'name' must not be empty") }
        let description = try fields.string("description", default: "")
        let loop = try fields.bool("loop", default: false)
        let seed = try fields.int("seed", default: 1, range: 0...Int.max)
        guard let stepsValue = object["steps"] else { throw ScenarioError("scenario: 'steps' is missing") }
        guard let stepValues = stepsValue.arrayValue, !stepValues.isEmpty else {
            throw ScenarioError("scenario: 'steps' must be a non-empty array")
        }
        var steps: [Step] = []
        for (index, stepValue) in stepValues.enumerated() {
            steps.append(try Step(value: stepValue, number: index + 1))
        }
        if loop, !steps.contains(where: { $0.after.minimum > 0 }) {
            throw ScenarioError("scenario: a looping scenario needs a step with 'after' > 0")
        }
        self.init(name: name, description: description, loop: loop, seed: UInt64(seed), steps: steps)
    }
}

extension Scenario.Step {
    init(value: JSONValue, number: Int) throws(ScenarioError) {
        guard let object = value.objectValue else { throw ScenarioError("step \(number): must be a JSON object") }
        guard let actionName = object["action"]?.stringValue else {
            throw ScenarioError(
                "step \(number): 'action' is missing (one of \(Scenario.Action.names.joined(separator: ", ")))")
        }
        var f = Fields(object, context: "step \(number) (\(actionName))")
        let after = try f.delay()
        let action: Scenario.Action
        switch actionName {
        case "close-all":
            try f.allow(["code", "reason"])
            action = .closeAll(
                code: try f.code(default: CloseCode.edgeRestarting),
                reason: try f.string("reason", default: "closed by the scenario"))
        case "close":
            try f.allow(["target", "code", "reason"])
            action = .close(
                try f.target(default: .all), code: try f.code(default: CloseCode.edgeRestarting),
                reason: try f.string("reason", default: "closed by the scenario"))
        case "drop":
            try f.allow(["target"])
            action = .drop(try f.target(default: .all))
        case "silence":
            try f.allow(["target"])
            action = .silence(try f.target(default: .all))
        case "refuse":
            try f.allow(["code", "reason", "seconds"])
            action = .refuse(
                code: try f.code(default: 4100), reason: try f.string("reason", default: "over capacity"),
                seconds: try f.seconds("seconds", default: nil, max: ControlAPI.maxRefuseSeconds))
        case "accept":
            try f.allow([])
            action = .accept
        case "restart":
            try f.allow(["code", "reason", "down_seconds"])
            action = .restart(
                code: try f.code(default: CloseCode.edgeRestarting),
                reason: try f.string("reason", default: "edge restarting"),
                downSeconds: try f.seconds("down_seconds", default: 5, max: ControlAPI.maxDownSeconds) ?? 5)
        case "auth-failure":
            try f.allow(["status", "prefix"])
            let prefix: String? = f.object["prefix"] == nil ? nil : try f.string("prefix", default: nil)
            action = .authFailure(status: try f.int("status", default: 503, range: 400...599), prefix: prefix)
        case "auth-recover":
            try f.allow([])
            action = .authRecover
        case "publish":
            try f.allow(["channel", "event", "data", "count"])
            let channel = try f.string("channel", default: nil)
            let event = try f.string("event", default: nil)
            guard !channel.isEmpty, !event.isEmpty else { throw f.error("'channel' and 'event' must not be empty") }
            action = .publish(
                channel: channel, event: event, data: f.object["data"],
                count: try f.int("count", default: 1, range: 1...Scenario.maxPublishCount))
        case "omit-handshake-id":
            try f.allow(["count"])
            action = .omitHandshakeId(count: try f.int("count", default: 1, range: 1...1_000_000))
        case "terminate":
            try f.allow(["target"])
            action = .terminate(try f.target(default: .signedIn))
        case "error":
            try f.allow(["target", "code", "message"])
            action = .error(
                try f.target(default: .all), code: try f.int("code", default: 4301, range: 4000...4999),
                message: try f.string("message", default: "client event rejected"))
        default:
            throw ScenarioError(
                "step \(number): unknown action '\(actionName)' (one of \(Scenario.Action.names.joined(separator: ", ")))"
            )
        }
        self.init(after: after, action)
    }
}

/// Typed access to one JSON object's keys, with errors that name the context.
private struct Fields {
    let object: JSONObject
    let context: String

    init(_ object: JSONObject, context: String) {
        self.object = object
        self.context = context
    }

    func error(_ text: String) -> ScenarioError { ScenarioError("\(context): \(text)") }

    /// Rejects keys outside `keys` (plus `after` and `action` for steps), so typos do not pass.
    mutating func allow(_ keys: Set<String>) throws(ScenarioError) {
        let known = context == "scenario" ? keys : keys.union(["after", "action"])
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw error("unknown key '\(unknown)'")
        }
    }

    func string(_ key: String, default fallback: String?) throws(ScenarioError) -> String {
        guard let value = object[key] else {
            guard let fallback else { throw error("'\(key)' is missing") }
            return fallback
        }
        guard let text = value.stringValue else { throw error("'\(key)' must be a string") }
        return text
    }

    func bool(_ key: String, default fallback: Bool) throws(ScenarioError) -> Bool {
        guard let value = object[key] else { return fallback }
        guard let flag = value.boolValue else { throw error("'\(key)' must be true or false") }
        return flag
    }

    func int(_ key: String, default fallback: Int, range: ClosedRange<Int>) throws(ScenarioError) -> Int {
        guard let value = object[key] else { return fallback }
        guard let number = value.doubleValue, number == number.rounded(), let int = Int(exactly: number),
            range.contains(int)
        else {
            throw error("'\(key)' must be a whole number in \(range.lowerBound)…\(range.upperBound)")
        }
        return int
    }

    func code(default fallback: Int) throws(ScenarioError) -> Int {
        try int("code", default: fallback, range: 1000...4999)
    }

    func seconds(_ key: String, default fallback: Double?, max: Double) throws(ScenarioError) -> Double? {
        guard let value = object[key] else { return fallback }
        guard let number = value.doubleValue, number > 0, number <= max else {
            throw error("'\(key)' must be a number of seconds > 0 and ≤ \(ControlFields.amount(max))")
        }
        return number
    }

    /// The longest wait before a step: a day.
    static let maxDelay = 86_400.0

    func target(default fallback: Scenario.Target) throws(ScenarioError) -> Scenario.Target {
        guard let value = object["target"] else { return fallback }
        guard let text = value.stringValue, let target = Scenario.Target(rawValue: text) else {
            throw error(
                "'target' must be one of \(Scenario.Target.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return target
    }

    func delay() throws(ScenarioError) -> Scenario.Delay {
        guard let value = object["after"] else { return .fixed(0) }
        let limit = Self.maxDelay
        if let number = value.doubleValue {
            guard number >= 0, number <= limit else {
                throw error("'after' must be seconds in 0…\(ControlFields.amount(limit))")
            }
            return .fixed(number)
        }
        if let pair = value.arrayValue, pair.count == 2, let low = pair[0].doubleValue, let high = pair[1].doubleValue,
            low >= 0, high >= low, high <= limit
        {
            return .between(low, high)
        }
        throw error("'after' must be seconds in 0…\(ControlFields.amount(limit)) or [min, max] within that range")
    }
}
