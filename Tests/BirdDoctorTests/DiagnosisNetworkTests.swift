import BirdDoctor
import BirdWire
import Testing

/// Layers 1–3 from facts: verdicts and hints without sockets.
@Suite struct DiagnosisNetworkTests {
    let target = DoctorTarget(host: "b.example", port: 443, tls: true, appKey: "k", region: nil)
    /// 2026-01-01T00:00:00Z.
    let now = 1_767_225_600.0

    @Test func resolvedAddressesPass() {
        let step = Diagnosis.resolve(.resolved(["127.0.0.1:443", "[::1]:443"]), ms: 1, target: target)
        #expect(step.status == .pass)
        #expect(step.summary == "b.example → 127.0.0.1, ::1")
        #expect(step.detail("addresses") == ["127.0.0.1", "::1"])
    }

    @Test func unresolvableNamePointsAtTheHostOrRegion() {
        let step = Diagnosis.resolve(.failed("Name or service not known"), ms: 1, target: target)
        #expect(step.status == .fail)
        #expect(step.summary.contains("cannot resolve b.example"))
        #expect(step.hint?.contains("--host") == true)
        var regional = target
        regional.region = "eu1"
        #expect(Diagnosis.resolve(.failed("x"), ms: 1, target: regional).hint?.contains("--region eu1") == true)
        #expect(Diagnosis.resolve(.timedOut, ms: 1, target: target).hint?.contains("DNS server") == true)
    }

    @Test func everyAddressRefusedMeansNothingListens() {
        let attempts = [
            ConnectAttempt(address: "[::1]:443", outcome: .refused, ms: 0.1),
            ConnectAttempt(address: "127.0.0.1:443", outcome: .refused, ms: 0.1),
        ]
        let step = Diagnosis.connect(attempts, ms: 1, target: target)
        #expect(step.status == .fail)
        #expect(step.summary == "no address answered: [::1]:443 refused, 127.0.0.1:443 refused")
        #expect(step.hint?.contains("nothing listens on b.example:443") == true)
    }

    @Test func droppedPacketsPointAtAFirewall() {
        let step = Diagnosis.connect(
            [ConnectAttempt(address: "10.0.0.1:443", outcome: .timedOut, ms: 5000)], ms: 5000, target: target)
        #expect(step.status == .fail)
        #expect(step.hint?.contains("firewall") == true)
        let unreachable = Diagnosis.connect(
            [ConnectAttempt(address: "[2001:db8::1]:443", outcome: .unreachable("Network is unreachable"), ms: 1)],
            ms: 1,
            target: target)
        #expect(unreachable.hint?.contains("IPv6") == true)
    }

    @Test func aLaterAddressThatAnswersPasses() {
        let attempts = [
            ConnectAttempt(address: "[::1]:443", outcome: .refused, ms: 0.1),
            ConnectAttempt(address: "127.0.0.1:443", outcome: .connected, ms: 0.2),
        ]
        let step = Diagnosis.connect(attempts, ms: 1, target: target)
        #expect(step.status == .pass)
        #expect(step.summary == "connected to 127.0.0.1:443 (after [::1]:443 refused)")
    }

    private func certificate(names: [String] = ["b.example"], notBefore: Double? = nil, notAfter: Double? = nil)
        -> CertificateFacts
    {
        CertificateFacts(
            subject: "CN=\(names.first ?? "")", issuer: "CN=Example CA", dnsNames: names,
            notBefore: Int(notBefore ?? now - 86_400 * 30), notAfter: Int(notAfter ?? now + 86_400 * 60))
    }

    private func tls(
        _ cert: CertificateFacts, verify: (Int, String) = (0, "ok"), chain: (Int, String) = (0, "ok"),
        hostMatches: Bool = true, target: DoctorTarget? = nil
    ) -> DoctorStep {
        let facts = TLSFacts(
            certificate: cert, chainSubjects: [cert.subject], verifyCode: verify.0, verifyReason: verify.1,
            chainCode: chain.0, chainReason: chain.1, hostMatches: hostMatches)
        return Diagnosis.tls(.completed(facts), ms: 3, target: target ?? self.target, now: now)
    }

    @Test func aGoodCertificatePassesWithItsFacts() {
        let step = tls(certificate())
        #expect(step.status == .pass)
        #expect(step.summary.contains("certificate for `b.example`"))
        #expect(step.detail("days_left") == 60)
        #expect(step.detail("not_after") == "2026-03-02T00:00:00Z")
        #expect(step.detail("issuer") == "CN=Example CA")
    }

    @Test func aCertificateAboutToExpireWarns() {
        let step = tls(certificate(notAfter: now + 86_400 * 3))
        #expect(step.status == .warn)
        #expect(step.hint?.contains("expires in 3 days") == true)
    }

    @Test func aWrongHostNamesBothNames() {
        let step = tls(certificate(names: ["a.example"]), verify: (62, "hostname mismatch"), hostMatches: false)
        #expect(step.status == .fail)
        #expect(step.summary.contains("the certificate is for `a.example`, not `b.example`"))
        #expect(step.hint?.contains("--host") == true)
    }

    @Test func anExpiredCertificateSaysWhen() {
        let step = tls(
            certificate(notBefore: now - 86_400 * 400, notAfter: now - 86_400 * 10),
            verify: (10, "certificate has expired"),
            chain: (10, "certificate has expired"))
        #expect(step.status == .fail)
        #expect(step.summary.contains("expired on 2025-12-22T00:00:00Z (10 days ago)"))
        #expect(step.hint?.contains("renew") == true)
        #expect(step.hint?.contains("clock") == true)
    }

    @Test func aClockThatIsNotANumberDoesNotTrap() {
        let facts = TLSFacts(
            certificate: certificate(), verifyCode: 10, verifyReason: "certificate has expired", chainCode: 10,
            chainReason: "certificate has expired", hostMatches: true)
        for now in [Double.nan, .infinity, -.infinity, 1e300] {
            #expect(Diagnosis.tls(.completed(facts), ms: 1, target: target, now: now).status == .fail)
        }
    }

    @Test func anUnknownCAPointsAtCAFile() {
        let unknown = tls(
            certificate(), verify: (20, "unable to get local issuer certificate"),
            chain: (20, "unable to get local issuer certificate"))
        #expect(unknown.status == .fail)
        #expect(unknown.summary.contains("signed by `CN=Example CA`, which this machine does not trust"))
        #expect(unknown.hint?.contains("--ca-file") == true)
        var withFile = target
        withFile.caFile = "/etc/ours.pem"
        let stillUnknown = tls(
            certificate(), verify: (20, "unable to get local issuer certificate"),
            chain: (20, "unable to get local issuer certificate"), target: withFile)
        #expect(stillUnknown.hint?.contains("the CA file /etc/ours.pem does not hold the issuer") == true)
    }

    @Test func everyProblemIsListedNotOnlyTheFirst() {
        let step = tls(
            certificate(names: ["a.example"], notAfter: now - 86_400),
            verify: (20, "unable to get local issuer certificate"),
            chain: (20, "unable to get local issuer certificate"), hostMatches: false)
        #expect(step.detail("problems")?.arrayValue?.count == 3)
    }

    @Test func aPlainPortAnsweringTLSGetsTheRightHint() {
        let step = Diagnosis.tls(
            .failed("error:0A00010B:SSL routines::wrong version number"), ms: 1, target: target, now: now)
        #expect(step.status == .fail)
        #expect(step.hint?.contains("does not speak TLS") == true)
    }

    @Test func plainWebSocketSkipsTLSWithTheReason() {
        var plain = target
        plain.tls = false
        #expect(Diagnosis.tlsNotUsed(target: plain).summary == "skipped: plain ws:// (--insecure)")
        plain.note = "embedded sandbox"
        #expect(Diagnosis.tlsNotUsed(target: plain).summary == "skipped: plain ws:// (embedded sandbox)")
    }

    @Test func aFailureSkipsEveryLayerAboveWithItsName() {
        let rest = Diagnosis.skipRest(after: .connect, reason: Diagnosis.failedReason(.connect))
        #expect(rest.map(\.layer) == [.tls, .upgrade, .handshake, .ping, .subscribe, .auth, .signin])
        #expect(rest.allSatisfy { $0.status == .skipped && $0.summary == "skipped: TCP failed" })
    }
}
