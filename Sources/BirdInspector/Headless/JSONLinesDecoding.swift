// The inverse of JSONLines: a line of docs/PROTOCOL.md § Headless output (from a recording) back into a `ClientEvent`.
//
// Lossy by design (the line never carried it, or carried it redacted):
// - `retry`: a delay finer than a millisecond; `signin`: the member info;
// - data, member info: come back as the exact JSON text embedded in the line (so as received,
//   unless a secret was redacted); raw (non-JSON) data comes back as its JSON string; JSON `null`
//   data comes back as no data;
// - `members`: the roster comes back sorted by id (as written);
// - `endpoint`: the socket URL without its query string (as written);
// - `subscribed`: no continuity from lines written before it was (or with an unknown outcome);
// - `rtt`: a round-trip time finer than a microsecond;
// - causes: a cause whose text matches one of the fixed sentences (or a network or endpoint
//   sentence) comes back as that case;
//   `.other` text comes back as `.other`; a text with a close code that is no longer a known
//   sentence comes back as `.recorded(text:closeCode:)`.

import BirdRealtime
import BirdRecording
import BirdWire
import Foundation

extension JSONLines {
    /// The event an E line holds, or nil when the line is not an E type or lacks a required key.
    public static func decode(line: String) -> ClientEvent? {
        guard case .object(let object)? = try? JSONValue(parsing: line) else { return nil }
        return decode(RecordingFields(object, text: line))
    }

    /// The event an E line's fields hold (any extra keys, such as `ts` and `mono_ms`, ignored).
    static func decode(_ f: RecordingFields) -> ClientEvent? {
        guard let type = f.string("type") else { return nil }
        switch type {
        case "state":
            guard let previous = f.string("previous").flatMap(ConnectionState.init(rawValue:)),
                let current = f.string("current").flatMap(ConnectionState.init(rawValue:))
            else { return nil }
            let cause = f.string("cause").map { Self.cause(text: $0, closeCode: f.int("close_code")) }
            let timeout = f.int("activity_timeout_ms").flatMap {
                (0...RecordingFormat.maxMonoMs).contains($0) ? Duration.milliseconds($0) : nil
            }
            return .stateChanged(
                StateChangeRecord(
                    previous: previous, current: current, cause: cause,
                    connectionId: f.string("connection_id"), activityTimeout: timeout))
        case "retry":
            guard let ms = f.int("in_ms"), (0...RecordingFormat.maxMonoMs).contains(ms), let attempt = f.int("attempt")
            else { return nil }
            return .retryScheduled(
                RetryRecord(
                    delay: .milliseconds(ms), attempt: attempt,
                    cause: f.string("cause").map { Self.cause(text: $0, closeCode: nil) }))
        case "subscribed":
            guard let ch = f.string("channel") else { return nil }
            return .subscribed(channel: ch, continuity: continuity(f))
        case "subscription_error":
            guard let ch = f.string("channel"), let message = f.string("message") else { return nil }
            return .subscriptionError(
                channel: ch,
                SubscriptionFailure(
                    type: f.string("error_type") ?? "Error", status: f.int("status"), endpoint: f.string("endpoint"),
                    message: message))
        case "event":
            guard let ch = f.string("channel"), let name = f.string("event") else { return nil }
            return .event(
                ChannelEventRecord(
                    channel: ch, event: name, data: f.json("data"), memberId: f.string("member_id"),
                    ciphertext: f.bool("decrypted") == true ? f.json("ciphertext") : nil,
                    offset: f.int("offset").flatMap { $0 >= 0 ? $0 : nil }))
        case "members":
            guard let ch = f.string("channel"), let rosterText = f.json("members"),
                let roster = JSONValue.memberRanges(in: rosterText)
            else { return nil }
            let bytes = Array(rosterText.utf8)
            var seen: [String: Int] = [:]
            var list: [PresenceMember] = []
            for m in roster {
                let text = String(decoding: bytes[m.value], as: UTF8.self)
                let member = PresenceMember(id: m.key, info: text == "null" ? nil : text)
                if let i = seen[m.key] { list[i] = member } else { seen[m.key] = list.count; list.append(member) }
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
            return .error(
                ErrorReport(
                    code: f.int("code"), message: message, reason: f.string("reason"),
                    kind: f.string("kind"), channel: f.string("channel"), event: f.string("event")))
        case "sent":
            guard let ch = f.string("channel"), let name = f.string("event") else { return nil }
            return .sent(channel: ch, event: name, data: f.json("data"))
        case "command_error":
            guard let command = f.string("command"), let message = f.string("message") else { return nil }
            return .commandError(command: command, message: message)
        case "dropped":
            guard let count = f.int("count"), count >= 0, let since = f.string("since").flatMap(RecordingTime.parse)
            else { return nil }
            return .dropped(count: count, wire: max(0, f.int("wire") ?? 0), since: since)
        case "network":
            guard let usable = f.bool("usable"), let path = f.string("path") else { return nil }
            return .networkPath(NetworkPathRecord(usable: usable, description: path))
        case "endpoint":
            switch f.string("phase") {
            case "resolving":
                return .endpoint(.resolving)
            case "resolved":
                guard let host = f.string("host"), let tls = f.bool("tls") else { return nil }
                let port = f.int("port").flatMap { (0...65_535).contains($0) ? $0 : nil }
                var names: [String] = []
                if case .array(let items)? = f.value("headers") { names = items.compactMap(\.stringValue) }
                return .endpoint(
                    .resolved(host: host, port: port, tls: tls, url: f.string("endpoint"), headerNames: names))
            case "failed":
                guard let reason = f.string("reason") else { return nil }
                return .endpoint(.failed(reason))
            default:
                return nil
            }
        case "rtt":
            guard let ms = f.number("ms"), ms >= 0, ms <= Double(RecordingFormat.maxMonoMs) else { return nil }
            return .roundTrip(.microseconds(Checked.int(ms * 1_000)))
        case "scenario":
            guard let name = f.string("name") else { return nil }
            return .scenario(
                ScenarioStepRecord(
                    name: name, step: f.int("step"), action: f.string("action"),
                    text: f.string("text") ?? "",
                    edgeBackAt: f.string("edge_back_at").flatMap(RecordingTime.parse)))
        default:
            return nil
        }
    }

    /// A `subscribed` line's continuity: nil without a `continuity` key (older recordings) or
    /// with an outcome this version does not know; counts and offsets below 0 are dropped.
    static func continuity(_ f: RecordingFields) -> ContinuityRecord? {
        guard let outcome = f.string("continuity").flatMap(ContinuityRecord.Outcome.init(rawValue:)) else { return nil }
        return ContinuityRecord(
            outcome: outcome, missed: f.int("missed").flatMap { $0 >= 0 ? $0 : nil },
            reason: f.string("reason"), offset: f.int("offset").flatMap { $0 >= 0 ? $0 : nil },
            epoch: f.string("epoch"))
    }

    /// The cause a `cause` text (and `close_code`, when the line has one) stands for.
    public static func cause(text: String, closeCode: Int?) -> TransitionCause {
        let fixed: [TransitionCause] = [
            .started, .connectCalled, .disconnectCalled, .handshake, .retryDue, .pongTimeout,
            .handshakeWithoutId, .dropped, .signout,
        ]
        if let match = fixed.first(where: { $0.text == text && (closeCode == nil || $0.closeCode == closeCode) }) {
            return match
        }
        for (prefix, by) in [("server closed: ", CloseInitiator.server), ("client closed: ", .client)]
        where text.hasPrefix(prefix) {
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
        if closeCode == nil, text.hasPrefix("endpoint unavailable: ") {
            return .endpointUnavailable(String(text.dropFirst("endpoint unavailable: ".count)))
        }
        // "no network (PATH): waiting for it" and the like: the path back from between the brackets.
        let network: [(String, String, @Sendable (String) -> TransitionCause)] = [
            ("no network (", "): waiting for it", { .networkUnavailable($0) }),
            ("network back (", "): connecting at once", { .networkRestored($0) }),
            ("network changed (", "): connecting at once", { .networkChanged($0) }),
        ]
        for (head, tail, make) in network
        where closeCode == nil && text.hasPrefix(head) && text.hasSuffix(tail)
            && text.count >= head.count + tail.count
        {
            return make(String(text.dropFirst(head.count).dropLast(tail.count)))
        }
        return closeCode == nil ? .other(text) : .recorded(text: text, closeCode: closeCode)
    }
}
