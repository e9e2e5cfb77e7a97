// The inverse of JSONLines: a line of docs/PROTOCOL.md § Headless output (from a recording) back into a `ClientEvent`.
//
// Lossy by design (the line never carried it, or carried it redacted):
// - `state`: the activity timeout; `retry`: a delay finer than a millisecond;
// - `signin`: the member info; `sent`: the data;
// - data, member info: come back compact and redacted; raw (non-JSON) event data comes back as a
//   JSON string; JSON `null` data comes back as no data;
// - `members`: the roster comes back sorted by id (as written);
// - causes: a cause whose text matches one of the fixed sentences comes back as that case;
//   `.other` text comes back as `.other`; a text with a close code that is no longer a known
//   sentence comes back as `.recorded(text:closeCode:)`.

import Foundation

extension JSONLines {
    /// The event an E line holds, or nil when the line is not an E type or lacks a required key.
    public static func decode(line: String) -> ClientEvent? {
        guard case .object(let members)? = JSONText.parse(line) else { return nil }
        return decode(members)
    }

    /// The event an E line's members hold (any extra keys, such as `ts` and `mono_ms`, ignored).
    public static func decode(_ members: [JSONMember]) -> ClientEvent? {
        let f = Fields(members)
        guard let type = f.string("type") else { return nil }
        switch type {
        case "state":
            guard let previous = f.string("previous").flatMap(ConnectionState.init(rawValue:)),
                  let current = f.string("current").flatMap(ConnectionState.init(rawValue:))
            else { return nil }
            let cause = f.string("cause").map { Self.cause(text: $0, closeCode: f.int("close_code")) }
            return .stateChanged(StateChange(previous: previous, current: current, cause: cause,
                                             connectionId: f.string("connection_id")))
        case "retry":
            guard let ms = f.int("in_ms"), let attempt = f.int("attempt") else { return nil }
            return .retryScheduled(RetrySchedule(delay: .milliseconds(ms), attempt: attempt,
                                                 cause: f.string("cause").map { Self.cause(text: $0, closeCode: nil) }))
        case "subscribed":
            guard let ch = f.string("channel") else { return nil }
            return .subscribed(channel: ch)
        case "subscription_error":
            guard let ch = f.string("channel"), let message = f.string("message") else { return nil }
            return .subscriptionError(channel: ch, SubscriptionFailure(
                type: f.string("error_type") ?? "Error", status: f.int("status"), endpoint: f.string("endpoint"),
                message: message))
        case "event":
            guard let ch = f.string("channel"), let name = f.string("event") else { return nil }
            return .event(ChannelEvent(channel: ch, event: name, data: f.json("data"), memberId: f.string("member_id")))
        case "members":
            guard let ch = f.string("channel"), case .object(let roster)? = f.node("members") else { return nil }
            let list = roster.map { m -> PresenceMember in
                if case .null = m.value { return PresenceMember(id: m.key) }
                return PresenceMember(id: m.key, info: JSONText.compact(m.value))
            }
            return .membersSnapshot(channel: ch, members: list, myId: f.string("my_id"))
        case "member_added":
            guard let ch = f.string("channel"), let id = f.string("member_id") else { return nil }
            return .memberAdded(channel: ch, PresenceMember(id: id, info: f.json("member_info")))
        case "member_removed":
            guard let ch = f.string("channel"), let id = f.string("member_id") else { return nil }
            return .memberRemoved(channel: ch, memberId: id)
        case "connection_count":
            guard let ch = f.string("channel"), let count = f.int("count") else { return nil }
            return .connectionCount(channel: ch, count: count)
        case "signin":
            guard let id = f.string("member_id") else { return nil }
            return .signinSucceeded(memberId: id, info: nil)
        case "signin_error":
            guard let message = f.string("message") else { return nil }
            return .signinFailed(message: message)
        case "error":
            guard let message = f.string("message") else { return nil }
            return .error(ErrorReport(code: f.int("code"), message: message, reason: f.string("reason")))
        case "sent":
            guard let ch = f.string("channel"), let name = f.string("event") else { return nil }
            return .sent(channel: ch, event: name, data: nil)
        case "command_error":
            guard let command = f.string("command"), let message = f.string("message") else { return nil }
            return .commandError(command: command, message: message)
        default:
            return nil
        }
    }

    /// The cause a `cause` text (and `close_code`, when the line has one) stands for.
    public static func cause(text: String, closeCode: Int?) -> TransitionCause {
        let fixed: [TransitionCause] = [.started, .connectCalled, .disconnectCalled, .handshake, .retryDue, .pongTimeout,
                                        .handshakeWithoutId, .dropped, .signout]
        if let match = fixed.first(where: { $0.text == text && (closeCode == nil || $0.closeCode == closeCode) }) {
            return match
        }
        for (prefix, by) in [("server closed: ", CloseInitiator.server), ("client closed: ", .client)] where text.hasPrefix(prefix) {
            let rest = text.dropFirst(prefix.count)
            guard let code = closeCode ?? Int(rest.prefix { $0.isNumber }) else { break }
            let bare = TransitionCause.closed(code: code, reason: "", by: by).text
            if text == bare { return .closed(code: code, reason: "", by: by) }
            if text.hasPrefix(bare + " ("), text.hasSuffix(")") {
                let reason = String(text.dropFirst(bare.count + 2).dropLast())
                if !reason.isEmpty { return .closed(code: code, reason: reason, by: by) }
            }
        }
        if closeCode == nil, text.hasPrefix("network error: ") {
            return .networkError(String(text.dropFirst("network error: ".count)))
        }
        return closeCode == nil ? .other(text) : .recorded(text: text, closeCode: closeCode)
    }
}

/// Typed access to a JSON object's members (the last of repeated keys wins).
struct Fields {
    private var map: [String: JSONNode] = [:]

    init(_ members: [JSONMember]) {
        for m in members { map[m.key] = m.value }
    }

    func node(_ key: String) -> JSONNode? { map[key] }

    func string(_ key: String) -> String? {
        if case .string(let s)? = map[key] { return s }
        return nil
    }

    func number(_ key: String) -> Double? {
        if case .number(let n)? = map[key] { return Double(n) }
        return nil
    }

    func int(_ key: String) -> Int? {
        guard case .number(let n)? = map[key] else { return nil }
        if let i = Int(n) { return i }
        guard let d = Double(n), d.isFinite, abs(d) < 1e15 else { return nil }
        return Int(d.rounded())
    }

    func bool(_ key: String) -> Bool? {
        if case .bool(let b)? = map[key] { return b }
        return nil
    }

    /// A value as compact JSON text; nil when absent or `null`.
    func json(_ key: String) -> String? {
        guard let node = map[key] else { return nil }
        if case .null = node { return nil }
        return JSONText.compact(node)
    }
}
