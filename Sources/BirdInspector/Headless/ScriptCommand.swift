// The script language of `--jsonl` stdin: the `:` commands plus `wait …` (docs/INSPECTOR.md).

import BirdRealtime
import BirdWire

/// What a `wait` command waits for.
public enum WaitCondition: Sendable, Equatable {
    /// The connection is in this state (`wait connected`, `wait state STATE`).
    case state(ConnectionState)
    /// The channel is subscribed.
    case subscribed(String)
    /// An event with this name arrived on the channel after the command before the wait finished.
    case event(channel: String, event: String)
    /// The presence channel's roster has at least this many members.
    case members(channel: String, atLeast: Int)

    /// "connected", "subscribed presence-x", "event presence-x client-hi".
    public var text: String {
        switch self {
        case .state(.connected): return "connected"
        case .state(let s): return "state \(s.rawValue)"
        case .subscribed(let ch): return "subscribed \(ch)"
        case .event(let ch, let ev): return "event \(ch) \(ev)"
        case .members(let ch, let n): return "members \(ch) \(n)"
        }
    }
}

/// One line of a script on stdin: a command to run, or a wait.
public enum ScriptCommand: Sendable, Equatable {
    /// A command (as on the `:` line).
    case run(Command)
    /// Wait until the condition holds, for at most `timeout` (nil: the runner's default).
    case wait(WaitCondition, timeout: Duration?)

    /// The longest timeout a `wait` accepts: a day.
    public static let maxTimeoutSeconds: Double = 86_400

    /// The wait commands, for help and errors.
    public static let waitUsage =
        "wait connected [SECONDS] · wait state STATE [SECONDS] · wait subscribed CH [SECONDS] · "
        + "wait event CH EVENT [SECONDS] · wait members CH N [SECONDS]"

    /// Parses one line of a script; the error says what is wrong in one line.
    public static func parse(_ line: String) -> Result<ScriptCommand, CommandTextError> {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard words.first?.lowercased() == "wait" else { return CommandText.parse(line).map(ScriptCommand.run) }
        let args = Array(words.dropFirst())
        guard let what = args.first?.lowercased() else { return .failure(.init("usage: \(waitUsage)")) }
        /// The condition's own arguments, then an optional timeout.
        func split(_ count: Int, _ usage: String) -> Result<([String], Duration?), CommandTextError> {
            let rest = Array(args.dropFirst())
            guard rest.count == count || rest.count == count + 1 else {
                return .failure(.init("usage: wait \(usage) [SECONDS]"))
            }
            guard rest.count == count + 1 else { return .success((rest, nil)) }
            return timeout(rest[count]).map { (Array(rest.prefix(count)), $0) }
        }
        switch what {
        case "connected":
            return split(0, "connected").map { .wait(.state(.connected), timeout: $0.1) }
        case "state":
            return split(1, "state STATE").flatMap { args, t in
                guard let state = ConnectionState(rawValue: args[0].lowercased()) else {
                    let names = ConnectionState.allCases.map(\.rawValue).joined(separator: ", ")
                    return .failure(.init("unknown state \(args[0]) (states: \(names))"))
                }
                return .success(.wait(.state(state), timeout: t))
            }
        case "subscribed":
            return split(1, "subscribed CHANNEL").map { .wait(.subscribed($0.0[0]), timeout: $0.1) }
        case "event":
            return split(2, "event CHANNEL EVENT").map {
                .wait(.event(channel: $0.0[0], event: $0.0[1]), timeout: $0.1)
            }
        case "members":
            return split(2, "members CHANNEL N").flatMap { args, t in
                guard let n = Int(args[1]), (0...1_000_000).contains(n) else {
                    return .failure(.init("wait members: N must be a whole number 0–1000000, not “\(args[1])”"))
                }
                return .success(.wait(.members(channel: args[0], atLeast: n), timeout: t))
            }
        default:
            return .failure(.init("unknown wait \(what) (try: \(waitUsage))"))
        }
    }

    /// A timeout in seconds ("5", "2.5", "10s"), from 0 to a day.
    static func timeout(_ text: String) -> Result<Duration, CommandTextError> {
        let digits = text.hasSuffix("s") ? String(text.dropLast()) : text
        guard let seconds = Double(digits), seconds.isFinite, seconds >= 0, seconds <= maxTimeoutSeconds else {
            return .failure(.init("a wait's timeout must be a number of seconds from 0 to 86400, not “\(text)”"))
        }
        return .success(Checked.duration(seconds: seconds))
    }
}
