import BirdDoctor
import BirdDoctorRunner
import BirdSandbox
import BirdWire
import Foundation
import Testing

/// The runner against the real sandbox: everything passes, and each fault the sandbox can
/// play gives the right layer, verdict and hint.
@Suite struct RunnerSandboxTests {
    @Test(arguments: Dialect.allCases)
    func everythingPassesAgainstTheSandbox(dialect: Dialect) async throws {
        let sandbox = try Fixture.sandbox(dialect: dialect)
        defer { sandbox.stop(grace: 0) }
        var options = DoctorOptions()
        options.channels = ["presence-room"]  // the presence path: identity signed and sent
        let report = await Fixture.run(Fixture.target(sandbox, options))
        report.expectPassed()
        #expect(report.step(.tls)?.summary == "skipped: plain ws:// (embedded sandbox)")
        #expect(report.step(.auth)?.detail("hmac") == "verified with the known app secret")
        #expect(report.step(.auth)?.summary.hasSuffix("presence-room: subscription_succeeded") == true)
        #expect(report.step(.signin)?.status == .pass)
        // The JSON document, decoded: every layer there with its verdict, and no secret.
        let text = JSONReport.render(report)
        let document = try JSONValue(parsing: text)
        let statuses = try #require(document["steps"]?.arrayValue).map { $0["status"]?.stringValue ?? "" }
        #expect(statuses == ["pass", "pass", "skipped", "pass", "pass", "pass", "pass", "pass", "pass"])
        #expect(document["summary"]?["exit_code"] == 0)
        #expect(!text.contains("sandbox-secret"))
        #expect(DoctorRedactionProbe.hasNoSignature(text))
    }

    @Test func aWrongAppKeyIsRefusedWith4001() async throws {
        let sandbox = try Fixture.sandbox()
        defer { sandbox.stop(grace: 0) }
        var options = DoctorOptions()
        options.appKey = "not-a-key"
        let report = await Fixture.run(Fixture.target(sandbox, options))
        let step = try #require(report.expectFailure(at: .handshake))
        #expect(step.summary.contains("4001"))
        #expect(step.summary.contains("app key `not-a-key` does not exist on this edge"))
        #expect(report.step(.ping)?.summary == "skipped: the protocol handshake failed")
    }

    @Test(arguments: [(403, "--auth-header 'Authorization: Bearer …'"), (500, "logs")])
    func aFailingAuthEndpointIsNamed(status: Int, hint: String) async throws {
        let sandbox = try Fixture.sandbox()
        defer { sandbox.stop(grace: 0) }
        sandbox.setAuthFailure(status: status, prefix: "private-")
        let report = await Fixture.run(Fixture.target(sandbox))
        let step = try #require(report.expectFailure(at: .auth))
        #expect(step.summary == "the auth endpoint answered \(status)")
        #expect(step.hint?.contains(hint) == true)
        // A channel prefix leaves the sign-in endpoint working: layer 9 still runs and passes.
        #expect(report.step(.signin)?.status == .pass)
    }

    @Test func aFailingSigninEndpointIsLayerNine() async throws {
        let sandbox = try Fixture.sandbox()
        defer { sandbox.stop(grace: 0) }
        let report = await Fixture.run(Fixture.target(sandbox))
        report.expectPassed()
        sandbox.setAuthFailure(status: 401)
        var noChannelAuth = Fixture.target(sandbox)
        noChannelAuth.authEndpoint = nil
        let failing = await Fixture.run(noChannelAuth)
        let step = try #require(failing.expectFailure(at: .signin))
        #expect(step.summary == "the sign-in endpoint answered 401")
        #expect(failing.step(.auth)?.status == .skipped)
    }

    @Test func aHandshakeWithoutIdFails() async throws {
        let sandbox = try Fixture.sandbox()
        defer { sandbox.stop(grace: 0) }
        sandbox.omitHandshakeId(count: 1)
        let step = try #require(await Fixture.run(Fixture.target(sandbox)).expectFailure(at: .handshake))
        #expect(step.summary == "the handshake carries no valid connection_id")
    }

    @Test func aRefusingEdgeGivesTheCodesMeaning() async throws {
        let sandbox = try Fixture.sandbox()
        defer { sandbox.stop(grace: 0) }
        sandbox.refuse(code: 4100, reason: "over capacity", seconds: nil)
        let step = try #require(await Fixture.run(Fixture.target(sandbox)).expectFailure(at: .handshake))
        #expect(step.summary.contains("4100") && step.summary.contains("over capacity"))
        #expect(step.hint?.contains("retry later") == true)
    }

    @Test func aPusherEdgeAsksForThePusherDialect() async throws {
        let sandbox = try Fixture.sandbox(dialect: .pusher)
        defer { sandbox.stop(grace: 0) }
        var target = Fixture.target(sandbox)
        target.dialect = .bird
        let step = try #require(await Fixture.run(target).expectFailure(at: .handshake))
        #expect(step.hint == "pass --dialect pusher")
    }

    @Test func aPublicChannelTheEdgeRefusesFailsLayerSeven() async throws {
        let sandbox = try Fixture.sandbox()
        defer { sandbox.stop(grace: 0) }
        var target = Fixture.target(sandbox)
        target.publicChannel = "no spaces allowed"  // the flags refuse it; the runner sends whatever it is given
        let report = await Fixture.run(target)
        let step = try #require(report.expectFailure(at: .subscribe))
        #expect(step.summary.hasPrefix("the edge refused no spaces allowed: InvalidChannel 400"))
        // The connection is still open: the private channel and sign-in are still checked.
        #expect(report.step(.auth)?.status == .pass)
        #expect(report.step(.signin)?.status == .pass)
    }
}

/// Output scans shared by the tests.
enum DoctorRedactionProbe {
    /// Whether `text` holds nothing shaped like a signature (`:` then 64 hex digits).
    static func hasNoSignature(_ text: String) -> Bool {
        let hex = Set("0123456789abcdefABCDEF")
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            if chars[i] == ":" {
                var j = i + 1
                while j < chars.count, hex.contains(chars[j]) { j += 1 }
                if j - i - 1 >= 64 { return false }
            }
            i += 1
        }
        return true
    }
}
