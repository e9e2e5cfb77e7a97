// The `--jsonl` stdin script as a value: commands in, client events in, time in → actions out.
// Commands run in order, each when the state it needs exists; waits wait, with deadlines; the
// exit code says whether every command succeeded. The executable only feeds it (HeadlessApp).

import BirdRealtime
import BirdWire
import Foundation

/// Runs a script of commands against what the client reports.
public struct ScriptRunner: Sendable {
    /// What the driver must do.
    public enum Action: Sendable, Equatable {
        /// Perform the command on the client (or the sandbox).
        case perform(Command)
        /// Print (and record) a `command_error` line: the command's line and why it failed.
        case commandError(command: String, message: String)
        /// Every command up to `quit` (or the end of the input) has finished: exit.
        case finished
    }

    /// How long a command waits for what it needs, and a `wait` without its own timeout.
    public let defaultTimeout: Duration
    /// Whether the end of the input ends the run once the commands before it finished (false with
    /// `--duration`, which then decides).
    public let endOfInputFinishes: Bool
    /// Commands that failed so far (`command_error` lines, from here or from the session).
    public private(set) var failures = 0
    /// Whether `.finished` has been returned.
    public private(set) var isFinished = false

    private struct Item: Sendable {
        var line: String
        /// The command, or why the line is not one (it fails when its turn comes, so the output
        /// keeps the script's order).
        var command: Result<ScriptCommand, CommandTextError>
    }

    private struct EventKey: Hashable, Sendable {
        var channel: String
        var event: String
    }

    private var queue: [Item] = []
    private var head = 0
    private var inputEnded = false
    /// When the head command began waiting (nil: it has not been looked at yet).
    private var headSince: Duration?
    /// The head is a `signin` that was performed and waits for its outcome.
    private var signinSent = false

    // What the client has reported.
    private var state: ConnectionState = .initialized
    private var lastCause: TransitionCause?
    /// The connection id while connected (for `close CODE`).
    private var connectionId: String?
    private var subscribed: Set<String> = []
    private var subscriptionErrors: [String: SubscriptionFailure] = [:]
    private var rosters: [String: Set<String>] = [:]
    /// Client events seen so far (a sequence number for "after the previous command finished").
    private var eventSeq = 0
    /// `eventSeq` when the last command finished.
    private var finishedAtSeq = 0
    /// For the `wait event` keys in the queue: how many queued waits use each, and the last
    /// matching event's sequence number.
    private var watched: [EventKey: Int] = [:]
    private var lastSeen: [EventKey: Int] = [:]

    /// A runner; `defaultTimeout` applies to triggers waiting for their channel, sign-in, and
    /// waits without a timeout of their own.
    public init(defaultTimeout: Duration = .seconds(10), endOfInputFinishes: Bool = true) {
        self.defaultTimeout = defaultTimeout
        self.endOfInputFinishes = endOfInputFinishes
    }

    /// 0 when every command succeeded, 1 when one failed.
    public var exitCode: Int32 { failures > 0 ? 1 : 0 }

    /// Commands read and not finished yet.
    public var pending: Int { queue.count - head }

    // MARK: - Inputs

    /// One line of the script (blank lines are ignored).
    public mutating func input(line: String, at now: Duration) -> [Action] {
        let text = line.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, !isFinished else { return [] }
        let command = ScriptCommand.parse(text)
        if case .success(.wait(.event(let ch, let ev), _)) = command {
            watched[EventKey(channel: ch, event: ev), default: 0] += 1
        }
        queue.append(Item(line: text, command: command))
        return advance(at: now)
    }

    /// The input ended (end of stdin).
    public mutating func endOfInput(at now: Duration) -> [Action] {
        inputEnded = true
        return advance(at: now)
    }

    /// Something the client (or the session) reported. A `command_error` counts as a failed
    /// command — feed only the session's, not the ones this runner returned.
    public mutating func observe(_ event: ClientEvent, at now: Duration) -> [Action] {
        eventSeq += 1
        var actions: [Action] = []
        switch event {
        case .stateChanged(let change):
            state = change.current
            lastCause = change.cause
            connectionId = change.current == .connected ? change.connectionId : nil
            if change.current != .connected {
                subscribed.removeAll()
                rosters.removeAll()
            }
        case .subscribed(let ch, _):
            subscribed.insert(ch)
            subscriptionErrors[ch] = nil
        case .subscriptionError(let ch, let failure):
            subscribed.remove(ch)
            subscriptionErrors[ch] = failure
            rosters[ch] = nil
        case .membersSnapshot(let ch, let members, _):
            rosters[ch] = Set(members.map(\.id))
        case .memberAdded(let ch, let member):
            rosters[ch, default: []].insert(member.id)
        case .memberRemoved(let ch, let id):
            rosters[ch]?.remove(id)
        case .event(let e):
            let key = EventKey(channel: e.channel, event: e.event)
            if watched[key] != nil { lastSeen[key] = eventSeq }
        case .signinSucceeded:
            if signinSent, let item = headItem, case .success(.run(let c)) = item.command, c.isSignin { finishHead() }
        case .signinFailed(let message):
            if signinSent, let item = headItem, case .success(.run(let c)) = item.command, c.isSignin {
                actions.append(fail(item, "sign-in failed: \(Redaction.scrub(message))"))
            }
        case .commandError(let command, _):
            failures += 1
            // A sign-in refused before it was asked for (a chosen id the endpoint cannot honour)
            // has no answer to wait for.
            if command.hasPrefix("signin"), signinSent, let item = headItem, case .success(.run(let c)) = item.command,
                c.isSignin
            {
                finishHead()
            }
        default:
            break
        }
        return actions + advance(at: now)
    }

    /// Time passed: deadlines expire.
    public mutating func tick(at now: Duration) -> [Action] {
        advance(at: now)
    }

    /// The run is ending before the script did (`--duration`, a signal): every command not
    /// finished fails with `reason` (a pending `quit` just ends).
    public mutating func stop(reason: String, at now: Duration) -> [Action] {
        guard !isFinished else { return [] }
        var actions: [Action] = []
        while let item = headItem {
            if item.command == .success(.run(.quit)) {
                removeHead()
                continue
            }
            if let since = headSince {
                actions.append(fail(item, "not finished after \(Self.seconds(now - since)): \(reason)"))
            } else {
                actions.append(fail(item, "not run: \(reason)"))
            }
        }
        isFinished = true
        return actions
    }

    // MARK: - Running the queue

    private var headItem: Item? { head < queue.count ? queue[head] : nil }

    private mutating func advance(at now: Duration) -> [Action] {
        var actions: [Action] = []
        while !isFinished, let item = headItem {
            if headSince == nil { headSince = now }
            let waited = now - (headSince ?? now)
            let command: ScriptCommand
            switch item.command {
            case .failure(let error):
                actions.append(fail(item, error.message))
                continue
            case .success(let c):
                command = c
            }
            switch command {
            case .run(.quit):
                removeHead()
                isFinished = true
                actions.append(.finished)
                return actions
            case .run(.trigger(let channel, let event, let data)):
                if let problem = Self.clientEventProblem(channel) {
                    actions.append(fail(item, problem))
                } else if subscribed.contains(channel) {
                    finishHead()
                    actions.append(.perform(.trigger(channel: channel, event: event, data: data)))
                } else if waited >= defaultTimeout {
                    var why = "\(channel) not subscribed after \(Self.seconds(defaultTimeout))"
                    if let f = subscriptionErrors[channel] { why += ": " + Self.describe(f) }
                    actions.append(fail(item, why))
                } else {
                    return actions
                }
            case .run(.closeConnection(let id, let code, let reason)) where id.isEmpty:
                // `close CODE`: the current connection, once there is one.
                if state == .connected, let current = connectionId {
                    finishHead()
                    actions.append(.perform(.closeConnection(connectionId: current, code: code, reason: reason)))
                } else if waited >= defaultTimeout {
                    actions.append(fail(item, "not connected after \(Self.seconds(defaultTimeout))"))
                } else {
                    return actions
                }
            case .run(.ping):
                // A ping needs a connection: it waits for one, as `close CODE` does.
                if state == .connected {
                    finishHead()
                    actions.append(.perform(.ping))
                } else if waited >= defaultTimeout {
                    actions.append(fail(item, "not connected after \(Self.seconds(defaultTimeout))"))
                } else {
                    return actions
                }
            case .run(let command) where command.isSignin:
                if !signinSent {
                    signinSent = true
                    actions.append(.perform(command))
                    return actions
                }
                guard waited >= defaultTimeout else { return actions }
                actions.append(fail(item, "no sign-in answer within \(Self.seconds(defaultTimeout))"))
            case .run(let command):
                if case .unsubscribe(let ch) = command {
                    subscribed.remove(ch)
                    rosters[ch] = nil
                }
                finishHead()
                actions.append(.perform(command))
            case .wait(let condition, let timeout):
                if holds(condition) {
                    finishHead()
                } else if waited >= (timeout ?? defaultTimeout) {
                    actions.append(fail(item, unmet(condition, after: timeout ?? defaultTimeout)))
                } else {
                    return actions
                }
            }
        }
        if !isFinished, inputEnded, endOfInputFinishes, headItem == nil {
            isFinished = true
            actions.append(.finished)
        }
        return actions
    }

    private func holds(_ condition: WaitCondition) -> Bool {
        switch condition {
        case .state(let s): return state == s
        case .subscribed(let ch): return subscribed.contains(ch)
        case .event(let ch, let ev): return (lastSeen[EventKey(channel: ch, event: ev)] ?? 0) > finishedAtSeq
        case .members(let ch, let n): return subscribed.contains(ch) && (rosters[ch]?.count ?? 0) >= n
        }
    }

    /// Why a wait ran out: what it waited for and what was seen instead.
    private func unmet(_ condition: WaitCondition, after timeout: Duration) -> String {
        let t = Self.seconds(timeout)
        switch condition {
        case .state(let s):
            var why = "still \(state.rawValue) after \(t), not \(s.rawValue)"
            if let cause = lastCause { why += " (last cause: \(Redaction.scrub(cause.text)))" }
            return why
        case .subscribed(let ch):
            var why = "\(ch) not subscribed after \(t)"
            if let f = subscriptionErrors[ch] { why += ": " + Self.describe(f) }
            return why
        case .event(let ch, let ev):
            return "no \(ev) on \(ch) within \(t)"
        case .members(let ch, let n):
            let have = rosters[ch]?.count ?? 0
            return "\(ch) has \(have) member\(have == 1 ? "" : "s") after \(t), not \(n)"
        }
    }

    private mutating func fail(_ item: Item, _ message: String) -> Action {
        failures += 1
        finishHead()
        return .commandError(command: item.line, message: message)
    }

    private mutating func finishHead() {
        finishedAtSeq = eventSeq
        removeHead()
    }

    private mutating func removeHead() {
        guard let item = headItem else { return }
        if case .success(.wait(.event(let ch, let ev), _)) = item.command {
            let key = EventKey(channel: ch, event: ev)
            let left = (watched[key] ?? 1) - 1
            if left > 0 { watched[key] = left } else { watched[key] = nil; lastSeen[key] = nil }
        }
        head += 1
        headSince = nil
        signinSent = false
        if head > 1024 && head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
    }

    // MARK: - Text

    /// Why a client event cannot go to `channel` whatever happens, or nil.
    static func clientEventProblem(_ channel: String) -> String? {
        let kind = ChannelRules.kind(of: channel)
        return kind == .private || kind == .presence ? nil : "client events need a private- or presence- channel"
    }

    /// "subscription_error AuthError 503".
    static func describe(_ f: SubscriptionFailure) -> String {
        "subscription_error \(f.type)" + (f.status.map { " \($0)" } ?? "")
    }

    /// "10 s", "2.5 s".
    static func seconds(_ d: Duration) -> String {
        let s = d.seconds
        let tenths = Checked.int(s * 10)
        return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s"
    }
}
