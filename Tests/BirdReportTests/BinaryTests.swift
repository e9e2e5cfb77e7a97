import BirdRecording
import BirdReport
import Foundation
import Testing
import TestSupport

/// The real `bird-inspect report`, end to end: files, stdout, overwriting, exit codes.
@Suite struct ReportBinaryTests {
    private func run(_ arguments: [String]) throws -> BuiltTool.Run {
        try BuiltTool.run("bird-inspect", ["report"] + arguments)
    }

    private func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bird-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    private var recording: String { Fixture.directory.appendingPathComponent("over-capacity.jsonl").path }

    @Test func writesThePageAndKeepsAnExistingFileWithoutForce() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("report.html").path
        let first = try run([recording, "-o", out])
        #expect(first.status == 0, "stderr: \(first.stderr)")
        #expect(first.stdout.isEmpty && first.stderr.isEmpty)
        let page = try String(contentsOfFile: out, encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.contains("1 reconnect: 1 × 4100; 4 failed attempts: 4 × 4100"))

        try "keep me".write(toFile: out, atomically: true, encoding: .utf8)
        let again = try run([recording, "-o", out])
        #expect(again.status == 1)
        #expect(again.stderr == "bird-inspect report: \(out) exists; add --force to replace it\n")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "keep me")

        let forced = try run([recording, "-o", out, "--force"])
        #expect(forced.status == 0)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == page)
    }

    @Test func dashWritesToStdout() throws {
        let result = try run([recording, "-o", "-"])
        #expect(result.status == 0)
        let expected = HTMLReport.render(
            SessionSummary(recording: try ReportReader.read(text: try Fixture.text("over-capacity"))),
            source: recording)
        #expect(result.stdout == expected)
    }

    /// A reader that goes away (`| head`) under a parent that ignores SIGPIPE (the child inherits
    /// that, so its write fails with EPIPE): the report ends with status 0 and says nothing, where
    /// Foundation's `FileHandle.write(_:)` trapped (SIGILL, "Fatal error" on stderr).
    @Test func aReaderThatGoesAwayEndsTheRunQuietly() throws {
        let tool = try #require(PackagePaths.builtTool("bird-inspect"), "build the package first")
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["report", recording, "-o", "-"]
        let out = Pipe()
        let err = Pipe()
        try out.fileHandleForReading.close()  // no reader at all: the first write fails
        process.standardOutput = out
        process.standardError = err
        try process.run()
        try out.fileHandleForWriting.close()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "ended by signal \(process.terminationStatus)")
        #expect(process.terminationStatus == 0)
        #expect(stderr.isEmpty, "\(stderr)")
    }

    @Test func badFlagsExitTwoWithUsage() throws {
        let result = try run([recording, "--pdf", "-o", "-"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("bird-inspect report: unknown flag --pdf\n\nusage: bird-inspect report"))
        #expect(result.stdout.isEmpty)
        let same = try run([recording, "-o", recording, "--force"])
        #expect(same.status == 2)
        #expect(same.stderr.contains("would overwrite the recording"))
    }

    @Test func unreadableInputExitsOneWithOneLine() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = try run([dir.appendingPathComponent("nope.jsonl").path, "-o", "-"])
        #expect(missing.status == 1)
        #expect(
            missing.stderr == "bird-inspect report: \(dir.appendingPathComponent("nope.jsonl").path): no such file\n")
        let notOne = dir.appendingPathComponent("notes.txt").path
        try "hello\n".write(toFile: notOne, atomically: true, encoding: .utf8)
        let wrong = try run([notOne, "-o", "-"])
        #expect(wrong.status == 1)
        #expect(
            wrong.stderr
                == "bird-inspect report: \(notOne): not a bird-inspect recording: the first line is not a JSON object\n"
        )
        #expect(wrong.stdout.isEmpty)
        let future = dir.appendingPathComponent("v9.jsonl").path
        try "{\"mono_ms\":0,\"type\":\"recording\",\"version\":9}\n".write(
            toFile: future, atomically: true, encoding: .utf8)
        let version = try run([future, "-o", "-"])
        #expect(version.status == 1)
        #expect(version.stderr.contains("recording version 9 is not supported (this report reads versions 1 and 2)"))
        let directory = try run([recording, "-o", dir.path, "--force"])
        #expect(directory.status == 1)
        #expect(directory.stderr == "bird-inspect report: \(dir.path) is a directory; name the page's file\n")
        let unwritable = try run([recording, "-o", dir.appendingPathComponent("no/such/dir/r.html").path])
        #expect(unwritable.status == 1)
        #expect(unwritable.stderr.contains("cannot write the report"))
    }
}
