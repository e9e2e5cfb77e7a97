import BirdWire
import Foundation
import Testing

/// The real `bird-inspect doctor` binary, end to end: exit codes, one JSON document, no secret.
@Suite struct BinaryTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    private func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
        let exe =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let tool = URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("bird-inspect").path
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            throw ToolMissing(description: "\(tool) is missing: build the package (swift build --build-tests) first")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["doctor"] + arguments
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("BIRD_") }
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes to the end (the process cannot block on a full pipe), then reap it.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    struct ToolMissing: Error, CustomStringConvertible {
        var description: String
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
