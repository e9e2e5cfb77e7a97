import BirdWire

extension Diagnosis {
    // MARK: 5 handshake

    /// Layer 5: the first thing the edge said after the upgrade.
    public static func handshake(_ reply: EdgeReply, ms: Double, target: DoctorTarget) -> DoctorStep {
        if let ended = connectionEnded(
            .handshake, reply, ms: ms, target: target, waitingFor: "waiting for the handshake")
        {
            return ended
        }
        let prefix = target.dialect.eventPrefix
        switch reply {
        case .timedOut:
            return DoctorStep(
                layer: .handshake, status: .fail, ms: ms,
                summary: "no \(prefix)connection_established within \(DoctorText.seconds(target.timeout))",
                hint: "the server accepted the WebSocket but says nothing: not a Pusher-protocol edge, or a proxy "
                    + "buffering the stream")
        case .message(.established(let id?, let activity)):
            var details = [DoctorDetail("connection_id", .string(id))]
            var summary = "connection \(id)"
            if let activity {
                details.append(DoctorDetail("activity_timeout_s", .number(JSONNumber(activity))))
                summary += ", activity timeout \(activity) s"
            }
            return DoctorStep(layer: .handshake, status: .pass, ms: ms, summary: summary, details: details)
        case .message(.established(nil, _)):
            return DoctorStep(
                layer: .handshake, status: .fail, ms: ms,
                summary: "the handshake carries no valid \(target.dialect.connectionIdKey)",
                hint: "the edge's connection_established must carry \(target.dialect.connectionIdKey) like 123.456; "
                    + "clients treat it as an error and reconnect: report it to the edge's operator")
        case .message(.otherDialect(let other)):
            return DoctorStep(
                layer: .handshake, status: .fail, ms: ms,
                summary: "the edge speaks the \(other) dialect (\(other.eventPrefix)connection_established)",
                hint: "pass --dialect \(other)")
        case .message(.error(let code, let message, _)):
            let advice = code.map { codeAdvice($0, target: target) }
            var details = [DoctorDetail("error", .string(DoctorText.line(message)))]
            if let code { details.append(DoctorDetail("code", .number(JSONNumber(code)))) }
            return DoctorStep(
                layer: .handshake, status: .fail, ms: ms,
                summary: "the edge answered with an error" + (code.map { " \($0)" } ?? "") + ": "
                    + (advice?.verdict ?? DoctorText.line(message)),
                details: details, hint: advice?.hint ?? "see the edge's error message above")
        case .message(.notProtocol(let why)):
            return DoctorStep(
                layer: .handshake, status: .fail, ms: ms,
                summary: "the first message is not a protocol message: \(why)",
                hint: "the server is a WebSocket server but not a Pusher-protocol edge")
        case .message(let other):
            return DoctorStep(
                layer: .handshake, status: .fail, ms: ms,
                summary: "the first message is not the handshake (\(describe(other)))",
                hint: "a Pusher-protocol edge sends \(prefix)connection_established first: is this one?")
        case .closed, .lost, .protocolError:
            return DoctorStep(layer: .handshake, status: .fail, ms: ms, summary: "the connection ended")
        }
    }

    // MARK: 6 ping

    /// Layer 6: the answer to the dialect's ping.
    public static func ping(_ reply: EdgeReply, ms: Double, target: DoctorTarget) -> DoctorStep {
        if let ended = connectionEnded(.ping, reply, ms: ms, target: target, waitingFor: "waiting for the pong") {
            return ended
        }
        switch reply {
        case .message(.pong):
            return DoctorStep(
                layer: .ping, status: .pass, ms: ms,
                summary: "\(target.dialect.eventPrefix)pong in \(DoctorText.duration(ms))",
                details: [DoctorDetail("rtt_ms", JSONValue(rounded(ms)))])
        case .message(.error(let code, let message, _)):
            return DoctorStep(
                layer: .ping, status: .fail, ms: ms,
                summary: "the edge answered the ping with an error" + (code.map { " \($0)" } ?? "")
                    + ": \(DoctorText.line(message))",
                hint: "the edge does not accept \(target.dialect.eventPrefix)ping: is --dialect right?")
        default:
            return DoctorStep(
                layer: .ping, status: .fail, ms: ms,
                summary: "no \(target.dialect.eventPrefix)pong within \(DoctorText.seconds(target.timeout))",
                hint: "the edge does not answer protocol pings, or a proxy buffers frames: clients would close with "
                    + "4201 after their pong timeout and reconnect")
        }
    }

    // MARK: 7 subscribe

    /// Layer 7: the public subscription.
    public static func subscribe(_ reply: EdgeReply, ms: Double, target: DoctorTarget) -> DoctorStep {
        let channel = target.publicChannel
        if let ended = connectionEnded(.subscribe, reply, ms: ms, target: target, waitingFor: "subscribing \(channel)")
        {
            return ended
        }
        let details = [DoctorDetail("channel", .string(channel))]
        switch reply {
        case .message(.subscriptionSucceeded):
            return DoctorStep(
                layer: .subscribe, status: .pass, ms: ms, summary: "\(channel): subscription_succeeded",
                details: details)
        case .message(.subscriptionError(_, let type, let message, let status)):
            return DoctorStep(
                layer: .subscribe, status: .fail, ms: ms,
                summary: "the edge refused \(channel): " + refusal(type: type, status: status, message: message),
                details: details + errorDetails(type: type, status: status, message: message),
                hint: type == "LimitReached"
                    ? "a limit of the app was reached (subscriptions, channel members): see the message"
                    : "the edge refuses public subscriptions to this name: try another one with --channel NAME")
        case .message(.error(let code, let message, _)):
            let advice = code.map { codeAdvice($0, target: target) }
            return DoctorStep(
                layer: .subscribe, status: .fail, ms: ms,
                summary: "the edge answered with an error" + (code.map { " \($0)" } ?? "")
                    + ": \(DoctorText.line(message))",
                details: details,
                hint: advice?.hint ?? "see the edge's message; try another channel with --channel NAME")
        default:
            return DoctorStep(
                layer: .subscribe, status: .fail, ms: ms,
                summary: "no subscription_succeeded for \(channel) within \(DoctorText.seconds(target.timeout))",
                details: details,
                hint: "the edge ignores the subscription: is --dialect right? Clients report a Timeout "
                    + "subscription_error after 10 s and retry on the next connection")
        }
    }

    static func refusal(type: String?, status: Int?, message: String) -> String {
        var parts: [String] = []
        if let type { parts.append(type) }
        if let status { parts.append("\(status)") }
        let head = parts.joined(separator: " ")
        let text = DoctorText.line(message)
        return head.isEmpty ? text : (text.isEmpty ? head : "\(head) \(text)")
    }

    static func errorDetails(type: String?, status: Int?, message: String) -> [DoctorDetail] {
        var out: [DoctorDetail] = []
        if let type { out.append(DoctorDetail("error_type", .string(type))) }
        if let status { out.append(DoctorDetail("error_status", .number(JSONNumber(status)))) }
        if !message.isEmpty { out.append(DoctorDetail("error", .string(DoctorText.line(message)))) }
        return out
    }

    static func describe(_ message: EdgeMessage) -> String {
        switch message {
        case .established: return "connection_established"
        case .otherDialect(let d): return "a \(d) dialect message"
        case .error(let code, let text, _):
            return "error \(code.map(String.init) ?? "") \(DoctorText.line(text, limit: 60))"
        case .pong: return "pong"
        case .ping: return "ping"
        case .subscriptionSucceeded(let ch): return "subscription_succeeded for \(ch)"
        case .subscriptionError(let ch, _, _, _): return "subscription_error for \(ch)"
        case .signinSuccess: return "signin_success"
        case .other(let event, _): return "event \(DoctorText.line(event, limit: 60))"
        case .notProtocol(let why): return why
        }
    }
}
