import BirdWire

extension Diagnosis {
    /// Layer 8 or 9 with no endpoint configured.
    public static func notConfigured(_ layer: DoctorLayer) -> DoctorStep {
        layer == .signin
            ? .skipped(.signin, "no --member-auth-endpoint (sign-in not checked)")
            : .skipped(.auth, "no --auth-endpoint (private and presence channels not checked)")
    }

    // MARK: 8 auth

    /// Layer 8: the auth endpoint's answer, the signature, and the edge's verdict on it.
    public static func auth(_ check: AuthCheck, ms: Double, target: DoctorTarget) -> DoctorStep {
        let channel = check.channel ?? target.authChannel
        let identityKey = target.dialect.presenceDataKey
        let presence = ChannelKind(channelName: channel) == .presence
        var details = [DoctorDetail("channel", .string(channel))] + requestDetails(check, target: target)
        if let failed = httpFailure(.auth, check, ms: ms, target: target, details: &details) { return failed }
        guard case .response(_, _, let body) = check.http else { return httpFailureFallback(.auth, ms, details) }
        let answer = AuthAnswer.read(body: body, identityKey: identityKey)
        if let failed = answerFailure(.auth, answer, check, ms: ms, target: target, details: &details) { return failed }
        if presence && answer.identity == nil {
            return DoctorStep(
                layer: .auth, status: .fail, ms: ms,
                summary: "the answer for presence channel \(channel) has no \(identityKey)",
                details: details,
                hint:
                    "a presence auth answer carries {\"auth\", \"\(identityKey)\": \"{\\\"\(target.dialect.presenceIdKey)\\\":…}\"}"
            )
        }
        let string = AuthRequests.channelString(
            connectionId: check.connectionId, channel: channel, identity: answer.identity)
        let hmac = AuthRequests.check(
            auth: answer.auth ?? "", appKey: target.appKey, secret: target.knownSecret, string: string)
        details.append(DoctorDetail("hmac", .string(hmacText(hmac, target: target))))
        let signedWhat =
            presence
            ? "`<\(target.dialect.connectionIdKey)>:\(channel):<\(identityKey)>`"
            : "`<\(target.dialect.connectionIdKey)>:\(channel)`"
        let mismatchText = "the signature does not match HMAC-SHA256(secret, \(signedWhat)) for \(check.connectionId)"
        switch check.edge {
        case .message(.subscriptionSucceeded)?:
            return finish(
                .auth, ms: ms, check: check, target: target, details: details,
                summary: "HTTP \(statusText(check)) in \(DoctorText.duration(check.httpMs)); \(hmacShort(hmac)); "
                    + "\(channel): subscription_succeeded")
        case .message(.subscriptionError(_, let type, let message, let status))?:
            details += errorDetails(type: type, status: status, message: message)
            var summary =
                "the edge refused the signature (\(refusal(type: type, status: status, message: message))): "
                + "the auth endpoint signs with a different secret or for another connection id"
            if hmac == .mismatch { summary += "; \(mismatchText)" }
            return DoctorStep(
                layer: .auth, status: .fail, ms: ms, summary: summary, details: details,
                hint: "configure the backend with the secret of app key `\(target.appKey)` and sign \(signedWhat) "
                    + "with the \(target.dialect.connectionIdKey) it receives (server SDKs do: authorizeChannel)")
        case let reply?:
            if let ended = connectionEnded(.auth, reply, ms: ms, target: target, waitingFor: "subscribing \(channel)") {
                return ended
            }
            if case .message(.error(let code, let message, _)) = reply {
                return DoctorStep(
                    layer: .auth, status: .fail, ms: ms,
                    summary: "the edge answered the private subscription with an error"
                        + (code.map { " \($0)" } ?? "") + ": \(DoctorText.line(message))",
                    details: details, hint: "see the edge's message")
            }
            return DoctorStep(
                layer: .auth, status: .fail, ms: ms,
                summary: "no answer to the subscription of \(channel) within \(DoctorText.seconds(target.timeout))"
                    + (hmac == .mismatch ? "; \(mismatchText)" : ""),
                details: details, hint: "the edge ignores the subscription: is --dialect right?")
        case nil:
            return DoctorStep(
                layer: .auth, status: .fail, ms: ms, summary: "the signature was not tried on the edge",
                details: details,
                hint: "the connection ended before the subscription could be sent")
        }
    }

    // MARK: 9 signin

    /// Layer 9: the sign-in endpoint's answer and the edge's verdict.
    public static func signin(_ check: AuthCheck, ms: Double, target: DoctorTarget) -> DoctorStep {
        let dialect = target.dialect
        let identityKey = dialect.signinDataKey
        var details = requestDetails(check, target: target)
        if let failed = httpFailure(.signin, check, ms: ms, target: target, details: &details) { return failed }
        guard case .response(_, _, let body) = check.http else { return httpFailureFallback(.signin, ms, details) }
        let answer = AuthAnswer.read(body: body, identityKey: identityKey)
        if let failed = answerFailure(.signin, answer, check, ms: ms, target: target, details: &details) {
            return failed
        }
        guard let identity = answer.identity else {
            return DoctorStep(
                layer: .signin, status: .fail, ms: ms, summary: "the sign-in answer has no \(identityKey)",
                details: details,
                hint: "a sign-in answer carries {\"auth\", \"\(identityKey)\": \"{\\\"\(dialect.signinIdKey)\\\":…}\"}")
        }
        let memberId = JSONValue.fromPayload(identity).objectValue?[dialect.signinIdKey].flatMap {
            $0.stringValue ?? $0.description
        }
        if let memberId { details.append(DoctorDetail("member_id", .string(memberId))) }
        let string = Signature.signinString(connectionId: check.connectionId, memberData: identity, dialect: dialect)
        let hmac = AuthRequests.check(
            auth: answer.auth ?? "", appKey: target.appKey, secret: target.knownSecret, string: string)
        details.append(DoctorDetail("hmac", .string(hmacText(hmac, target: target))))
        let signedWhat = "`<\(dialect.connectionIdKey)>::\(dialect.signinTag)::<\(identityKey)>`"
        switch check.edge {
        case .message(.signinSuccess)?:
            return finish(
                .signin, ms: ms, check: check, target: target, details: details,
                summary: "HTTP \(statusText(check)) in \(DoctorText.duration(check.httpMs)); \(hmacShort(hmac)); "
                    + "signed in" + (memberId.map { " as \($0)" } ?? ""))
        case .message(.error(let code, let message, _))?:
            var summary =
                "the edge refused the sign-in" + (code.map { " (\($0))" } ?? "") + ": \(DoctorText.line(message))"
            if hmac == .mismatch { summary += "; the signature does not match HMAC-SHA256(secret, \(signedWhat))" }
            return DoctorStep(
                layer: .signin, status: .fail, ms: ms, summary: summary, details: details,
                hint: "the endpoint must sign \(signedWhat) with the secret of app key `\(target.appKey)`, for the "
                    + "\(dialect.connectionIdKey) it receives, and \(identityKey) must carry \(dialect.signinIdKey)")
        case let reply?:
            if let ended = connectionEnded(.signin, reply, ms: ms, target: target, waitingFor: "signing in") {
                return ended
            }
            return DoctorStep(
                layer: .signin, status: .fail, ms: ms,
                summary: "no \(dialect.eventPrefix)signin_success within \(DoctorText.seconds(target.timeout))",
                details: details, hint: "the edge does not answer sign-in: does it support user authentication?")
        case nil:
            return DoctorStep(
                layer: .signin, status: .fail, ms: ms, summary: "the sign-in was not tried on the edge",
                details: details,
                hint: "the connection ended before the sign-in could be sent")
        }
    }

    // MARK: Shared

    private static func requestDetails(_ check: AuthCheck, target: DoctorTarget) -> [DoctorDetail] {
        var details = [
            DoctorDetail("endpoint", .string(Redaction.diagnosticEndpoint(check.endpoint))),
            DoctorDetail("connection_id", .string(check.connectionId)),
        ]
        if !target.authHeaders.isEmpty {
            details.append(DoctorDetail("headers_sent", .array(target.authHeaders.map { .string($0.redacted) })))
        }
        return details
    }

    private static func statusText(_ check: AuthCheck) -> String {
        if case .response(let status, _, _) = check.http { return "\(status)" }
        return "?"
    }

    private static func hmacText(_ check: SignatureCheck, target: DoctorTarget) -> String {
        switch check {
        case .verified: return "verified with the known app secret"
        case .mismatch: return "does not match the known app secret"
        case .notChecked: return "not checked: the app secret is unknown here (the edge's verdict is the real check)"
        }
    }

    private static func hmacShort(_ check: SignatureCheck) -> String {
        switch check {
        case .verified: return "signature verified"
        case .mismatch: return "signature does not match"
        case .notChecked: return "signature well-formed"
        }
    }

    /// A pass, or a warning when the endpoint took more than half the step's time.
    private static func finish(
        _ layer: DoctorLayer, ms: Double, check: AuthCheck, target: DoctorTarget, details: [DoctorDetail],
        summary: String
    ) -> DoctorStep {
        let (s, atto) = target.timeout.components
        let limitMs = (Double(s) + Double(atto) / 1e18) * 1000
        if check.httpMs > limitMs / 2 {
            return DoctorStep(
                layer: layer, status: .warn, ms: ms, summary: summary, details: details,
                hint: "the endpoint took \(DoctorText.duration(check.httpMs)): a slow backend makes subscriptions "
                    + "time out (clients give up after 10 s)")
        }
        return DoctorStep(layer: layer, status: .pass, ms: ms, summary: summary, details: details)
    }

    private static func httpFailureFallback(_ layer: DoctorLayer, _ ms: Double, _ details: [DoctorDetail]) -> DoctorStep
    {
        DoctorStep(layer: layer, status: .fail, ms: ms, summary: "the auth endpoint gave no answer", details: details)
    }

    /// The failing step for an exchange that gave no usable 2xx answer; nil when it did.
    private static func httpFailure(
        _ layer: DoctorLayer, _ check: AuthCheck, ms: Double, target: DoctorTarget, details: inout [DoctorDetail]
    ) -> DoctorStep? {
        let what = layer == .signin ? "sign-in endpoint" : "auth endpoint"
        let otherDialect: Dialect = target.dialect == .bird ? .pusher : .bird
        let requestForm =
            target.dialect == .bird
            ? "JSON {\"connection_id\", \"channel_name\"}" : "a form socket_id=…&channel_name=…"
        switch check.http {
        case .timedOut:
            return DoctorStep(
                layer: layer, status: .fail, ms: ms,
                summary: "the \(what) did not answer within \(DoctorText.seconds(target.timeout))", details: details,
                hint: "a slow or stuck backend: clients give up on a subscription after 10 s; check the backend's logs")
        case .failed(let why):
            let lower = why.lowercased()
            var hint = "check the endpoint's URL and that the app's backend is running and reachable from here"
            if lower.contains("tls") || lower.contains("certificate") {
                hint = "the endpoint's TLS failed: pass its CA with --ca-file, or fix its certificate"
            } else if lower.contains("refused") {
                hint = "nothing listens at the endpoint's address: is the app's backend running?"
            } else if lower.contains("resolve") {
                hint = "the endpoint's host does not resolve: check the URL"
            }
            return DoctorStep(
                layer: layer, status: .fail, ms: ms, summary: "the \(what) is unreachable: \(why)", details: details,
                hint: hint)
        case .response(let status, let contentType, _):
            details.append(DoctorDetail("status", .number(JSONNumber(status))))
            details.append(DoctorDetail("http_ms", JSONValue(rounded(check.httpMs))))
            if let contentType {
                details.append(DoctorDetail("content_type", .string(DoctorText.line(contentType, limit: 80))))
            }
            guard !(200...299).contains(status) else { return nil }
            let summary = "the \(what) answered \(status)"
            let hint: String
            switch status {
            case 401, 403:
                if target.authHeaders.isEmpty {
                    hint =
                        "your session header is missing? pass --auth-header 'Authorization: Bearer …' (or the "
                        + "cookie your app uses)"
                } else {
                    let names = target.authHeaders.map(\.name).joined(separator: ", ")
                    hint =
                        "the endpoint refused the credentials in --auth-header (\(names)): expired, or for a user "
                        + "who may not join this channel? Try --channel with a channel your app allows"
                }
            case 404:
                hint = "no auth route at this URL: check its path (e.g. /pusher/auth, /broadcasting/auth)"
            case 405:
                hint = "the URL does not accept POST: is it the auth route?"
            case 419:
                hint =
                    "a CSRF check failed (Laravel answers 419): pass the session cookie and X-CSRF-TOKEN with --auth-header"
            case 400, 415, 422:
                hint =
                    "the endpoint did not understand the request: it got \(requestForm) (\(target.dialect) dialect); "
                    + "does it expect --dialect \(otherDialect)?"
            case 300...399:
                hint = "a redirect (to a login page?): pass the session header with --auth-header"
            case 500...599:
                hint =
                    "the app's backend failed: see its logs; the request carried channel_name and "
                    + "\(target.dialect.connectionIdKey)=\(check.connectionId)"
            default:
                hint = "the endpoint refused the request: see its logs"
            }
            return DoctorStep(layer: layer, status: .fail, ms: ms, summary: summary, details: details, hint: hint)
        }
    }

    /// The failing step for a 2xx answer that is unusable (not JSON, no or malformed auth,
    /// another app's key); nil when the auth can be sent.
    private static func answerFailure(
        _ layer: DoctorLayer, _ answer: AuthAnswer, _ check: AuthCheck, ms: Double, target: DoctorTarget,
        details: inout [DoctorDetail]
    ) -> DoctorStep? {
        let what = layer == .signin ? "sign-in endpoint" : "auth endpoint"
        var contentType = "a body"
        if case .response(_, let type?, _) = check.http {
            contentType = DoctorText.line(type.split(separator: ";").first.map(String.init) ?? type, limit: 60)
        }
        switch answer.shape {
        case .notJSON:
            return DoctorStep(
                layer: layer, status: .fail, ms: ms,
                summary: "the \(what) answered \(statusText(check)) with \(contentType), not JSON", details: details,
                hint: "a login or error page instead of {\"auth\": …}: pass your session header with --auth-header, "
                    + "and check the URL")
        case .notObject:
            return DoctorStep(
                layer: layer, status: .fail, ms: ms, summary: "the \(what) answered JSON that is not an object",
                details: details, hint: "the answer must be an object {\"auth\": \"<key>:<signature>\", …}")
        case .object:
            break
        }
        guard answer.auth != nil else {
            details.append(DoctorDetail("keys", .array(answer.keys.map(JSONValue.string))))
            return DoctorStep(
                layer: layer, status: .fail, ms: ms,
                summary: "the \(what)'s JSON has no \"auth\" (keys: \(answer.keys.joined(separator: ", ")))",
                details: details,
                hint: "the answer must be {\"auth\": \"<key>:<signature>\", …}: use the server SDK's "
                    + (layer == .signin ? "authenticateUser" : "authorizeChannel"))
        }
        details.append(DoctorDetail("auth", .string((answer.keyPart ?? "") + ":" + Redaction.placeholder)))
        guard answer.authWellFormed else {
            return DoctorStep(
                layer: layer, status: .fail, ms: ms, summary: "\"auth\" is not `<key>:<64 hex digits>`",
                details: details,
                hint: "the backend must answer \"auth\": \"APP_KEY:\" + hex HMAC-SHA256 of the signed string; "
                    + "use the server SDK rather than signing by hand")
        }
        if answer.keyPart != target.appKey {
            return DoctorStep(
                layer: layer, status: .fail, ms: ms,
                summary: "signed with app key `\(answer.keyPart ?? "")`, but the connection uses `\(target.appKey)`",
                details: details,
                hint: "the backend is configured with another app's credentials: give it the key and secret of the "
                    + "app the client connects to")
        }
        return nil
    }
}
