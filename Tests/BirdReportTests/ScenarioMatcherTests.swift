import BirdReport
import BirdSandbox
import Testing

/// The matcher names the scenario each real recording was made with, and only that one.
@Suite struct ScenarioMatcherTests {
    /// Fixture name → the scenarios whose faults it was recorded with (Fixtures/README.md), in
    /// the order they showed.
    static let recorded: [(fixture: String, scenarios: [String])] = [
        ("edge-restart", ["edge-restart"]), ("over-capacity", ["over-capacity"]),
        ("terminated-member", ["terminated-member"]), ("stale-connection", ["stale-connection"]),
        ("auth-outage", ["auth-outage"]), ("rate-limited-client-events", ["rate-limited-client-events"]),
        ("flaky-network", ["flaky-network"]), ("demo", []),
        ("support-ticket", ["auth-outage", "edge-restart", "rate-limited-client-events"]),
    ]

    @Test(arguments: recorded.map(\.fixture))
    func eachFixtureMatchesItsScenariosOnly(fixture: String) throws {
        let expected = Self.recorded.first { $0.fixture == fixture }?.scenarios
        let matches = ScenarioMatcher.matches(try Fixture.summary(fixture))
        #expect(matches.map(\.name) == expected)
    }

    @Test func everyNameIsABuiltInAndEveryBuiltInHasARule() {
        #expect(ScenarioMatcher.names == ScenarioCatalogue.all.map(\.name))
    }

    @Test func evidenceSaysWhatMatched() throws {
        let restart = try #require(ScenarioMatcher.matches(try Fixture.summary("edge-restart")).first)
        #expect(restart.evidence.hasPrefix("closed with 4200 at 3.003 s, then 4 connection attempts refused over"))
        let stale = try #require(ScenarioMatcher.matches(try Fixture.summary("stale-connection")).first)
        #expect(stale.evidence == "ping at 5.009 s unanswered; closed with 4201 (pong timeout) at 35.010 s")
        let auth = try #require(ScenarioMatcher.matches(try Fixture.summary("auth-outage")).first)
        #expect(auth.evidence.hasPrefix("3 auth requests answered 503 between 2.009 s and 2.010 s"))
    }

    @Test func nearMissesDoNotMatch() throws {
        // One 4100 close is not "repeated"; a 4200 with an immediate reconnect is no restart.
        var h = Handmade()
        h.state(1, "initialized", "connecting")
        h.state(5, "connecting", "connected")
        h.state(1000, "connected", "unavailable", cause: "server closed: 4100 over capacity (x)", code: 4100)
        h.state(1500, "unavailable", "connecting")
        h.state(1510, "connecting", "connected")
        h.state(2000, "connected", "connecting", cause: "server closed: 4200 generic", code: 4200)
        h.state(2010, "connecting", "connected")
        // A 4201 whose ping was answered; a 1001 close (no drop, so not flaky).
        h.add(2100, "wire", "\"direction\":\"out\",\"text\":\"{\\\"event\\\":\\\"bird:ping\\\"}\"")
        h.add(2101, "wire", "\"direction\":\"in\",\"text\":\"{\\\"event\\\":\\\"bird:pong\\\"}\"")
        h.state(40_000, "connected", "connecting", cause: "pong timeout", code: 4201)
        h.state(40_010, "connecting", "connected")
        h.state(41_000, "connected", "unavailable", cause: "server closed: 1001 going away", code: 1001)
        // 4009 that is not a termination; a 403 from auth; an error event that is not 4301.
        h.state(41_500, "unavailable", "connecting")
        h.state(41_510, "connecting", "connected")
        h.add(41_600, "auth", "\"kind\":\"channel\",\"status\":403,\"ms\":1")
        h.add(41_700, "error", "\"code\":4302,\"message\":\"other\"")
        h.state(42_000, "connected", "failed", cause: "server closed: 4009 unauthorized (sign-in required)", code: 4009)
        #expect(ScenarioMatcher.matches(try h.summary()).isEmpty)
    }

    @Test func aDropAndAPongTimeoutAreFlaky() throws {
        var h = Handmade()
        h.state(1, "initialized", "connecting")
        h.state(5, "connecting", "connected")
        h.state(1000, "connected", "unavailable", cause: "network error: connection lost (1006)")
        h.state(1500, "unavailable", "connecting")
        h.state(1510, "connecting", "connected")
        h.state(40_000, "connected", "connecting", cause: "pong timeout", code: 4201)
        let names = ScenarioMatcher.matches(try h.summary()).map(\.name)
        // No wire entries: the 4201 alone also reads as a stale connection.
        #expect(names == ["flaky-network", "stale-connection"])
    }
}
