import BirdDoctor
import BirdWire
import Testing

/// Layers 8–9 from facts: the endpoint's answer, the signature, the edge's verdict.
@Suite struct DiagnosisAuthTests {
    let connectionId = "123.456"
    let endpoint = "https://app.example/pusher/auth?token=s3cr3t-token"

    private func target(secret: String? = nil, headers: [HeaderLine] = [], dialect: Dialect = .bird) -> DoctorTarget {
        DoctorTarget(
            host: "edge.example", port: 443, tls: true, appKey: "app-key", dialect: dialect, authEndpoint: endpoint,
            authHeaders: headers, knownSecret: secret)
    }

    private func signed(_ secret: String, channel: String = "private-doctor") -> String {
        Signature.auth(appKey: "app-key", secret: secret, string: "\(connectionId):\(channel)")
    }

    private func check(status: Int = 200, type: String = "application/json", body: String, edge: EdgeReply? = nil)
        -> AuthCheck
    {
        AuthCheck(
            endpoint: endpoint, channel: "private-doctor", connectionId: connectionId,
            http: .response(status: status, contentType: type, body: Array(body.utf8)), httpMs: 12, edge: edge)
    }

    @Test func a403WithoutHeadersAsksForTheSessionHeader() {
        let step = Diagnosis.auth(check(status: 403, body: "{\"error\":\"forbidden\"}"), ms: 13, target: target())
        #expect(step.status == .fail)
        #expect(step.summary == "the auth endpoint answered 403")
        #expect(
            step.hint?.contains("your session header is missing? pass --auth-header 'Authorization: Bearer …'") == true)
    }

    @Test func a403WithHeadersNamesThemButNeverShowsValues() {
        let t = target(headers: [HeaderLine(name: "Authorization", value: "Bearer s3cr3t-bearer")])
        let step = Diagnosis.auth(check(status: 403, body: "{}"), ms: 13, target: t)
        #expect(step.hint?.contains("--auth-header (Authorization)") == true)
        #expect(step.detail("headers_sent") == ["Authorization: Bearer <redacted>"])
        let text = HumanReport.render(DoctorReport(target: t, steps: [step], totalMs: 13), color: false)
        #expect(!text.contains("s3cr3t"))
    }

    @Test func serverErrorsAndTimeoutsSayWhereToLook() {
        #expect(
            Diagnosis.auth(check(status: 500, body: "oops"), ms: 1, target: target()).hint?.contains("logs") == true)
        let slow = AuthCheck(
            endpoint: endpoint, channel: "private-doctor", connectionId: connectionId, http: .timedOut, httpMs: 5000)
        let step = Diagnosis.auth(slow, ms: 5000, target: target())
        #expect(step.summary == "the auth endpoint did not answer within 5 s")
        let down = AuthCheck(
            endpoint: endpoint, channel: "private-doctor", connectionId: connectionId,
            http: .failed("connection refused by app.example:443"), httpMs: 1)
        #expect(Diagnosis.auth(down, ms: 1, target: target()).hint?.contains("is the app's backend running") == true)
    }

    @Test func aLoginPageIsNotJSON() {
        let step = Diagnosis.auth(
            check(type: "text/html; charset=utf-8", body: "<html>Sign in</html>"), ms: 1, target: target())
        #expect(step.status == .fail)
        #expect(step.summary == "the auth endpoint answered 200 with text/html, not JSON")
    }

    @Test func theAnswersShapeIsChecked() {
        let noAuth = Diagnosis.auth(check(body: "{\"token\":\"x\"}"), ms: 1, target: target())
        #expect(noAuth.summary.contains("has no \"auth\" (keys: token)"))
        let malformed = Diagnosis.auth(check(body: "{\"auth\":\"app-key:not-hex\"}"), ms: 1, target: target())
        #expect(malformed.summary == "\"auth\" is not `<key>:<64 hex digits>`")
        let otherKey = Diagnosis.auth(
            check(body: "{\"auth\":\"\(signed("x").replacingOccurrences(of: "app-key", with: "other-key"))\"}"), ms: 1,
            target: target())
        #expect(otherKey.summary == "signed with app key `other-key`, but the connection uses `app-key`")
    }

    @Test func theEdgesRefusalIsTheRealCheck() {
        let body = "{\"auth\":\"\(signed("wrong-secret"))\"}"
        let refusal = EdgeReply.message(
            .subscriptionError(channel: "private-doctor", type: "AuthError", message: "invalid signature", status: 401))
        let unknownSecret = Diagnosis.auth(check(body: body, edge: refusal), ms: 1, target: target())
        #expect(unknownSecret.status == .fail)
        #expect(
            unknownSecret.summary.contains(
                "the edge refused the signature (AuthError 401 invalid signature): the auth endpoint signs with a different secret or for another connection id"
            ))
        #expect(unknownSecret.detail("hmac")?.stringValue?.hasPrefix("not checked") == true)
        let knownSecret = Diagnosis.auth(
            check(body: body, edge: refusal), ms: 1, target: target(secret: "right-secret"))
        #expect(
            knownSecret.summary.contains(
                "the signature does not match HMAC-SHA256(secret, `<connection_id>:private-doctor`)"))
    }

    @Test func aVerifiedSignatureThatTheEdgeAcceptsPasses() {
        let body = "{\"auth\":\"\(signed("right-secret"))\"}"
        let step = Diagnosis.auth(
            check(body: body, edge: .message(.subscriptionSucceeded(channel: "private-doctor"))), ms: 13,
            target: target(secret: "right-secret"))
        #expect(step.status == .pass)
        #expect(step.summary == "HTTP 200 in 12 ms; signature verified; private-doctor: subscription_succeeded")
        #expect(step.detail("auth") == "app-key:<redacted>")
        #expect(step.detail("endpoint") == "https://app.example/pusher/auth?token=<redacted>")
    }

    @Test func signInNeedsTheIdentityAndTheEdgesYes() {
        let identity = "{\"member_id\":\"ann\"}"
        let auth = Signature.auth(
            appKey: "app-key", secret: "right-secret",
            string: Signature.signinString(connectionId: connectionId, memberData: identity, dialect: .bird))
        let body = JSONValue.object(["auth": .string(auth), "member_data": .string(identity)]).description
        let ok = AuthCheck(
            endpoint: endpoint, channel: nil, connectionId: connectionId,
            http: .response(status: 200, contentType: "application/json", body: Array(body.utf8)), httpMs: 2,
            edge: .message(.signinSuccess(memberData: identity)))
        let passed = Diagnosis.signin(ok, ms: 3, target: target(secret: "right-secret"))
        #expect(passed.status == .pass)
        #expect(passed.summary.hasSuffix("signed in as ann"))
        var refused = ok
        refused.edge = .message(.error(code: 4009, message: "sign-in failed: invalid signature", channel: nil))
        let failed = Diagnosis.signin(refused, ms: 3, target: target())
        #expect(failed.status == .fail)
        #expect(failed.summary == "the edge refused the sign-in (4009): sign-in failed: invalid signature")
        var noIdentity = ok
        noIdentity.http = .response(
            status: 200, contentType: "application/json", body: Array("{\"auth\":\"\(auth)\"}".utf8))
        #expect(
            Diagnosis.signin(noIdentity, ms: 1, target: target()).summary == "the sign-in answer has no member_data")
    }

    @Test func unconfiguredEndpointsAreSkippedNotFailed() {
        #expect(Diagnosis.notConfigured(.auth).status == .skipped)
        #expect(Diagnosis.notConfigured(.signin).summary == "skipped: no --member-auth-endpoint (sign-in not checked)")
    }
}
