// How each log entry reads: its tag, colour, one-line text and detail JSON.

import BirdWire
import Foundation

/// Text of log entries for the Events pane, the filter and the detail view.
public enum LogText {
    /// The channel column ("" for connection-level entries).
    public static func channel(_ event: ClientEvent) -> String { event.channel ?? "" }

    /// The event column: the event name, or a bracketed lifecycle tag.
    public static func name(_ event: ClientEvent) -> String {
        switch event {
        case .event(let e): return e.event
        case .stateChanged: return "◆ state"
        case .retryScheduled: return "◆ retry"
        case .subscribed(_, let c?) where c.outcome == .recovered: return "↻ resumed"
        case .subscribed(_, let c?) where c.outcome == .missed: return "✗ gap"
        case .subscribed(_, let c?) where c.outcome == .unknown && !c.notSupported: return "? resumed"
        case .subscribed: return "◆ subscribed"
        case .subscriptionError: return "✗ sub error"
        case .membersSnapshot: return "◆ members"
        case .memberAdded: return "+ member"
        case .memberRemoved: return "- member"
        case .connectionCount: return "◆ count"
        case .signinSucceeded: return "◆ signin"
        case .signinFailed: return "✗ signin"
        case .error(let r): return r.isDecryptionFailure ? "✗ decryption" : "✗ error"
        case .sent(_, let event, _): return "→ \(event)"
        case .commandError: return "✗ command"
        case .dropped: return "✗ dropped"
        case .networkPath: return "◆ network"
        case .endpoint: return "◆ endpoint"
        case .roundTrip: return "◆ rtt"
        case .scenario: return "◆ scenario"
        }
    }

    /// One line of data or description (secrets redacted).
    public static func summary(_ event: ClientEvent) -> String {
        switch event {
        case .event(let e):
            var data = e.data.map(PayloadText.oneLine) ?? ""
            // Decrypted on arrival: said on the row (Enter then c shows what travelled).
            if e.decrypted { data = "decrypted · " + data }
            if let m = e.memberId { return "from \(m) · \(data)" }
            return data
        case .stateChanged(let c):
            var s = "\(c.previous.rawValue) → \(c.current.rawValue)"
            if let cause = c.cause { s += " · \(cause.text)" }
            if let id = c.connectionId, c.current == .connected { s += " · id \(id)" }
            return s
        case .retryScheduled(let r):
            var s = RetryText.label(attempt: r.attempt, delay: r.delay.seconds)
            if let cause = r.cause { s += " · \(cause.text)" }
            return s
        case .subscribed(_, let continuity):
            // A gap or a recovery is said where it happened; nothing on fresh or Pusher subscriptions.
            return continuity.flatMap(ContinuityText.marker) ?? "subscription succeeded"
        case .subscriptionError(_, let f):
            var s = f.type
            if let st = f.status { s += " \(st)" }
            s += ": \(Redaction.scrub(f.message))"
            if let ep = f.endpoint { s += " (\(ep))" }
            return s
        case .membersSnapshot(_, let members, let me):
            return "\(members.count) member\(members.count == 1 ? "" : "s")" + (me.map { " · me \($0)" } ?? "")
        case .memberAdded(_, let m): return m.id + (m.info.map { " " + PayloadText.oneLine($0) } ?? "")
        case .memberRemoved(_, let id): return id
        case .connectionCount(_, let n): return "\(n) connection\(n == 1 ? "" : "s")"
        case .signinSucceeded(let id, _): return "signed in as \(id)"
        case .signinFailed(let message): return Redaction.scrub(message)
        case .error(let r):
            var s = r.code.map { "\($0) " } ?? ""
            s += Redaction.scrub(r.message)
            if let reason = r.reason, !reason.isEmpty { s += " — \(reason)" }
            return s
        case .sent(_, _, let data): return "sent" + (data.map { " " + PayloadText.oneLine($0) } ?? "")
        case .commandError(let command, let message): return "\(command): \(message)"
        case .dropped(let count, let wire, let since):
            return DroppedText.text(count: count, wire: wire) + " since \(TimeText.clock(since))"
        case .networkPath(let path):
            return (path.usable ? "up · " : "down · ") + Redaction.scrub(path.description)
        case .endpoint(let endpoint):
            return endpointText(endpoint)
        case .roundTrip(let rtt):
            return "round trip \(RoundTripText.milliseconds(rtt)) ms"
        case .scenario(let step):
            let head = step.step.map { "step \($0)" + (step.action.map { " \($0)" } ?? "") + ": " } ?? ""
            return "\(step.name): " + head + Redaction.scrub(step.text)
        }
    }

    /// An endpoint report in words: `resolving endpoint…`, `resolved edge.example.com:443 · TLS on
    /// (headers: X-Token)`, `unavailable: <reason>`.
    public static func endpointText(_ endpoint: EndpointRecord) -> String {
        switch endpoint {
        case .resolving:
            return "resolving endpoint…"
        case .resolved(let host, let port, let tls, _, let names):
            return "resolved \(EndpointRecord.hostPort(host: host, port: port, tls: tls)) · TLS \(tls ? "on" : "off")"
                + (names.isEmpty ? "" : " (headers: \(names.joined(separator: ", ")))")
        case .failed(let reason):
            return "unavailable: \(Redaction.scrub(reason))"
        }
    }

    /// Colour of an entry.
    public static func role(_ event: ClientEvent) -> ColorRole {
        switch event {
        case .event: return .normal
        case .stateChanged(let c):
            switch c.current {
            case .connected: return .good
            case .failed: return .bad
            default: return .warn
            }
        case .retryScheduled: return .warn
        case .subscribed(_, let c?) where c.outcome == .missed || (c.outcome == .unknown && !c.notSupported):
            return .warn
        case .subscribed, .membersSnapshot, .memberAdded, .memberRemoved, .connectionCount, .signinSucceeded:
            return .info
        case .subscriptionError, .signinFailed, .error, .commandError: return .bad
        case .sent: return .sent
        case .dropped: return .warn
        case .networkPath(let path): return path.usable ? .info : .bad
        case .endpoint(.resolving): return .warn
        case .endpoint(.resolved): return .info
        case .endpoint(.failed): return .bad
        case .roundTrip: return .info
        case .scenario: return .accent
        }
    }

    /// Whether an entry matches a filter (case-insensitive, in channel, event and data).
    public static func matches(_ entry: LogEntry, _ filter: String) -> Bool {
        if filter.isEmpty { return true }
        let e = entry.event
        for text in [channel(e), name(e), rawData(e) ?? entry.summary]
        where text.range(of: filter, options: .caseInsensitive) != nil {
            return true
        }
        if case .event(let ev) = e, let m = ev.memberId, m.range(of: filter, options: .caseInsensitive) != nil {
            return true
        }
        return false
    }

    /// The raw data text of an app or sent event.
    static func rawData(_ event: ClientEvent) -> String? {
        switch event {
        case .event(let e): return e.data
        case .sent(_, _, let d): return d
        default: return nil
        }
    }

    /// The detail view's body: the event's data pretty-printed from the text received (or that
    /// text as it came, `raw`) — for a decrypted event with `ciphertext`, the envelope that
    /// travelled instead of the plaintext — or the entry as its JSON line.
    public static func detailLines(_ entry: LogEntry, raw: Bool = false, ciphertext: Bool = false)
        -> (lines: [String], valid: Bool)
    {
        if ciphertext, case .event(let e) = entry.event, let envelope = e.ciphertext {
            return raw ? (PayloadText.rawLines(envelope), PayloadText.isJSON(envelope)) : PayloadText.pretty(envelope)
        }
        if let data = rawData(entry.event) {
            return raw ? (PayloadText.rawLines(data), PayloadText.isJSON(data)) : PayloadText.pretty(data)
        }
        if case .event = entry.event { return (["(no data)"], true) }
        let line = JSONLines.body(entry.event)
        return raw ? (PayloadText.rawLines(line), true) : PayloadText.pretty(line)
    }
}
