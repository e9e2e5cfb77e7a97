import BirdWire
import Foundation
import Testing

@testable import BirdSandbox

/// Reading recordings: the header check and the errors a support engineer sees.
struct ReplayTranscriptTests {
    private func error(_ text: String) -> String? {
        do {
            _ = try ReplayTranscript(parsing: text)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func readsHeaderStateAndWireAndSkipsOtherTypes() throws {
        var t = TranscriptBuilder(dialect: .pusher)
        t.state(0, "initialized", "connecting", cause: "client started")
        t.raw(#"{"ts":"x","mono_ms":1,"type":"future_type","whatever":[1,2]}"#)
        t.inbound(5.5, t.handshake("1.2"))
        t.raw(#"{"ts":"x","mono_ms":6,"type":"state","previous":"connecting","current":"connected","extra":true}"#)
        let transcript = try t.transcript()
        #expect(transcript.header.version == 1)
        #expect(transcript.header.dialect == .pusher)
        #expect(transcript.header.tool == "bird-inspect 0.1.0")
        #expect(transcript.header.channels == ["public-demo"])
        #expect(
            transcript.entries == [
                .state(
                    .init(mono: 0, line: 2, previous: "initialized", current: "connecting", cause: "client started")),
                .wire(.init(mono: 5.5, line: 4, inbound: true, text: t.handshake("1.2"))),
                .state(.init(mono: 6, line: 5, previous: "connecting", current: "connected")),
            ])
        #expect(transcript.warnings.isEmpty)
    }

    @Test func headerProblemsAreClearErrors() {
        #expect(error("") == "empty file: not a recording")
        #expect(error("\n\n") == "empty file: not a recording")
        #expect(
            error(#"{"ts":"x","mono_ms":0,"type":"state","previous":"a","current":"b"}"#)?.contains(
                "not a recording header") == true)
        #expect(error("hello")?.contains("line 1: not a recording header") == true)
        #expect(
            error(TranscriptBuilder(version: 2).text)
                == "recording version 2 is not supported (this bird-sandbox reads version 1)")
        #expect(error(TranscriptBuilder(version: "1").text) == "line 1: the header has no version")
        #expect(
            error(#"{"type":"recording","version":1,"dialect":"klingon"}"#)?.contains("unknown dialect 'klingon'")
                == true)
        #expect(error(#"{"type":"recording","version":1}"#) == nil, "dialect defaults to bird")
    }

    @Test func entryProblemsNameTheLine() {
        var t = TranscriptBuilder()
        t.raw("{broken")
        t.state(1, "initialized", "connecting")
        #expect(error(t.text) == "line 2: not a JSON object")

        var noMono = TranscriptBuilder()
        noMono.raw(#"{"type":"wire","direction":"in","text":"{}"}"#)
        #expect(error(noMono.text) == nil, "a line without mono_ms is skipped, not fatal")
        #expect((try? noMono.transcript().warnings) == [#"line 2: wire entry without a number "mono_ms"; skipped"#])

        var badWire = TranscriptBuilder()
        badWire.raw(#"{"mono_ms":1,"type":"wire","direction":"sideways","text":"{}"}"#)
        #expect(error(badWire.text)?.contains("line 2: wire entry needs") == true)

        var badState = TranscriptBuilder()
        badState.raw(#"{"mono_ms":1,"type":"state","current":"connected"}"#)
        #expect(error(badState.text)?.contains("line 2: state entry needs") == true)

        var noType = TranscriptBuilder()
        noType.raw(#"{"mono_ms":1}"#)
        #expect(error(noType.text) == #"line 2: no "type""#)
    }

    @Test func aCutOffLastLineIsSkippedWithAWarning() throws {
        var t = TranscriptBuilder()
        t.state(0, "initialized", "connecting")
        t.raw(#"{"ts":"2026-11-29T22:00:01.000Z","mono_ms":12,"type":"wi"#)
        let transcript = try ReplayTranscript(parsing: t.lines.joined(separator: "\n"))  // no final newline
        #expect(transcript.entries.count == 1)
        #expect(transcript.warnings == ["line 3: not JSON (a cut-off last line?); skipped"])
        #expect(ReplayPlan(transcript: transcript).warnings.first == transcript.warnings.first)
    }

    @Test func loadNamesTheFile() throws {
        #expect(throws: ReplayError("/nonexistent/x.jsonl: cannot read the file (missing, unreadable or not UTF-8)")) {
            try ReplayTranscript.load(path: "/nonexistent/x.jsonl")
        }
        let path = try temporaryRecording(TranscriptBuilder(version: 7).text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(
            throws: ReplayError("\(path): recording version 7 is not supported (this bird-sandbox reads version 1)")
        ) {
            try ReplayPlan.load(path: path)
        }
    }
}
