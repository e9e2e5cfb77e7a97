import BirdWire
import Foundation
import Testing

@testable import BirdSandbox

/// `bird-sandbox --replay FILE`: flags, dialect, errors.
struct ReplayCommandLineTests {
    private func recording(dialect: Dialect = .pusher) throws -> String {
        var t = RecordingBuilder(dialect: dialect)
        t.state(0, "initialized", "connecting")
        t.inbound(10, t.handshake("1.1"))
        return try temporaryRecording(t.text)
    }

    private func message(_ arguments: [String]) -> String? {
        do {
            _ = try SandboxCommandLine.parseInvocation(arguments)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func replayLoadsThePlanAndTakesTheRecordingsDialect() throws {
        let path = try recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let invocation = try SandboxCommandLine.parseInvocation(["--port", "0", "--replay", path])
        guard case .run(let configuration, _) = invocation.parsed else {
            Issue.record("expected run")
            return
        }
        #expect(configuration.replay?.segments.count == 1)
        #expect(configuration.dialect == .pusher, "from the header")
        #expect(invocation.scenario == nil)

        guard case .run(let overridden, _) = try SandboxCommandLine.parse(["--replay=\(path)", "--dialect", "bird"])
        else {
            Issue.record("expected run")
            return
        }
        #expect(overridden.dialect == .bird, "--dialect wins, in any order")
        guard case .run(let plain, _) = try SandboxCommandLine.parse([]) else { return }
        #expect(plain.replay == nil)
    }

    @Test func badReplaysAreUsageErrors() throws {
        let path = try recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(
            message(["--replay", path, "--scenario", "edge-restart"])
                == "--replay and --scenario do not go together (a replay drives the connections itself)")
        #expect(message(["--scenario", "edge-restart", "--replay", path]) != nil)
        #expect(message(["--replay"]) == "--replay needs a value")
        #expect(message(["--replay", ""]) == "--replay needs a recording file")
        #expect(
            message(["--replay", "/nonexistent.jsonl"])?.hasPrefix("--replay: /nonexistent.jsonl: cannot read") == true)
        let future = try temporaryRecording(RecordingBuilder(version: 2).text)
        defer { try? FileManager.default.removeItem(atPath: future) }
        #expect(
            message(["--replay", future])
                == "--replay: \(future): recording version 2 is not supported (this bird-sandbox reads version 1)")
        let empty = try temporaryRecording(RecordingBuilder().text)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect(
            message(["--replay", empty]) == "--replay: \(empty): nothing to replay (no connection attempt was recorded)"
        )
        let headless = try temporaryRecording(#"{"ts":"x","mono_ms":0,"type":"state","previous":"a","current":"b"}"#)
        defer { try? FileManager.default.removeItem(atPath: headless) }
        #expect(message(["--replay", headless])?.contains("not a bird-inspect recording") == true)
    }

    @Test func usageMentionsReplay() {
        #expect(SandboxCommandLine.usage.contains("--replay FILE"))
        #expect(SandboxCommandLine.usage.contains("docs/RECORDING.md"))
    }
}
