import BirdWire

/// Turns what the runner found at each layer into a step: verdict, summary, details and a
/// concrete hint. Pure: the same facts give the same step (time is passed in).
public enum Diagnosis {
    /// The steps after the first blocking failure: every remaining layer skipped with the reason.
    public static func skipRest(after layer: DoctorLayer, reason: String) -> [DoctorStep] {
        DoctorLayer.allCases.filter { $0 > layer }.map { DoctorStep.skipped($0, reason) }
    }

    /// "TCP failed", "the protocol handshake failed".
    public static func failedReason(_ layer: DoctorLayer) -> String { "\(layer.title) failed" }

    // MARK: Close and error codes

    /// What a close or error code means here, and what to do about it.
    static func codeAdvice(_ code: Int, target: DoctorTarget) -> (verdict: String, hint: String) {
        let meaning = CloseCode.meaning(code)
        switch code {
        case 4000:
            return (
                "the app accepts only TLS connections",
                "connect with TLS: drop --insecure (and use the edge's TLS port, normally 443)"
            )
        case 4001:
            let hint =
                target.note != nil
                ? "the embedded sandbox serves only its own app: drop --app-key"
                : "check --app-key (copy it from the app's keys page) and that "
                    + (target.region.map { "--region \($0)" } ?? "--host") + " is the app's cluster: "
                    + "a key exists in one cluster only"
            return ("app key `\(target.appKey)` does not exist on this edge", hint)
        case 4003:
            return ("the app is disabled", "enable the app in its dashboard (or ask the edge's operator)")
        case 4004:
            return (
                "the app is over its connection quota",
                "close other connections or raise the plan's limit; clients retry after a backoff"
            )
        case 4005:
            return (
                "the edge has no such path",
                "the edge expects /app/<key>: is it a Pusher-protocol edge, or does it need a path prefix?"
            )
        case 4006, 4007, 4008:
            return (
                "the edge does not accept this protocol version (\(meaning))",
                "the edge does not speak protocol 7 (the doctor sends protocol=7): upgrade the edge"
            )
        case 4009:
            return (
                "unauthorized (\(meaning))",
                "the edge requires sign-in within a few seconds, or terminated this member: "
                    + "configure --member-auth-endpoint"
            )
        case 4100...4199:
            return ("the edge is over capacity (\(meaning))", "retry later; clients back off and retry by themselves")
        case 4200...4299:
            return (
                "the edge asks clients to reconnect (\(meaning))",
                "the edge is restarting or shedding connections: run the doctor again in a few seconds"
            )
        case 4000...4099:
            return (
                "the edge refused the connection (\(meaning))",
                "the edge refuses this connection for good (\(code)): check the app's settings with its operator"
            )
        case 1000...1015:
            return (
                "closed with \(code) (\(meaning))",
                "the edge (or a proxy) closed the connection: check the edge's status and any proxy in between"
            )
        default:
            return ("closed with \(code) (\(meaning))", "see the edge's documentation for close code \(code)")
        }
    }

    /// A close as a failing step of `layer`.
    static func closedStep(
        _ layer: DoctorLayer, code: Int, reason: String, ms: Double, target: DoctorTarget, waitingFor: String
    ) -> DoctorStep {
        let advice = codeAdvice(code, target: target)
        var details = [
            DoctorDetail("close_code", .number(JSONNumber(code))),
            DoctorDetail("close_meaning", .string(CloseCode.meaning(code))),
        ]
        if !reason.isEmpty && reason != CloseCode.meaning(code) {
            details.append(DoctorDetail("close_reason", .string(DoctorText.line(reason))))
        }
        return DoctorStep(
            layer: layer, status: .fail, ms: ms,
            summary: "the edge closed the connection with \(code) while \(waitingFor): \(advice.verdict)",
            details: details, hint: advice.hint)
    }

    /// A failing step for the replies every waiting layer treats alike (close, drop, violation).
    static func connectionEnded(
        _ layer: DoctorLayer, _ reply: EdgeReply, ms: Double, target: DoctorTarget, waitingFor: String
    ) -> DoctorStep? {
        switch reply {
        case .closed(let code, let reason):
            return closedStep(layer, code: code, reason: reason, ms: ms, target: target, waitingFor: waitingFor)
        case .lost(let why):
            return DoctorStep(
                layer: layer, status: .fail, ms: ms,
                summary: "the connection dropped while \(waitingFor): \(why)",
                hint: "the edge or a proxy dropped the connection without a close frame: check the edge's logs "
                    + "and any proxy's idle and WebSocket settings")
        case .protocolError(let why):
            return DoctorStep(
                layer: layer, status: .fail, ms: ms, summary: "the edge broke the WebSocket protocol: \(why)",
                hint: "a proxy rewriting frames, or a faulty edge: report it to the edge's operator")
        case .message, .timedOut:
            return nil
        }
    }
}
