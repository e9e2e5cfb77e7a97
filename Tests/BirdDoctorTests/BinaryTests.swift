import BirdWire
import Foundation
import Testing
import TestSupport

/// The real `bird-inspect doctor` binary, end to end: exit codes, one JSON document, no secret.
@Suite struct BinaryTests {
    private func run(_ arguments: [String], environment: [String: String] = [:]) throws -> BuiltTool.Run {
        try BuiltTool.run("bird-inspect", ["doctor"] + arguments, environment: environment)
    }

    @Test func sandboxRunPassesAsJSONWithoutSecrets() throws {
        let result = try run(["--sandbox", "--json", "--channel", "presence-lobby"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let document = try JSONValue(parsing: result.stdout)
        #expect(document["summary"]?["status"] == "pass")
        #expect(document["summary"]?["exit_code"] == 0)
        let steps = try #require(document["steps"]?.arrayValue)
        #expect(steps.count == 9)
        #expect(steps.allSatisfy { $0["status"] == "pass" || $0["status"] == "skipped" })
        #expect(steps[7]["details"]?["channel"] == "presence-lobby")
        #expect(!result.stdout.contains("sandbox-secret"))
        #expect(DoctorRedactionProbe.hasNoSignature(result.stdout))
    }

    @Test func aWrongKeyExitsWithTheHandshakesCode() throws {
        let result = try run(["--sandbox", "--app-key", "wrong-key", "--color", "never"])
        #expect(result.status == 15)
        #expect(result.stdout.contains("FAIL  5 handshake"))
        #expect(result.stdout.contains("app key `wrong-key` does not exist on this edge"))
        #expect(!result.stdout.contains("\u{1B}["))
    }

    @Test func badFlagsExitTwoWithUsage() throws {
        let result = try run(["--sandbox", "--host", "x.example"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--host cannot be used"))
        #expect(result.stderr.contains("usage: bird-inspect doctor"))
        #expect(result.stdout.isEmpty)
    }

    @Test func colourFollowsTheFlag() throws {
        #expect(try run(["--sandbox", "--color", "always"]).stdout.contains("\u{1B}[32mPASS"))
        // Not a terminal: auto means no colour.
        #expect(!(try run(["--sandbox"]).stdout.contains("\u{1B}[")))
    }
}
