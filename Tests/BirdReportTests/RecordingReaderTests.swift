import BirdReport
import Foundation
import Testing

/// The tolerant reader: the header must be there and known; bad lines are skipped and named.
@Suite struct RecordingReaderTests {
    @Test func readsTheHeader() throws {
        let recording = try RecordingReader.read(text: try Fixture.text("edge-restart"))
        #expect(recording.header.version == 1)
        #expect(recording.header.tool == "bird-inspect 0.1.0")
        #expect(recording.header.dialect == "bird")
        #expect(recording.header.host == "127.0.0.1")
        #expect(recording.header.tls == false)
        #expect(recording.header.channels == ["demo-orders", "presence-demo", "private-demo"])
        #expect(recording.skipped.isEmpty)
        #expect(recording.lines.first?.type == "state")
    }

    @Test func acceptsVersionsOneAndTwoOnly() throws {
        var two = Handmade()
        two.version = 2
        #expect(try two.recording().header.version == 2)
        var three = Handmade()
        three.version = 3
        #expect(throws: RecordingError.unsupportedVersion(3)) { try three.recording() }
        #expect(
            RecordingError.unsupportedVersion(3).message
                == "recording version 3 is not supported (this report reads versions 1 and 2)")
    }

    @Test func refusesWhatIsNotARecording() {
        #expect(throws: RecordingError.empty) { try RecordingReader.read(text: "\n  \n") }
        #expect(throws: RecordingError.notARecording("the first line is not a JSON object")) {
            try RecordingReader.read(text: "hello\n")
        }
        #expect(throws: RecordingError.notARecording("the first line is not a recording header")) {
            try RecordingReader.read(text: "{\"ts\":\"x\",\"mono_ms\":0,\"type\":\"state\"}\n")
        }
        #expect(throws: RecordingError.notARecording("the header has no version")) {
            try RecordingReader.read(text: "{\"type\":\"recording\"}\n")
        }
        #expect(throws: RecordingError.notUTF8) { try RecordingReader.read(bytes: Data([0x7B, 0xFF, 0xFE, 0x7D])) }
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
            recording.skipped == [
                SkippedLine(number: 3, reason: "not JSON"), SkippedLine(number: 4, reason: "not a JSON object"),
                SkippedLine(number: 5, reason: "no type"), SkippedLine(number: 6, reason: "no mono_ms"),
                SkippedLine(number: 7, reason: "mono_ms out of range"),
                SkippedLine(number: 8, reason: "mono_ms out of range"), SkippedLine(number: 11, reason: "not JSON"),
            ])
    }

    @Test(arguments: ["edge-restart", "auth-outage", "support-ticket", "demo"])
    func summarizingInOnePassEqualsReadingThenSummarizing(fixture: String) throws {
        let text = try Fixture.text(fixture) + "garbage\n{\"mono_ms\":1,\"type\":\"hologram\"}\n"
        let streamed = try RecordingReader.summarize(text: text)
        #expect(streamed == SessionSummary(recording: try RecordingReader.read(text: text)))
        #expect(streamed.skipped.count == 1 && streamed.unknownTypes.count == 1)
        #expect(throws: RecordingError.empty) { try RecordingReader.summarize(text: "") }
        #expect(throws: RecordingError.notUTF8) { try RecordingReader.summarize(bytes: Data([0xC3, 0x28])) }
    }

    @Test func crlfAndABackwardsClockAreTolerated() throws {
        let text =
            "{\"mono_ms\":0,\"type\":\"recording\",\"version\":1}\r\n"
            + "{\"mono_ms\":50,\"type\":\"subscribed\",\"channel\":\"a\"}\r\n"
            + "{\"mono_ms\":20,\"type\":\"subscribed\",\"channel\":\"b\"}\r\n"
        let recording = try RecordingReader.read(text: text)
        #expect(recording.lines.map(\.monoMs) == [50, 50])
        #expect(recording.lines.map { $0.string("channel") } == ["a", "b"])
    }
}
