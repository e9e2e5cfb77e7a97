/// Names the built-in scenarios (`Sources/BirdSandbox/Scenario/ScenarioCatalogue.swift`,
/// docs/SCENARIOS.md) whose fault pattern a session shows, so support can reproduce it with
/// `bird-sandbox --scenario NAME`. Each rule reads the ``SessionSummary`` only.
public enum ScenarioMatcher {
    /// The scenario names the rules know, in the catalogue's order.
    public static let names = [
        "flaky-network", "edge-restart", "over-capacity", "terminated-member", "stale-connection", "auth-outage",
        "outage-publish", "rate-limited-client-events",
    ]

    /// Every scenario the session matches, in order of when its pattern first showed.
    public static func matches(_ s: SessionSummary) -> [ScenarioMatch] {
        let found = [
            named(s), flakyNetwork(s), edgeRestart(s), overCapacity(s), terminatedMember(s), staleConnection(s),
            authOutage(s), rateLimited(s),
        ]
        .compactMap { $0 }
        var seen: Set<String> = []
        return found.sorted { $0.atMs != $1.atMs ? $0.atMs < $1.atMs : $0.name < $1.name }
            .filter { seen.insert($0.name).inserted }
    }

    /// A `scenario` line that names a built-in (written by recorders that know the scenario).
    /// `outage-publish` is matched this way only: its faults are `edge-restart`'s.
    static func named(_ s: SessionSummary) -> ScenarioMatch? {
        for marker in s.markers where marker.kind == .scenario {
            for name in names where marker.label.contains("scenario: \(name)") || marker.label.contains("name: \(name)")
            {
                return ScenarioMatch(name: name, evidence: "the recording names it", atMs: marker.atMs)
            }
        }
        return nil
    }

    /// Connections dropped without a close frame, more than once or with a pong timeout too.
    static func flakyNetwork(_ s: SessionSummary) -> ScenarioMatch? {
        let drops = s.losses.filter { $0.reason == .drop }
        let silences = s.losses.filter { $0.reason == .close(4201) }
        guard let first = drops.first, drops.count + silences.count >= 2 else { return nil }
        var evidence = ReportFormat.count(drops.count, "TCP drop") + " (1006, no close frame)"
        if !silences.isEmpty { evidence += " and " + ReportFormat.count(silences.count, "pong timeout") + " (4201)" }
        return ScenarioMatch(name: "flaky-network", evidence: evidence, atMs: first.atMs)
    }

    /// A 4200 close, then connection attempts refused (the edge not listening).
    static func edgeRestart(_ s: SessionSummary) -> ScenarioMatch? {
        for (i, end) in s.ends.enumerated() where end.isLoss && end.reason == .close(4200) {
            var refused: [ConnectionEnd] = []
            for later in s.ends[(i + 1)...] {
                if later.isLoss { break }
                if later.reason == .refused { refused.append(later) }
            }
            guard let last = refused.last else { continue }
            let evidence =
                "closed with 4200 at \(ReportFormat.offset(end.atMs)), then "
                + ReportFormat.count(refused.count, "connection attempt") + " refused over "
                + ReportFormat.duration(last.atMs - end.atMs)
            return ScenarioMatch(name: "edge-restart", evidence: evidence, atMs: end.atMs)
        }
        return nil
    }

    /// Repeated 4100 closes (of connections or of attempts).
    static func overCapacity(_ s: SessionSummary) -> ScenarioMatch? {
        let closes = s.ends.filter { $0.reason == .close(4100) }
        guard let first = closes.first, let last = closes.last, closes.count >= 2 else { return nil }
        return ScenarioMatch(
            name: "over-capacity",
            evidence:
                "\(closes.count) closes with 4100 (over capacity) over \(ReportFormat.duration(last.atMs - first.atMs))",
            atMs: first.atMs)
    }

    /// A 4009 close whose reason says the member was terminated.
    static func terminatedMember(_ s: SessionSummary) -> ScenarioMatch? {
        for end in s.ends where end.reason == .close(4009) {
            let reason = Headline.closeReason(end.cause)
            let errorSaysSo = s.errors.contains {
                $0.code == 4009 && ($0.detail ?? "").contains("terminated") && abs($0.atMs - end.atMs) < 1000
            }
            guard (reason ?? "").contains("terminated") || errorSaysSo else { continue }
            return ScenarioMatch(
                name: "terminated-member",
                evidence: "closed with 4009 \"\(reason ?? "terminated")\" at \(ReportFormat.offset(end.atMs))",
                atMs: end.atMs)
        }
        return nil
    }

    /// A ping left unanswered, then the client's 4201 close (pong timeout).
    static func staleConnection(_ s: SessionSummary) -> ScenarioMatch? {
        for end in s.losses where end.reason == .close(4201) {
            let ping = s.pings.last { $0.atMs <= end.atMs }
            if let ping, !ping.answered {
                return ScenarioMatch(
                    name: "stale-connection",
                    evidence:
                        "ping at \(ReportFormat.offset(ping.atMs)) unanswered; closed with 4201 (pong timeout) at "
                        + ReportFormat.offset(end.atMs),
                    atMs: end.atMs)
            }
            if s.wireCount == 0 {
                return ScenarioMatch(
                    name: "stale-connection",
                    evidence: "closed with 4201 (pong timeout) at \(ReportFormat.offset(end.atMs))", atMs: end.atMs)
            }
        }
        return nil
    }

    /// Authorization requests answered 5xx.
    static func authOutage(_ s: SessionSummary) -> ScenarioMatch? {
        let failures = s.auth.filter { ($0.status ?? 0) >= 500 }
        if let first = failures.first, let last = failures.last {
            let statuses = Set(failures.compactMap(\.status)).sorted().map(String.init).joined(separator: ", ")
            return ScenarioMatch(
                name: "auth-outage",
                evidence: ReportFormat.count(failures.count, "auth request") + " answered \(statuses) between "
                    + "\(ReportFormat.offset(first.atMs)) and \(ReportFormat.offset(last.atMs))",
                atMs: first.atMs)
        }
        // Older recordings without auth lines: the channels' AuthErrors carry the status.
        let errors = s.errors.filter {
            $0.kind == "subscription_error" && $0.detail == "AuthError" && ($0.code ?? 0) >= 500
        }
        guard let first = errors.first else { return nil }
        return ScenarioMatch(
            name: "auth-outage",
            evidence: ReportFormat.count(errors.count, "subscription") + " refused with AuthError \(first.code ?? 500)",
            atMs: first.atMs)
    }

    /// The error event 4301 (client event rate limit).
    static func rateLimited(_ s: SessionSummary) -> ScenarioMatch? {
        let errors = s.errors.filter { $0.kind == "error" && $0.code == 4301 }
        guard let first = errors.first else { return nil }
        return ScenarioMatch(
            name: "rate-limited-client-events",
            evidence: ReportFormat.count(errors.count, "error") + " 4301 (client event rate limit), first at "
                + ReportFormat.offset(first.atMs),
            atMs: first.atMs)
    }
}
