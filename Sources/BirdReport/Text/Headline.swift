/// The report's first sentence and key figures, as text (the HTML renderer and the tests use
/// the same words): "4 reconnects: 2 × 4200, 1 × drop, 1 × 4100; longest outage 5.2 s;
/// 3 auth failures (503)".
public enum Headline {
    /// The clauses of the sentence, in order.
    public static func clauses(_ s: SessionSummary) -> [String] {
        var out: [String] = []
        let reconnects = s.losses.filter { $0.to.known != .failed && $0.reason != .disconnect }
        if reconnects.isEmpty {
            out.append("no reconnects")
        } else {
            out.append(
                ReportFormat.count(reconnects.count, "reconnect") + ": " + tally(reconnects.map(\.reason.label)))
        }
        let attempts = s.failedAttempts.filter { $0.to.known != .failed }
        if !attempts.isEmpty {
            out.append(
                ReportFormat.count(attempts.count, "failed attempt") + ": " + tally(attempts.map(\.reason.label)))
        }
        for end in s.ends where end.to.known == .failed {
            var clause = "connection failed with \(end.reason.label)"
            if let reason = closeReason(end.cause) { clause += " (\(reason))" }
            out.append(clause)
        }
        if let longest = s.outages.filter(\.recovered).max(by: { $0.durationMs < $1.durationMs }) {
            out.append("longest outage \(ReportFormat.duration(longest.durationMs))")
        }
        if let last = s.outages.last, !last.recovered, s.finalState.known != .failed, last.durationMs >= 1 {
            out.append("down for \(ReportFormat.duration(last.durationMs)) when the recording ended")
        }
        let failedAuth = s.failedAuth
        if !failedAuth.isEmpty {
            let labels = failedAuth.map(\.resultLabel)
            let grouped = Set(labels).count == 1 ? labels[0] : tally(labels)
            out.append(ReportFormat.count(failedAuth.count, "auth failure") + " (\(grouped))")
        }
        let errors = s.errors.filter { $0.kind == "error" }
        if !errors.isEmpty {
            let labels = errors.map { $0.code.map(String.init) ?? "no code" }
            let grouped = Set(labels).count == 1 ? labels[0] : tally(labels)
            out.append(ReportFormat.count(errors.count, "error") + " (\(grouped))")
        }
        let subscriptionErrors = s.errors.filter { $0.kind == "subscription_error" }.count
        if subscriptionErrors > 0 { out.append(ReportFormat.count(subscriptionErrors, "subscription error")) }
        let signinErrors = s.errors.filter { $0.kind == "signin_error" }.count
        if signinErrors > 0 { out.append(ReportFormat.count(signinErrors, "sign-in error")) }
        if s.finalState.known != .connected, s.finalState.known != .failed {
            out.append("ended \(s.finalState.rawValue)")
        }
        return out
    }

    /// The sentence.
    public static func sentence(_ s: SessionSummary) -> String {
        let text = clauses(s).joined(separator: "; ")
        return text.prefix(1).uppercased() + text.dropFirst()
    }

    /// Key figures: a label and its value, in order.
    public static func figures(_ s: SessionSummary) -> [(label: String, value: String)] {
        var out: [(String, String)] = [("recorded", ReportFormat.duration(s.endMs))]
        if s.endMs > 0 {
            let percent = ReportFormat.whole(s.connectedMs / s.endMs * 100)
            out.append(("connected", "\(percent) % of the time"))
        }
        out.append(("connections", String(s.changes.filter { $0.current.known == .connected }.count)))
        // An outage cut short by the end of the recording (or a failure) says so; one that had
        // not lasted a millisecond by then is no figure.
        if let longest = s.outages.filter({ $0.recovered || $0.durationMs >= 1 }).max(by: {
            $0.durationMs < $1.durationMs
        }) {
            let note = longest.recovered ? "" : " (not over when the recording ended)"
            out.append(("longest outage", ReportFormat.duration(longest.durationMs) + note))
        }
        out.append(("lost", String(s.losses.count)))
        out.append(("failed attempts", String(s.failedAttempts.count)))
        if !s.retries.isEmpty {
            let waited = s.retries.reduce(0) { $0 + $1.waitMs }
            let longest = s.retries.map(\.waitMs).max() ?? 0
            out.append(
                (
                    "retries",
                    "\(s.retries.count), waited \(ReportFormat.duration(waited)) in all, longest "
                        + ReportFormat.duration(longest)
                ))
        }
        out.append(("auth requests", "\(s.auth.count), \(s.failedAuth.count) failed"))
        out.append(("events received", "\(s.eventCount) on \(ReportFormat.count(s.channels.count, "channel"))"))
        out.append(("errors", String(s.errors.count)))
        out.append(("final state", s.finalState.rawValue))
        return out
    }

    /// `2 × 4200, 1 × drop`: most frequent first, then in order of first appearance.
    static func tally(_ labels: [String]) -> String {
        var order: [String] = []
        var counts: [String: Int] = [:]
        for label in labels {
            if counts[label] == nil { order.append(label) }
            counts[label, default: 0] += 1
        }
        let ranked = order.enumerated().sorted { a, b in
            let (ca, cb) = (counts[a.element] ?? 0, counts[b.element] ?? 0)
            return ca != cb ? ca > cb : a.offset < b.offset
        }
        return ranked.map { "\(counts[$0.element] ?? 0) × \($0.element)" }.joined(separator: ", ")
    }

    /// The reason in a recorded close cause: `server closed: 4009 unauthorized (terminated by the
    /// app)` → `terminated by the app`.
    static func closeReason(_ cause: String?) -> String? {
        guard let cause, cause.hasSuffix(")"), let open = cause.lastIndex(of: "(") else { return nil }
        let reason = cause[cause.index(after: open)..<cause.index(before: cause.endIndex)]
        return reason.isEmpty ? nil : String(reason)
    }
}
