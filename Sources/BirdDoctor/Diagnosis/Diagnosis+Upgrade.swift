import BirdWire

extension Diagnosis {
    /// Response headers worth showing (never cookies or other secrets).
    static let shownHeaders = ["Server", "Content-Type", "Location", "Via", "Upgrade", "Connection"]

    /// Layer 4.
    public static func upgrade(_ outcome: UpgradeOutcome, ms: Double, target: DoctorTarget) -> DoctorStep {
        let plainHint = target.tls ? "" : " — or the port expects TLS (drop --insecure)"
        switch outcome {
        case .timedOut:
            return DoctorStep(
                layer: .upgrade, status: .fail, ms: ms,
                summary: "no answer to the upgrade request within \(DoctorText.seconds(target.timeout))",
                hint: "a proxy holding the request, or a server that does not speak HTTP" + plainHint)
        case .closed:
            return DoctorStep(
                layer: .upgrade, status: .fail, ms: ms, summary: "the server closed the connection without answering",
                hint: "a proxy or firewall rejecting WebSocket upgrades" + plainHint)
        case .failed(let why):
            let tlsBytes = why.contains("TLS")
            return DoctorStep(
                layer: .upgrade, status: .fail, ms: ms, summary: why,
                hint: tlsBytes && !target.tls
                    ? "the port expects TLS: drop --insecure (and use wss://, normally port 443)"
                    : "something that is not an HTTP server listens on \(target.hostPart):\(target.port)")
        case .answered(let answer):
            return upgradeAnswered(answer, ms: ms, target: target)
        }
    }

    private static func upgradeAnswered(_ answer: UpgradeAnswer, ms: Double, target: DoctorTarget) -> DoctorStep {
        var details = [DoctorDetail("status_line", .string(DoctorText.line(answer.statusLine)))]
        for name in shownHeaders {
            if let value = answer.header(name) {
                details.append(
                    DoctorDetail(
                        name.lowercased().replacingOccurrences(of: "-", with: "_"), .string(DoctorText.line(value))))
            }
        }
        if answer.status == 101 {
            details.append(DoctorDetail("accept_valid", .bool(answer.acceptValid)))
            var problems: [String] = []
            if !answer.upgradeWebSocket { problems.append("no `Upgrade: websocket`") }
            if !answer.connectionUpgrade { problems.append("no `Connection: Upgrade`") }
            if !answer.acceptPresent {
                problems.append("no Sec-WebSocket-Accept")
            } else if !answer.acceptValid {
                problems.append("a wrong Sec-WebSocket-Accept")
            }
            if let ext = answer.header("Sec-WebSocket-Extensions"), !ext.isEmpty {
                problems.append("an extension nobody asked for (\(DoctorText.line(ext, limit: 60)))")
            }
            if problems.isEmpty {
                return DoctorStep(
                    layer: .upgrade, status: .pass, ms: ms, summary: DoctorText.line(answer.statusLine),
                    details: details)
            }
            return DoctorStep(
                layer: .upgrade, status: .fail, ms: ms, summary: "101 with " + problems.joined(separator: ", "),
                details: details,
                hint: "the answer is not a valid RFC 6455 upgrade: a proxy rewriting the handshake, or a server that "
                    + "is not a WebSocket server; try without the proxy, or report it to the edge's operator")
        }
        let status = answer.status
        let type = answer.header("Content-Type").map {
            DoctorText.line($0.split(separator: ";").first.map(String.init) ?? $0, limit: 60)
        }
        let with = type.map { " with \($0)" } ?? ""
        if !answer.bodyPrefix.isEmpty {
            details.append(DoctorDetail("body_starts", .string(DoctorText.line(answer.bodyPrefix, limit: 120))))
        }
        var summary = "the server answered HTTP \(status)\(with)"
        let hint: String
        switch status {
        case 200...299:
            summary += ": a proxy or a web server, not a WebSocket edge"
            hint =
                "check that --host and --port point at the edge, not a web site; a proxy in between must pass "
                + "WebSocket upgrades (nginx: proxy_http_version 1.1, proxy_set_header Upgrade/Connection)"
        case 300...399:
            let location = answer.header("Location").map { DoctorText.line($0, limit: 120) } ?? "nowhere"
            summary += ": a redirect to \(location)"
            hint = "clients do not follow redirects on upgrades: connect to the host of the Location directly (--host)"
        case 400:
            summary += ": the upgrade request was rejected"
            hint = "not a WebSocket endpoint at /app/<key>, or a proxy stripped the Upgrade and Connection headers"
        case 401, 403, 407:
            summary += ": the upgrade was refused"
            hint = "an allow-list (origin or address) or a proxy that wants credentials stands in front of the edge"
        case 404:
            summary += ": no WebSocket endpoint at /app/\(target.appKey)"
            hint = "not a Pusher-protocol edge at this host and port, or it needs a path prefix"
        case 426:
            summary += ": the server wants another protocol version"
            hint = "the server does not accept WebSocket version 13 here"
        case 429:
            summary += ": rate-limited"
            hint = "too many connections from this address: wait and run the doctor again"
        case 500...599:
            summary += ": a proxy or load balancer could not reach the edge"
            hint = "the edge behind it is down or overloaded (\(status)); check its status page"
        default:
            hint = "the server is not a WebSocket edge at this path"
        }
        return DoctorStep(layer: .upgrade, status: .fail, ms: ms, summary: summary, details: details, hint: hint)
    }
}
