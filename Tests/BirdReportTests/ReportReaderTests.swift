import BirdRecording
import BirdReport
import Foundation
import Testing

/// The report's reading (BirdRecording's reader with the report's versions, tolerant): the header
/// must be there and known; bad lines are skipped and named.
@Suite struct ReportReaderTests {
    @Test func readsTheHeader() throws {
        let recording = try ReportReader.read(text: try Fixture.text("edge-restart"))
        #expect(recording.header.version == 1)
        #expect(recording.header.tool == "bird-inspect 0.1.0")
        #expect(recording.header.dialect == "bird")
        #expect(recording.header.host == "127.0.0.1")
        #expect(recording.header.tls == false)
        #expect(recording.header.channels == ["demo-orders", "presence-demo", "private-demo"])
        #expect(recording.problems.isEmpty)
        #expect(recording.lines.first?.type == "state")
    }

    @Test func acceptsVersionsOneAndTwoOnly() throws {
        var two = Handmade()
        two.version = 2
        #expect(try two.recording().header.version == 2)
        var three = Handmade()
        three.version = 3
        #expect(throws: RecordingError.unsupportedVersion("3", .report)) { try three.recording() }
        #expect(
            RecordingError.unsupportedVersion("3", .report).description
                == "recording version 3 is not supported (this report reads versions 1 and 2)")
    }

    @Test func refusesWhatIsNotARecording() {
        #expect(throws: RecordingError.empty) { try ReportReader.read(text: "\n  \n") }
        #expect(throws: RecordingError.notARecording("the first line is not a JSON object")) {
            try ReportReader.read(text: "hello\n")
        }
        #expect(throws: RecordingError.notARecording("the first line is a state line, not the recording header")) {
            try ReportReader.read(text: "{\"ts\":\"x\",\"mono_ms\":0,\"type\":\"state\"}\n")
        }
        #expect(throws: RecordingError.notARecording("the header has no version")) {
            try ReportReader.read(text: "{\"type\":\"recording\"}\n")
        }
        #expect(throws: RecordingError.notARecording("the first line is not UTF-8 (cut inside a character?)")) {
            try ReportReader.summarize(bytes: [0x7B, 0xFF, 0xFE, 0x7D])
        }
    }

    @Test func skipsBadLinesAndNamesThem() throws {
        var h = Handmade()
        h.add(1, "state", "\"previous\":\"initialized\",\"current\":\"connecting\"")
        h.lines.append("not json")
        h.lines.append("[1,2]")
        h.lines.append("{\"mono_ms\":3}")
        h.lines.append("{\"type\":\"state\"}")
        h.lines.append("{\"mono_ms\":-5,\"type\":\"state\"}")
        h.lines.append("{\"mono_ms\":1e300,\"type\":\"state\"}")
        h.lines.append("")
        h.add(9, "future_thing", "\"x\":1")
        h.lines.append("{\"ts\":\"2026-11-29T22:00:00.000Z\",\"mono_ms\":12,\"type\":\"ev")  // cut off by a crash
        let recording = try h.recording()
        #expect(recording.lines.map(\.type) == ["state", "future_thing"])
        #expect(
            recording.problems.map(\.description) == [
                "line 3: not JSON", "line 4: not a JSON object", "line 5: no type", "line 6: no mono_ms",
                "line 7: mono_ms -5 is outside 0…10000000000", "line 8: mono_ms 1e300 is outside 0…10000000000",
                "line 11: not JSON",
            ])
    }

    @Test(arguments: ["edge-restart", "auth-outage", "support-ticket", "demo"])
    func summarizingInOnePassEqualsReadingThenSummarizing(fixture: String) throws {
        let text = try Fixture.text(fixture) + "garbage\n{\"mono_ms\":1,\"type\":\"hologram\"}\n"
        let streamed = try ReportReader.summarize(text: text)
        #expect(streamed == SessionSummary(recording: try ReportReader.read(text: text)))
        #expect(streamed.skipped.count == 1 && streamed.unknownTypes.count == 1)
        #expect(throws: RecordingError.empty) { try ReportReader.summarize(text: "") }
        #expect(throws: RecordingError.notARecording("the first line is not UTF-8 (cut inside a character?)")) {
            try ReportReader.summarize(bytes: [0xC3, 0x28])
        }
        // A line cut inside a character after the header is one skipped line, not a refused file.
        let cut = try ReportReader.summarize(bytes: Array(text.utf8) + [0xE4, 0xB8, 0x0A])
        #expect(cut.skipped.map(\.reason) == ["not JSON", "not UTF-8 (cut inside a character?)"])
    }

    @Test func crlfAndABackwardsClockAreTolerated() throws {
        let text =
            "{\"mono_ms\":0,\"type\":\"recording\",\"version\":1}\r\n"
            + "{\"mono_ms\":50,\"type\":\"subscribed\",\"channel\":\"a\"}\r\n"
            + "{\"mono_ms\":20,\"type\":\"subscribed\",\"channel\":\"b\"}\r\n"
        let recording = try ReportReader.read(text: text)
        #expect(recording.lines.map(\.monoMs) == [50, 50])
        #expect(recording.lines.map { $0.string("channel") } == ["a", "b"])
    }
}
