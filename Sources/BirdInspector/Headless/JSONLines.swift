// docs/PROTOCOL.md § Headless output: one JSON object per line for `--jsonl` and for recordings (docs/RECORDING.md).
// The inverse (a line back into a `ClientEvent`) is in JSONLinesDecoding.swift.

import BirdRecording
import BirdWire
import Foundation

/// Encodes client events as the headless mode's JSON lines (secrets redacted).
public enum JSONLines {
    /// The full line: `{"ts":"…","type":"…",…}`; in a recording `mono_ms` follows `ts` (the
    /// line start every recording line shares: BirdRecording's `RecordingWriter.head`).
    public static func line(_ event: ClientEvent, at time: Date, monoMs: Double? = nil) -> String {
        let keys = fields(event).dropFirst()
        var line =
            monoMs.map { RecordingWriter.head(at: time, monoMs: $0, type: type(event)) }
            ?? "{\"ts\":" + RecordingTime.iso(time).jsonQuoted + "," + s("type", type(event))
        // One string grown in place (a line is written for every event recorded).
        line.reserveCapacity(line.utf8.count + keys.reduce(2) { $0 + $1.utf8.count + 1 })
        for key in keys {
            line += ","
            line += key
        }
        line += "}"
        return line
    }

    /// The object without `ts` (used by the detail view and for comparing replays).
    public static func body(_ event: ClientEvent) -> String {
        "{" + fields(event).joined(separator: ",") + "}"
    }

    /// The `type` of an event's line.
    public static func type(_ event: ClientEvent) -> String {
        switch event {
        case .stateChanged: return "state"
        case .retryScheduled: return "retry"
        case .subscribed: return "subscribed"
        case .subscriptionError: return "subscription_error"
        case .event: return "event"
        case .membersSnapshot: return "members"
        case .memberAdded: return "member_added"
        case .memberRemoved: return "member_removed"
        case .connectionCount: return "connection_count"
        case .signinSucceeded: return "signin"
        case .signinFailed: return "signin_error"
        case .error: return "error"
        case .sent: return "sent"
        case .commandError: return "command_error"
        case .dropped: return "dropped"
        case .networkPath: return "network"
        case .endpoint: return "endpoint"
        case .roundTrip: return "rtt"
        case .scenario: return "scenario"
        }
    }

    private static func s(_ key: String, _ value: String) -> String {
        "\"" + key + "\":" + RecordingWriter.quoted(value)
    }
    private static func n(_ key: String, _ value: Int) -> String { "\"\(key)\":\(value)" }
    private static func raw(_ key: String, _ json: String) -> String { "\"\(key)\":" + json }
    private static func b(_ key: String, _ value: Bool) -> String { "\"\(key)\":\(value ? "true" : "false")" }

    /// JSON text for data as received: valid JSON embedded as sent, anything else as a JSON string
    /// (`PayloadText.embedded`).
    static func value(_ text: String) -> String { PayloadText.embedded(text) }

    private static func fields(_ event: ClientEvent) -> [String] {
        var f = [s("type", type(event))]
        switch event {
        case .stateChanged(let c):
            f += [s("previous", c.previous.rawValue), s("current", c.current.rawValue)]
            if let id = c.connectionId { f.append(s("connection_id", id)) }
            if let cause = c.cause {
                f.append(s("cause", Redaction.scrub(cause.text)))
                if let code = cause.closeCode { f.append(n("close_code", code)) }
            }
            if let timeout = c.activityTimeout { f.append(n("activity_timeout_ms", Checked.milliseconds(timeout))) }
        case .retryScheduled(let r):
            f += [n("in_ms", Checked.milliseconds(r.delay)), n("attempt", r.attempt)]
            f.append(r.cause.map { s("cause", Redaction.scrub($0.text)) } ?? raw("cause", "null"))
        case .subscribed(let ch, let continuity):
            f.append(s("channel", ch))
            if let c = continuity {
                f.append(s("continuity", c.outcome.rawValue))
                if let missed = c.missed { f.append(n("missed", missed)) }
                if let reason = c.reason { f.append(s("reason", reason)) }
                if let offset = c.offset { f.append(n("offset", offset)) }
                if let epoch = c.epoch { f.append(s("epoch", epoch)) }
            }
        case .subscriptionError(let ch, let e):
            // `type` names the line, so the failure's own type goes in `error_type`.
            f += [s("channel", ch), s("error_type", e.type)]
            if let st = e.status { f.append(n("status", st)) }
            if let ep = e.endpoint { f.append(s("endpoint", Redaction.endpoint(ep))) }
            f.append(s("message", Redaction.scrub(e.message)))
        case .event(let e):
            f += [s("channel", e.channel), s("event", e.event)]
            if let offset = e.offset { f.append(n("offset", offset)) }
            f.append(raw("data", e.data.map(value) ?? "null"))
            if let m = e.memberId { f.append(s("member_id", m)) }
            // The envelope as it travelled (nonce and ciphertext: no key).
            if let c = e.ciphertext { f += [b("decrypted", true), raw("ciphertext", value(c))] }
        case .membersSnapshot(let ch, let members, let me):
            f.append(s("channel", ch))
            let items = members.sorted { $0.id < $1.id }.map { $0.id.jsonQuoted + ":" + ($0.info.map(value) ?? "null") }
            f.append(raw("members", "{" + items.joined(separator: ",") + "}"))
            if let me { f.append(s("my_id", me)) }
        case .memberAdded(let ch, let m):
            f += [s("channel", ch), s("member_id", m.id)]
            if let info = m.info { f.append(raw("member_info", value(info))) }
        case .memberRemoved(let ch, let id):
            f += [s("channel", ch), s("member_id", id)]
        case .connectionCount(let ch, let count):
            f += [s("channel", ch), n("count", count)]
        case .signinSucceeded(let id, _):
            f.append(s("member_id", id))
        case .signinFailed(let message):
            f.append(s("message", Redaction.scrub(message)))
        case .error(let r):
            if let code = r.code { f.append(n("code", code)) }
            f.append(s("message", Redaction.scrub(r.message)))
            if let reason = r.reason { f.append(s("reason", Redaction.scrub(reason))) }
            if let kind = r.kind { f.append(s("kind", kind)) }
            if let ch = r.channel { f.append(s("channel", ch)) }
            if let ev = r.event { f.append(s("event", ev)) }
        case .sent(let ch, let ev, let data):
            f += [s("channel", ch), s("event", ev), raw("data", data.map(value) ?? "null")]
        case .commandError(let command, let message):
            f += [s("command", Redaction.scrub(command)), s("message", Redaction.scrub(message))]
        case .dropped(let count, let wire, let since):
            f.append(n("count", count))
            if wire > 0 { f.append(n("wire", wire)) }
            f.append(s("since", RecordingTime.iso(since)))
        case .networkPath(let path):
            f += [b("usable", path.usable), s("path", Redaction.scrub(path.description))]
        case .endpoint(let endpoint):
            f.append(s("phase", endpoint.phase))
            switch endpoint {
            case .resolving:
                break
            case .resolved(let host, let port, let tls, let url, let names):
                f.append(s("host", host))
                if let port { f.append(n("port", port)) }
                f.append(b("tls", tls))
                if let url { f.append(s("endpoint", Redaction.endpoint(url))) }
                if !names.isEmpty {
                    f.append(raw("headers", "[" + names.map(\.jsonQuoted).joined(separator: ",") + "]"))
                }
            case .failed(let reason):
                f.append(s("reason", Redaction.scrub(reason)))
            }
        case .roundTrip(let rtt):
            f.append(raw("ms", RoundTripText.milliseconds(rtt)))
        case .scenario(let step):
            f.append(s("name", step.name))
            if let number = step.step { f.append(n("step", number)) }
            if let action = step.action { f.append(s("action", action)) }
            f.append(s("text", Redaction.scrub(step.text)))
            if let back = step.edgeBackAt { f.append(s("edge_back_at", RecordingTime.iso(back))) }
        }
        return f
    }
}
