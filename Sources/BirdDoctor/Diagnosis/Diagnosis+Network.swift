import BirdWire

extension Diagnosis {
    // MARK: 1 resolve

    /// Layer 1.
    public static func resolve(_ facts: ResolveFacts, ms: Double, target: DoctorTarget) -> DoctorStep {
        let host = target.host
        switch facts {
        case .resolved(let addresses):
            let ips = addresses.map(DoctorText.hostOnly)
            return DoctorStep(
                layer: .resolve, status: .pass, ms: ms,
                summary: "\(host) → \(ips.joined(separator: ", "))",
                details: [
                    DoctorDetail("host", .string(host)), DoctorDetail("addresses", .array(ips.map(JSONValue.string))),
                ])
        case .failed(let message):
            var hint = "check the host name for typos"
            if let region = target.region {
                hint += " — it comes from --region \(region) (\(target.dialect) dialect); is that the app's cluster?"
            } else {
                hint += " (--host)"
            }
            let lower = message.lowercased()
            if lower.contains("temporary failure") || lower.contains("try again") {
                hint =
                    "this machine cannot reach a DNS server (offline, or a VPN is needed); `getent hosts \(host)` "
                    + "shows what its resolver says"
            } else {
                hint +=
                    "; `getent hosts \(host)` shows what this machine's resolver says (when every name fails, "
                    + "this machine has no working DNS)"
            }
            return DoctorStep(
                layer: .resolve, status: .fail, ms: ms, summary: "cannot resolve \(host): \(message)",
                details: [DoctorDetail("host", .string(host)), DoctorDetail("error", .string(message))], hint: hint)
        case .timedOut:
            return DoctorStep(
                layer: .resolve, status: .fail, ms: ms,
                summary: "no answer from the resolver for \(host) within \(DoctorText.seconds(target.timeout))",
                details: [DoctorDetail("host", .string(host))],
                hint: "the DNS server is slow or unreachable: check /etc/resolv.conf, the network or the VPN")
        }
    }

    // MARK: 2 connect

    /// Layer 2: the attempts in order (the last one connected when the layer passed).
    public static func connect(_ attempts: [ConnectAttempt], ms: Double, target: DoctorTarget) -> DoctorStep {
        let shown = attempts.map { attempt -> JSONValue in
            .object([
                "address": .string(attempt.address), "outcome": .string(outcomeText(attempt.outcome)),
                "ms": JSONValue(rounded(attempt.ms)),
            ])
        }
        let details = [DoctorDetail("attempts", .array(shown))]
        if let winner = attempts.last, winner.outcome == .connected {
            let before = attempts.dropLast().map { "\($0.address) \(outcomeText($0.outcome))" }
            let summary =
                "connected to \(winner.address)" + (before.isEmpty ? "" : " (after \(before.joined(separator: ", ")))")
            return DoctorStep(layer: .connect, status: .pass, ms: ms, summary: summary, details: details)
        }
        let endpoint = "\(target.hostPart):\(target.port)"
        let summary =
            attempts.isEmpty
            ? "no address to connect to"
            : "no address answered: "
                + attempts.map { "\($0.address) \(outcomeText($0.outcome))" }.joined(separator: ", ")
        let outcomes = attempts.map(\.outcome)
        let hint: String
        if !outcomes.isEmpty && outcomes.allSatisfy({ $0 == .refused }) {
            var text = "nothing listens on \(endpoint): wrong --port"
            text += target.tls ? " (TLS edges listen on 443)?" : "?"
            text += " Is the edge (or bird-sandbox) running?"
            hint = text
        } else if outcomes.contains(.timedOut) {
            hint =
                "packets to \(endpoint) are dropped: a firewall, or a network that allows only a proxy; "
                + "check that outbound port \(target.port) is open"
        } else if outcomes.contains(where: { if case .unreachable = $0 { return true } else { return false } }) {
            hint =
                "no route to the edge: the network or VPN is down"
                + (attempts.contains { $0.address.hasPrefix("[") } ? ", or IPv6 has no connectivity here" : "")
        } else {
            hint = "the socket layer failed: see the error above; check the network"
        }
        return DoctorStep(layer: .connect, status: .fail, ms: ms, summary: summary, details: details, hint: hint)
    }

    static func outcomeText(_ outcome: ConnectOutcome) -> String {
        switch outcome {
        case .connected: return "connected"
        case .refused: return "refused"
        case .unreachable(let why): return "unreachable (\(why))"
        case .timedOut: return "timed out"
        case .failed(let why): return "failed (\(why))"
        }
    }

    static func rounded(_ ms: Double) -> Double { (ms * 100).rounded() / 100 }

    // MARK: 3 tls

    /// Layer 3 when the target uses plain ws://.
    public static func tlsNotUsed(target: DoctorTarget) -> DoctorStep {
        .skipped(.tls, target.note.map { "plain ws:// (\($0))" } ?? "plain ws:// (--insecure)")
    }

    /// OpenSSL verify results that mean "the issuer is not trusted here".
    static let unknownIssuerCodes: Set<Int> = [2, 18, 19, 20, 21]

    /// Certificates expiring within this many days pass with a warning.
    public static let expiryWarningDays = 14

    /// Layer 3; `now` is the current time in Unix seconds.
    public static func tls(_ outcome: TLSOutcome, ms: Double, target: DoctorTarget, now: Double) -> DoctorStep {
        switch outcome {
        case .completed(let facts):
            return tlsCompleted(facts, ms: ms, target: target, now: now)
        case .failed(let reason):
            let lower = reason.lowercased()
            let hint: String
            if lower.contains("wrong version number") || lower.contains("packet length too long")
                || lower.contains("record layer failure") || lower.contains("http request")
            {
                hint =
                    "the port does not speak TLS: is \(target.port) a plain ws:// port? (loopback: --insecure; "
                    + "edges use TLS on 443)"
            } else if lower.contains("ca file") {
                hint = "--ca-file must be a readable PEM file holding the CA certificate"
            } else if lower.contains("alert handshake failure") || lower.contains("unsupported protocol")
                || lower.contains("no protocols available")
            {
                hint =
                    "no TLS version or cipher in common: the edge may offer only TLS 1.0/1.1 (1.2 or newer is required)"
            } else {
                hint =
                    "try `openssl s_client -connect \(target.hostPart):\(target.port) -servername \(target.host)`; "
                    + "a TLS-intercepting proxy may be in the way"
            }
            return DoctorStep(
                layer: .tls, status: .fail, ms: ms, summary: "TLS handshake failed: \(reason)",
                details: [DoctorDetail("error", .string(reason))], hint: hint)
        case .timedOut:
            return DoctorStep(
                layer: .tls, status: .fail, ms: ms,
                summary: "no TLS handshake within \(DoctorText.seconds(target.timeout))",
                hint: "the server does not answer TLS: the port may expect plain HTTP, or a firewall holds the packets")
        case .closed:
            return DoctorStep(
                layer: .tls, status: .fail, ms: ms,
                summary: "the server closed the connection during the TLS handshake",
                hint: "the port may be plain HTTP, or the server has no certificate for the name \(target.host) (SNI)")
        }
    }

    private static func tlsCompleted(_ facts: TLSFacts, ms: Double, target: DoctorTarget, now: Double) -> DoctorStep {
        var details: [DoctorDetail] = [
            DoctorDetail("protocol", .string(facts.protocolVersion)), DoctorDetail("cipher", .string(facts.cipher)),
        ]
        guard let cert = facts.certificate else {
            return DoctorStep(
                layer: .tls, status: .fail, ms: ms, summary: "the server sent no certificate", details: details,
                hint: "a TLS server must present a certificate: check the edge's TLS configuration")
        }
        // Clamped: a clock that is not a number must not make arithmetic below overflow.
        let daysLeft = max(
            -1_000_000, min(1_000_000, DoctorText.int(((Double(cert.notAfter) - now) / 86_400).rounded(.down))))
        details += [
            DoctorDetail("subject", .string(cert.subject)), DoctorDetail("issuer", .string(cert.issuer)),
            DoctorDetail("sans", .array(cert.names.map(JSONValue.string))),
            DoctorDetail("not_before", .string(DoctorText.date(cert.notBefore))),
            DoctorDetail("not_after", .string(DoctorText.date(cert.notAfter))),
            DoctorDetail("days_left", .number(JSONNumber(daysLeft))),
            DoctorDetail("chain", .array(facts.chainSubjects.map(JSONValue.string))),
            DoctorDetail("verify", .string(facts.verifyReason)),
            DoctorDetail("verify_code", .number(JSONNumber(facts.verifyCode))),
        ]
        let forNames = cert.names.isEmpty ? "no name" : DoctorText.names(cert.names)
        if facts.verifyCode == 0 {
            let summary =
                "\(facts.protocolVersion), certificate for \(forNames), valid until "
                + "\(DoctorText.date(cert.notAfter)) (\(daysLeft) days left)"
            if daysLeft < expiryWarningDays {
                return DoctorStep(
                    layer: .tls, status: .warn, ms: ms, summary: summary, details: details,
                    hint: "the certificate expires in \(daysLeft) days: renew it before clients start refusing it")
            }
            return DoctorStep(layer: .tls, status: .pass, ms: ms, summary: summary, details: details)
        }
        var problems: [String] = []
        var hints: [String] = []
        if !facts.hostMatches {
            problems.append("the certificate is for \(forNames), not `\(target.host)`")
            hints.append(
                "connect with a name the certificate lists (--host), or fix the edge's certificate (a default "
                    + "certificate served for an unknown SNI name?)")
        }
        if Double(cert.notAfter) < now {
            problems.append("it expired on \(DoctorText.date(cert.notAfter)) (\(-daysLeft) days ago)")
            hints.append(
                "renew the edge's certificate — or this machine's clock is wrong (it says \(DoctorText.date(DoctorText.int(now))))"
            )
        } else if Double(cert.notBefore) > now {
            problems.append("it is not valid before \(DoctorText.date(cert.notBefore))")
            hints.append("this machine's clock may be behind (it says \(DoctorText.date(DoctorText.int(now))))")
        }
        if unknownIssuerCodes.contains(facts.chainCode) {
            problems.append(
                "it is signed by `\(cert.issuer)`, which this machine does not trust (\(facts.chainReason))")
            hints.append(
                target.caFile.map { "the CA file \($0) does not hold the issuer `\(cert.issuer)` (or its root)" }
                    ?? "pass the CA that signed it with --ca-file ca.pem (PEM)")
        } else if facts.chainCode != 0 && facts.chainCode != 10 && facts.chainCode != 9 {
            problems.append("the chain is rejected: \(facts.chainReason)")
            hints.append("fix the edge's certificate chain (`openssl s_client -showcerts` shows what it sends)")
        }
        if problems.isEmpty {
            problems.append(facts.verifyReason)
            hints.append(
                "`openssl s_client -connect \(target.hostPart):\(target.port) -servername \(target.host)` shows more")
        }
        details.append(DoctorDetail("problems", .array(problems.map(JSONValue.string))))
        return DoctorStep(
            layer: .tls, status: .fail, ms: ms,
            summary: "certificate rejected (\(facts.verifyReason)): " + problems.joined(separator: "; "),
            details: details, hint: hints.joined(separator: "; "))
    }
}
