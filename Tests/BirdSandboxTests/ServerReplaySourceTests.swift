import BirdWire
import Foundation
import Testing

@testable import BirdSandbox

/// Reading recordings for the server-side replay (BirdRecording's reader, the sandbox's stricter
/// rules): the header check and the errors a support engineer sees.
struct ServerReplaySourceTests {
    private func error(_ text: String) -> String? {
        do {
            _ = try ServerReplaySource(parsing: text)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func readsHeaderStateAndWireAndSkipsOtherTypes() throws {
        var t = RecordingBuilder(dialect: .pusher)
        t.state(0, "initialized", "connecting", cause: "client started")
        t.raw(#"{"ts":"x","mono_ms":1,"type":"future_type","whatever":[1,2]}"#)
        t.inbound(5.5, t.handshake("1.2"))
        t.raw(#"{"ts":"x","mono_ms":6,"type":"state","previous":"connecting","current":"connected","extra":true}"#)
        let source = try t.source()
        #expect(source.header.version == 1)
        #expect(source.dialect == .pusher && source.header.dialect == "pusher")
        #expect(source.header.tool == "bird-inspect 0.1.0")
        #expect(source.header.channels == ["public-demo"])
        #expect(
            source.entries == [
                .state(
                    .init(mono: 0, line: 2, previous: "initialized", current: "connecting", cause: "client started")),
                .wire(.init(mono: 5.5, line: 4, inbound: true, text: t.handshake("1.2"))),
                .state(.init(mono: 6, line: 5, previous: "connecting", current: "connected")),
            ])
        #expect(source.warnings.isEmpty)
    }

    @Test func headerProblemsAreClearErrors() {
        #expect(error("") == "the file is empty (not a recording)")
        #expect(error("\n\n") == "the file is empty (not a recording)")
        #expect(
            error(#"{"ts":"x","mono_ms":0,"type":"state","previous":"a","current":"b"}"#)?.contains(
                "not a bird-inspect recording: the first line is a state line, not the recording header") == true)
        #expect(error("hello") == "not a bird-inspect recording: the first line is not a JSON object")
        #expect(
            error(RecordingBuilder(version: 2).text)
                == "recording version 2 is not supported (this bird-sandbox reads version 1)")
        #expect(
            error(RecordingBuilder(version: "1").text)
                == #"recording version "1" is not supported (this bird-sandbox reads version 1)"#, "as written")
        #expect(error(#"{"type":"recording"}"#) == "not a bird-inspect recording: the header has no version")
        #expect(
            error(#"{"type":"recording","version":1,"dialect":"klingon"}"#)?.contains("unknown dialect 'klingon'")
                == true)
        #expect(error(#"{"type":"recording","version":1}"#) == nil, "dialect defaults to bird")
    }

    @Test func entryProblemsNameTheLine() {
        var t = RecordingBuilder()
        t.raw("{broken")
        t.state(1, "initialized", "connecting")
        #expect(error(t.text) == "line 2: not JSON")

        var noMono = RecordingBuilder()
        noMono.raw(#"{"type":"wire","direction":"in","text":"{}"}"#)
        #expect(error(noMono.text) == nil, "a line without mono_ms is skipped, not fatal")
        #expect((try? noMono.source().warnings) == ["line 2: no mono_ms; skipped"])

        var badWire = RecordingBuilder()
        badWire.raw(#"{"mono_ms":1,"type":"wire","direction":"sideways","text":"{}"}"#)
        #expect(error(badWire.text)?.contains("line 2: wire entry needs") == true)

        var badState = RecordingBuilder()
        badState.raw(#"{"mono_ms":1,"type":"state","current":"connected"}"#)
        #expect(error(badState.text)?.contains("line 2: state entry needs") == true)

        var noType = RecordingBuilder()
        noType.raw(#"{"mono_ms":1}"#)
        #expect(error(noType.text) == "line 2: no type", "an object without a type is an error, even last")
    }

    @Test func aCutOffLastLineIsSkippedWithAWarning() throws {
        var t = RecordingBuilder()
        t.state(0, "initialized", "connecting")
        t.raw(#"{"ts":"2026-11-29T22:00:01.000Z","mono_ms":12,"type":"wi"#)
        let source = try ServerReplaySource(parsing: t.lines.joined(separator: "\n"))  // no final newline
        #expect(source.entries.count == 1)
        #expect(source.warnings == ["line 3: not JSON (a cut-off last line?); skipped"])
        #expect(ServerReplayPlan(source: source).warnings.first == source.warnings.first)
        // A recorder killed inside a character: the same, through BirdRecording's per-line UTF-8
        // check; the same cut in the middle of the file is an error.
        let head = Array((t.lines[0...1].joined(separator: "\n") + "\n").utf8)
        let cutLine = Array(#"{"mono_ms":5,"type":"wire","direction":"in","text":"北"#.utf8).dropLast(1)
        let cut = try ServerReplaySource(bytes: head + cutLine)
        #expect(cut.entries.count == 1)
        #expect(cut.warnings == ["line 3: not UTF-8 (cut inside a character?) (a cut-off last line?); skipped"])
        #expect(throws: ServerReplayError("line 3: not UTF-8 (cut inside a character?)")) {
            try ServerReplaySource(bytes: head + cutLine + [0x0A] + Array(t.lines[1].utf8) + [0x0A])
        }
    }

    @Test func loadStreamsTheFileAsParsingReadsTheText() throws {
        var t = RecordingBuilder(dialect: .pusher)
        t.state(0, "initialized", "connecting", cause: "client started")
        t.inbound(5, t.handshake("1.2"))
        t.raw(#"{"mono_ms":6,"type":"state","previous":"connecting","current":"connected"}"#)
        let path = try temporaryRecording(t.text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try ServerReplaySource.load(path: path) == ServerReplaySource(parsing: t.text))
    }

    @Test func loadNamesTheFile() throws {
        #expect(throws: ServerReplayError("/nonexistent/x.jsonl: cannot read the file (no such file)")) {
            try ServerReplaySource.load(path: "/nonexistent/x.jsonl")
        }
        let path = try temporaryRecording(RecordingBuilder(version: 7).text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(
            throws: ServerReplayError(
                "\(path): recording version 7 is not supported (this bird-sandbox reads version 1)")
        ) {
            try ServerReplayPlan.load(path: path)
        }
    }
}
