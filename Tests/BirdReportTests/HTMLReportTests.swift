import BirdRecording
import BirdReport
import Foundation
import Testing

/// The page: self-contained, deterministic, secret-free, and carrying the facts it claims.
@Suite struct HTMLReportTests {
    static let fixtures = [
        "edge-restart", "over-capacity", "terminated-member", "stale-connection", "auth-outage",
        "rate-limited-client-events", "flaky-network", "demo", "support-ticket",
    ]

    static func page(_ fixture: String) throws -> String {
        HTMLReport.render(try Fixture.summary(fixture), source: "\(fixture).jsonl")
    }

    @Test(arguments: fixtures)
    func noScriptsAndNothingFetched(fixture: String) throws {
        let html = try Self.page(fixture).lowercased()
        #expect(!html.contains("<script"))
        #expect(!html.contains("javascript:"))
        #expect(try Regex(#"\son[a-z]+\s*="#).firstMatch(in: html) == nil, "no event handler attributes")
        #expect(try Regex(#"(src|href|xlink:href|action)\s*=\s*["']?\s*(https?:)?//"#).firstMatch(in: html) == nil)
        #expect(try Regex(#"url\(\s*["']?(https?:)?//"#).firstMatch(in: html) == nil, "no remote CSS resources")
        #expect(!html.contains("@import"))
        #expect(!html.contains("<link"))
        #expect(!html.contains("<iframe") && !html.contains("<img") && !html.contains("<object"))
        // Every href is an anchor on the page.
        for match in html.matches(of: try Regex(#"href="([^"]*)""#)) {
            #expect(match.output[1].substring?.hasPrefix("#") == true)
        }
    }

    @Test(arguments: fixtures)
    func theSameRecordingGivesTheSameBytes(fixture: String) throws {
        let text = try Fixture.text(fixture)
        let first = HTMLReport.render(
            SessionSummary(recording: try ReportReader.read(text: text)), source: "r.jsonl")
        let second = HTMLReport.render(
            SessionSummary(recording: try ReportReader.read(text: text)), source: "r.jsonl")
        #expect(first == second)
    }

    @Test(arguments: fixtures)
    func passesTheProjectsSecretScan(fixture: String) throws {
        let html = try Self.page(fixture)
        try SecretScan.expectClean(html)
        // The sandbox demo authenticates presence with ?member=…; query strings stay out.
        #expect(!html.contains("?member="))
    }

    @Test func aPoisonedRecordingLeaksNothing() throws {
        let signature = String(repeating: "ab12", count: 16)
        var h = Handmade()
        h.channels = ["private-x"]
        h.state(1, "initialized", "connecting")
        h.state(5, "connecting", "connected")
        h.add(
            6, "wire",
            "\"direction\":\"out\",\"text\":\"{\\\"event\\\":\\\"bird:subscribe\\\",\\\"data\\\":{\\\"channel\\\":\\\"private-x\\\",\\\"auth\\\":\\\"sandbox-key:\(signature)\\\"}}\""
        )
        h.add(
            7, "auth",
            "\"kind\":\"channel\",\"endpoint\":\"https://user:PASSWORD1@auth.example/auth?token=QUERYSECRET#frag\",\"channel\":\"private-x\",\"status\":401,\"ms\":9"
        )
        h.add(
            8, "subscription_error",
            "\"channel\":\"private-x\",\"error_type\":\"AuthError\",\"status\":401,\"endpoint\":\"https://auth.example/auth?token=QUERYSECRET\",\"message\":\"denied for sandbox-key:\(signature) at https://auth.example/auth?token=QUERYSECRET\""
        )
        h.add(
            9, "error",
            "\"code\":4009,\"message\":\"Authorization: Bearer TOKENSECRET rejected\",\"reason\":\"auth_signature=SIGSECRET&x=1\""
        )
        h.add(10, "event", "\"channel\":\"private-x\",\"event\":\"e\",\"data\":{\"password\":\"DATASECRET\"}")
        h.add(11, "members", "\"channel\":\"private-x\",\"members\":{\"m\":{\"token\":\"MEMBERSECRET\"}}")
        h.add(
            12, "command_error",
            "\"command\":\"trigger private-x e {\\\"auth\\\":\\\"k:\(signature)\\\"}\",\"message\":\"x\"")
        h.add(13, "network", "\"note\":\"proxy https://proxy.example/?key=NETSECRET\"")
        let html = HTMLReport.render(try h.summary(), source: "poisoned.jsonl")
        try SecretScan.expectClean(html)
        for secret in [
            "PASSWORD1", "QUERYSECRET", "TOKENSECRET", "SIGSECRET", "DATASECRET", "MEMBERSECRET", "NETSECRET",
            signature,
        ] {
            #expect(!html.contains(secret), "\(secret) leaked")
        }
        #expect(html.contains("https://auth.example/auth"), "the endpoint itself is still shown")
        #expect(html.contains("Bearer &lt;redacted&gt;"))
    }

    @Test func textFromTheRecordingIsEscaped() throws {
        var h = Handmade()
        h.channels = ["<b>x</b>"]
        h.add(5, "error", "\"code\":4000,\"message\":\"<script>alert(1)</script> & 'q'\"")
        let html = HTMLReport.render(try h.summary(), source: "a \"b\" <c>.jsonl")
        #expect(!html.contains("<script>"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#39;q&#39;"))
        #expect(html.contains("&lt;b&gt;x&lt;/b&gt;"))
        #expect(html.contains("a &quot;b&quot; &lt;c&gt;.jsonl"))
        // The replay command quotes the odd path for the shell.
        #expect(html.contains("bird-sandbox --replay &#39;a &quot;b&quot; &lt;c&gt;.jsonl&#39; --port 6001"))
    }

    @Test func theEdgeRestartPageCarriesItsFacts() throws {
        let summary = try Fixture.summary("edge-restart")
        let html = HTMLReport.render(summary, source: "edge-restart.jsonl")
        #expect(
            html.contains(
                "<p class=\"headline\" id=\"headline\">1 reconnect: 1 × 4200; 4 failed attempts: 4 × refused; longest outage 8.6 s</p>"
            ))
        #expect(html.components(separatedBy: "<rect class=\"span state-").count - 1 == summary.spans.count)
        #expect(html.components(separatedBy: "<rect class=\"span state-connected\"").count - 1 == 2)
        #expect(html.components(separatedBy: "<rect class=\"retry\" data-wait-ms=").count - 1 == 4)
        #expect(html.contains("data-code=\"4200\""))
        #expect(html.components(separatedBy: "<tr class=\"ok\" data-status=\"200\">").count - 1 == 4)
        #expect(html.contains("bird-sandbox --replay edge-restart.jsonl --port 6001"))
        #expect(html.contains("--subscribe presence-demo"))
        #expect(html.contains("<li data-scenario=\"edge-restart\">"))
        #expect(html.contains("bird-sandbox --scenario edge-restart"))
        #expect(html.contains("@media print"))
        #expect(html.contains("<title id=\"timeline-title\">"))
    }

    @Test func authFailuresAreRowsMarkedFailed() throws {
        let html = try Self.page("auth-outage")
        #expect(html.components(separatedBy: "<tr class=\"failed\" data-status=\"503\">").count - 1 == 3)
        #expect(html.contains("--member-auth-endpoint http://127.0.0.1:6001/auth/member --signin"))
    }

    @Test func unknownLinesAreNotedNotFatal() throws {
        var h = Handmade()
        h.add(10, "hologram", "\"x\":1")
        h.lines.append("garbage")
        let html = HTMLReport.render(try h.summary(), source: "r.jsonl")
        #expect(html.contains("1 line of type “hologram” is not known to this report and was left out."))
        #expect(html.contains("1 line could not be read and was skipped (line 3: not JSON)."))
    }
}

/// The project's secret scan (Scripts/interop/headless_inspector.py): no full signature
/// (`:` + 64 hex digits), no sandbox secret, no bearer token value.
enum SecretScan {
    static func expectClean(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try Regex(":[0-9a-f]{64}").firstMatch(in: text) == nil, "a signature", sourceLocation: sourceLocation)
        #expect(!text.contains("sandbox-secret"), "the sandbox secret", sourceLocation: sourceLocation)
        #expect(
            try Regex("(?i)bearer [A-Za-z0-9._~+/=-]{6,}").firstMatch(in: text) == nil, "a bearer token",
            sourceLocation: sourceLocation)
    }
}
