// Numbers and header lines from flags and BIRD_* variables (issue 13): checked, with the accepted
// range (upper bound included) in the refusal; an auth header that could not be sent is refused.

import Foundation
import Testing

@testable import BirdInspector

@Suite("Command-line values from strangers: ranges and header lines")
struct ArgumentRangeTests: ArgumentParsing {
    @Test(
        "an --auth-header with CR, LF or another control character is refused, value unseen",
        arguments: [
            "Authorization: Bearer abc\r\nX-Evil: 1", "Authorization: Bearer abc\n", "Authorization: Bearer\rabc",
            "Authorization: Bearer \u{0}abc", "Bad Name: x",
        ])
    func authHeader(_ header: String) throws {
        let e = error(["--app-key", "k", "--auth-header", header])
        #expect(e?.hasPrefix("--auth-header") == true, "\(e ?? "accepted")")
        #expect(e?.contains("abc") != true, "the value is never printed")
        #expect(
            try options(["--app-key", "k", "--auth-header", "Authorization: Bearer\ta b c"]).authHeaders.count == 1)
    }

    @Test("BIRD_AUTH_HEADERS: one header per LF-separated line; CR is refused")
    func authHeaderEnvironment() throws {
        #expect(
            try options(["--app-key", "k"], env: ["BIRD_AUTH_HEADERS": "A: 1\nB: 2"]).authHeaders == ["A: 1", "B: 2"])
        #expect(error(["--app-key", "k"], env: ["BIRD_AUTH_HEADERS": "A: 1\r\nB: 2"])?.contains("CR or LF") == true)
    }

    @Test(
        "numeric flags say their accepted range, upper bound included",
        arguments: [
            (["--sandbox", "--duration", "1e10"], "--duration must be a number from 0.001 to 1000000000, not “1e10”"),
            (["--sandbox", "--demo-rate", "-1"], "--demo-rate must be a number from 0 to 10000, not “-1”"),
            (["--sandbox", "--wait-timeout", "0"], "--wait-timeout must be a number from 0.1 to 86400, not “0”"),
            (["--sandbox", "--log-size", "0"], "--log-size must be a whole number 1–10000000, not “0”"),
            (
                ["--replay", "r", "--speed", "1e-300"],
                "--speed must be 0 (no waits) or a number from 0.001 to 10000, not “1e-300”"
            ),
            (
                ["--replay", "r", "--speed", "nan"],
                "--speed must be 0 (no waits) or a number from 0.001 to 10000, not “nan”"
            ),
        ])
    func ranges(args: [String], message: String) {
        #expect(error(args) == message)
    }

    @Test("the same from BIRD_* variables")
    func environmentRanges() throws {
        #expect(
            error(["--replay", "r"], env: ["BIRD_SPEED": "1e-300"])?.hasPrefix("BIRD_SPEED must be 0 (no waits)")
                == true)
        #expect(
            error(["--sandbox"], env: ["BIRD_WAIT_TIMEOUT": "1e9"])
                == "BIRD_WAIT_TIMEOUT must be a number from 0.1 to 86400, not “1e9”")
        #expect(try options(["--sandbox", "--jsonl"], env: ["BIRD_WAIT_TIMEOUT": "2.5"]).waitTimeout == 2.5)
        #expect(try options(["--sandbox", "--wait-timeout", "86400"]).waitTimeout == 86_400)
        #expect(try options(["--replay", "r", "--speed", "0.001"]).speed == 0.001)
    }
}
