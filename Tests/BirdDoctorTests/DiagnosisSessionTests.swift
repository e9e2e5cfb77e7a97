import BirdDoctor
import BirdWire
import Testing

/// Layers 4–7 from facts.
@Suite struct DiagnosisSessionTests {
    let target = DoctorTarget(host: "edge.example", port: 443, tls: true, appKey: "k")

    @Test func aValidUpgradePasses() {
        let answer = UpgradeAnswer(
            statusLine: "HTTP/1.1 101 Switching Protocols", status: 101, upgradeWebSocket: true,
            connectionUpgrade: true,
            acceptPresent: true, acceptValid: true)
        let step = Diagnosis.upgrade(.answered(answer), ms: 1, target: target)
        #expect(step.status == .pass)
        #expect(step.summary == "HTTP/1.1 101 Switching Protocols")
    }

    @Test func aWebServerIsNotAnEdge() {
        let answer = UpgradeAnswer(
            statusLine: "HTTP/1.1 200 OK", status: 200,
            headers: [
                HeaderLine(name: "Content-Type", value: "text/html; charset=utf-8"),
                HeaderLine(name: "Set-Cookie", value: "sid=s3cr3t"),
            ],
            bodyPrefix: "<!doctype html><title>Shop</title>")
        let step = Diagnosis.upgrade(.answered(answer), ms: 1, target: target)
        #expect(step.status == .fail)
        #expect(
            step.summary == "the server answered HTTP 200 with text/html: a proxy or a web server, not a WebSocket edge"
        )
        #expect(step.hint?.contains("proxy") == true)
        // Only harmless headers are kept: a cookie never reaches the report.
        #expect(!step.details.contains { $0.value.description.contains("s3cr3t") })
    }

    @Test func aWrongAcceptValueFails() {
        let answer = UpgradeAnswer(
            statusLine: "HTTP/1.1 101 Switching Protocols", status: 101, upgradeWebSocket: true,
            connectionUpgrade: true,
            acceptPresent: true, acceptValid: false)
        let step = Diagnosis.upgrade(.answered(answer), ms: 1, target: target)
        #expect(step.status == .fail)
        #expect(step.summary == "101 with a wrong Sec-WebSocket-Accept")
    }

    @Test func redirectsAndGatewayErrorsSayWhatTheyAre() {
        let redirect = UpgradeAnswer(
            statusLine: "HTTP/1.1 301 Moved", status: 301,
            headers: [HeaderLine(name: "Location", value: "https://new.example/")])
        #expect(
            Diagnosis.upgrade(.answered(redirect), ms: 1, target: target).summary.contains(
                "redirect to https://new.example/"))
        let gateway = UpgradeAnswer(statusLine: "HTTP/1.1 502 Bad Gateway", status: 502)
        #expect(
            Diagnosis.upgrade(.answered(gateway), ms: 1, target: target).hint?.contains("down or overloaded") == true)
        var plain = target
        plain.tls = false
        let tlsBytes = Diagnosis.upgrade(
            .failed("the server answered with TLS records, not HTTP (the port expects TLS)"), ms: 1, target: plain)
        #expect(tlsBytes.hint?.contains("drop --insecure") == true)
    }

    @Test func theHandshakeGivesTheConnectionId() {
        let step = Diagnosis.handshake(
            .message(.established(connectionId: "1.2", activityTimeout: 120)), ms: 1, target: target)
        #expect(step.status == .pass)
        #expect(step.summary == "connection 1.2, activity timeout 120 s")
    }

    @Test func closeCode4001NamesTheKey() {
        let step = Diagnosis.handshake(.closed(code: 4001, reason: "app does not exist"), ms: 1, target: target)
        #expect(step.status == .fail)
        #expect(step.summary.contains("app key `k` does not exist on this edge"))
        #expect(step.hint?.contains("--app-key") == true)
        #expect(step.detail("close_code") == 4001)
    }

    @Test(arguments: [4000, 4003, 4004, 4005, 4006, 4007, 4008, 4009, 4042])
    func everyRefusalCodeHasItsMeaning(code: Int) {
        let step = Diagnosis.handshake(.closed(code: code, reason: ""), ms: 1, target: target)
        #expect(step.status == .fail)
        #expect(step.detail("close_meaning") == .string(CloseCode.meaning(code)))
        #expect(step.hint?.isEmpty == false)
    }

    @Test func aPusherEdgeAsksForThePusherDialect() {
        let step = Diagnosis.handshake(.message(.otherDialect(.pusher)), ms: 1, target: target)
        #expect(step.status == .fail)
        #expect(step.hint == "pass --dialect pusher")
    }

    @Test func silenceAndMissingIdsFail() {
        let silent = Diagnosis.handshake(.timedOut, ms: 5000, target: target)
        #expect(silent.summary == "no bird:connection_established within 5 s")
        let noId = Diagnosis.handshake(
            .message(.established(connectionId: nil, activityTimeout: 120)), ms: 1, target: target)
        #expect(noId.status == .fail)
        #expect(noId.summary.contains("connection_id"))
    }

    @Test func pingNeedsAPong() {
        #expect(Diagnosis.ping(.message(.pong), ms: 0.5, target: target).status == .pass)
        let silent = Diagnosis.ping(.timedOut, ms: 5000, target: target)
        #expect(silent.status == .fail)
        #expect(silent.hint?.contains("4201") == true)
    }

    @Test func aRefusedPublicSubscriptionFails() {
        let refused = Diagnosis.subscribe(
            .message(
                .subscriptionError(
                    channel: "doctor", type: "InvalidChannel", message: "invalid channel name", status: 400)),
            ms: 1, target: target)
        #expect(refused.status == .fail)
        #expect(refused.summary == "the edge refused doctor: InvalidChannel 400 invalid channel name")
        #expect(
            Diagnosis.subscribe(.message(.subscriptionSucceeded(channel: "doctor")), ms: 1, target: target).status
                == .pass)
        let closed = Diagnosis.subscribe(.closed(code: 4200, reason: "edge restarting"), ms: 1, target: target)
        #expect(closed.summary.contains("4200"))
    }
}
