import Foundation

// Effects `update` asks the driver to perform on the real client (or the sandbox).

/// An effect returned by `update`; the driver maps each to the client library or the sandbox.
public enum Command: Sendable, Equatable {
    /// `bird.subscribe(name)`.
    case subscribe(String)
    /// `bird.unsubscribe(name)`.
    case unsubscribe(String)
    /// `channel.trigger(event, data)`; `data` is validated JSON text (nil: no data).
    case trigger(channel: String, event: String, data: String?)
    /// `bird.signin()`.
    case signin
    /// `bird.signin()` as the member `id` chose, with `info` (a JSON object's text) as its
    /// member info when given (the endpoint must honour a chosen id, as the embedded sandbox's
    /// demo endpoint does).
    case signinAs(String, info: String? = nil)
    /// `bird.signout()`.
    case signout
    /// `bird.disconnect()`.
    case disconnect
    /// `bird.connect()`.
    case connect
    /// `bird.dropConnection()`.
    case drop
    /// Ask the attached sandbox to close connection `connectionId` with `code` and `reason`
    /// (`POST /sandbox/connections/{id}/close`).
    case closeConnection(connectionId: String, code: Int, reason: String)
    /// `bird.ping()`: a protocol ping now (its round-trip time arrives as an `rtt` event).
    case ping
    /// Exit the inspector.
    case quit
    /// Write `contents` (`entries` JSON lines, the filtered log) to the file at `path` (`w`,
    /// `:export`); the driver answers with `Message.exported`. Never sent to the client.
    case export(path: String, contents: String, entries: Int)
    /// Put `text` (one entry's JSON line) on the terminal's clipboard with OSC 52 (`y`, `:copy`).
    /// Never sent to the client.
    case copy(text: String)

    /// Whether it signs in (with or without a chosen id).
    public var isSignin: Bool {
        switch self {
        case .signin, .signinAs: return true
        default: return false
        }
    }

    /// The command's word in the command language ("subscribe", "close").
    public var verb: String {
        switch self {
        case .subscribe: return "subscribe"
        case .unsubscribe: return "unsubscribe"
        case .trigger: return "trigger"
        case .signin, .signinAs: return "signin"
        case .signout: return "signout"
        case .disconnect: return "disconnect"
        case .connect: return "connect"
        case .drop: return "drop"
        case .closeConnection: return "close"
        case .ping: return "ping"
        case .quit: return "quit"
        case .export: return "export"
        case .copy: return "copy"
        }
    }
}

/// The text command language shared by `:` in the TUI and stdin in `--jsonl` mode.
public enum CommandText {
    /// The commands scripts on stdin (`--jsonl`) take, for help text.
    public static let scriptUsage =
        "subscribe CH · unsubscribe CH · trigger CH EVENT [JSON] · signin [ID [INFO]] · signout · disconnect · "
        + "connect · drop · close CODE [REASON] · ping · help · quit"

    /// The commands of the TUI's `:` line, for help text: the script commands and the event
    /// log's own.
    public static let usage = scriptUsage + " · " + FindCommand.usage

    /// Every command word, in help order; any unique prefix stands for one (`sub`, `unsub`, `dis`).
    public static let verbs =
        [
            "subscribe", "unsubscribe", "trigger", "signin", "signout", "disconnect", "connect", "drop",
            "close", "ping", "help", "quit",
        ] + FindCommand.verbs

    /// The command word `word` stands for: itself, an alias (`q`, `exit`) or the one command it is
    /// a prefix of. The error names the candidates when it is a prefix of several.
    public static func resolve(_ word: String) -> Result<String, CommandTextError> {
        let w = word.lowercased()
        if verbs.contains(w) || w == "wait" { return .success(w) }
        if w == "q" || w == "exit" { return .success("quit") }
        let matches = verbs.filter { $0.hasPrefix(w) }
        if matches.count == 1, let only = matches.first { return .success(only) }
        if matches.isEmpty || w.isEmpty {
            return .failure(.init("unknown command \(word) (commands: \(verbs.joined(separator: ", ")))"))
        }
        return .failure(.init("“\(word)” could be \(matches.joined(separator: ", ")): type more of it"))
    }

    /// Tab completion on a command line: the first word among the command names, the second
    /// (the channel of `unsubscribe`, `trigger`, `subscribe`) among `channels`. Returns the new
    /// text (completed, or extended to what all candidates share) and the candidates.
    public static func complete(_ text: String, channels: [String]) -> (text: String, candidates: [String]) {
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        if words.count <= 1 {
            let prefix = (words.first ?? "").lowercased()
            let matches = verbs.filter { $0.hasPrefix(prefix) }
            return (extend(text: "", prefix: prefix, matches), matches)
        }
        guard words.count == 2, case .success(let verb) = resolve(words[0]),
            ["subscribe", "unsubscribe", "trigger"].contains(verb)
        else { return (text, []) }
        let matches = channels.filter { $0.hasPrefix(words[1]) }
        return (extend(text: words[0] + " ", prefix: words[1], matches), matches)
    }

    /// `text` + the one match and a space, or + the longest prefix the matches share.
    private static func extend(text: String, prefix: String, _ matches: [String]) -> String {
        if matches.count == 1, let only = matches.first { return text + only + " " }
        guard var common = matches.first else { return text + prefix }
        for m in matches.dropFirst() { while !m.hasPrefix(common) { common.removeLast() } }
        return text + (common.count > prefix.count ? common : prefix)
    }

    /// Parses one command line; the error says what is wrong in one line (without repeating the
    /// line). `close CODE [REASON]` comes back as `closeConnection` with an empty connection id:
    /// the current connection, filled in by whoever performs it.
    public static func parse(_ line: String) -> Result<Command, CommandTextError> {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true).map(String.init)
        guard let word = parts.first else { return .failure(.init("empty command")) }
        let verb: String
        switch resolve(word) {
        case .success(let v): verb = v
        case .failure(let e): return .failure(e)
        }
        func noArgs(_ c: Command) -> Result<Command, CommandTextError> {
            parts.count == 1 ? .success(c) : .failure(.init("\(verb) takes no arguments"))
        }
        switch verb {
        case "subscribe", "unsubscribe":
            guard parts.count == 2 else { return .failure(.init("usage: \(verb) CHANNEL")) }
            if verb == "subscribe", let problem = ChannelRules.nameProblem(parts[1]) { return .failure(.init(problem)) }
            return .success(verb == "subscribe" ? .subscribe(parts[1]) : .unsubscribe(parts[1]))
        case "trigger":
            guard parts.count >= 3 else { return .failure(.init("usage: trigger CHANNEL EVENT [JSON]")) }
            let data = parts.count == 4 ? parts[3] : nil
            if let problem = ChannelRules.eventProblem(parts[2]) { return .failure(.init(problem)) }
            if let data, !PayloadText.isJSON(data) { return .failure(.init("invalid JSON data")) }
            return .success(.trigger(channel: parts[1], event: parts[2], data: data))
        case "close":
            let args = trimmed.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true).map(String.init)
            guard args.count >= 2 else { return .failure(.init("usage: close CODE [REASON]")) }
            guard let code = Int(args[1]), CloseCodeText.closable(code) else {
                return .failure(.init("close: CODE must be 1000–1003, 1007–1014 or 3000–4999, not “\(args[1])”"))
            }
            let reason =
                args.count == 3 ? args[2].trimmingCharacters(in: .whitespaces) : CloseCodeText.defaultReason(code)
            if reason.utf8.count > 123 { return .failure(.init("close: REASON is longer than 123 bytes")) }
            return .success(.closeConnection(connectionId: "", code: code, reason: reason))
        case "signin":
            if parts.count == 1 { return .success(.signin) }
            let args = trimmed.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true).map(String.init)
            return MemberIdRules.parse(args.dropFirst().joined(separator: " ")).map {
                .signinAs($0.id, info: $0.info)
            }
        case "signout": return noArgs(.signout)
        case "disconnect": return noArgs(.disconnect)
        case "connect": return noArgs(.connect)
        case "drop": return noArgs(.drop)
        case "ping": return noArgs(.ping)
        case "quit": return noArgs(.quit)
        case "help": return .failure(.init("help: the commands are \(scriptUsage)"))
        case "wait": return .failure(.init("wait … is for scripts on stdin (--jsonl): \(ScriptCommand.waitUsage)"))
        case let v where FindCommand.verbs.contains(v):
            return .failure(.init("\(v) works on the terminal's event log (not in --jsonl scripts)"))
        default: return .failure(.init("unknown command \(word) (commands: \(verbs.joined(separator: ", ")))"))
        }
    }
}

/// Why a command line was refused.
public struct CommandTextError: Error, Sendable, Equatable {
    /// One line.
    public var message: String
    /// An error.
    public init(_ message: String) { self.message = message }
}

/// Channel and event name rules (docs/PROTOCOL.md § Limits) used to refuse bad input before sending.
public enum ChannelRules {
    /// Channel kinds by name prefix.
    public enum Kind: String, Sendable {
        case `public`, `private`, presence, member

        /// Short label for narrow columns.
        public var short: String {
            switch self {
            case .public: return "pub"
            case .private: return "priv"
            case .presence: return "pres"
            case .member: return "mem"
            }
        }
    }

    /// The kind of a channel name.
    public static func kind(of name: String) -> Kind {
        if name.hasPrefix("presence-") { return .presence }
        if name.hasPrefix("private-") { return .private }
        if name.hasPrefix("#server-to-") { return .member }
        return .public
    }

    /// Why a channel name cannot be subscribed, or nil when it can.
    public static func nameProblem(_ name: String) -> String? {
        if name.isEmpty { return "channel name is empty" }
        if name.count > 200 { return "channel name longer than 200 characters" }
        if name.hasPrefix("#") { return "#server-to-… channels are the edge's own (sign in instead)" }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-=@,.;")
        if let bad = name.first(where: { !allowed.contains($0) }) {
            return "channel name may not contain “\(bad)” (allowed: A-Z a-z 0-9 _ - = @ , . ;)"
        }
        return nil
    }

    /// Why an event name cannot be triggered as a client event, or nil.
    public static func eventProblem(_ event: String) -> String? {
        if !event.hasPrefix("client-") { return "event name must start with client-" }
        if event.count <= 7 { return "event name needs something after client-" }
        if event.count > 200 { return "event name longer than 200 characters" }
        return nil
    }
}
