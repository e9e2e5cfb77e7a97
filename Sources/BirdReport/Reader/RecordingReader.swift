import BirdWire
import Foundation

/// Reads a recording (docs/RECORDING.md) tolerantly: the header must be there and of a known
/// version; after it, unknown types and keys are kept for the summary to ignore, and a line that
/// is not a JSON object with a string `type` and a usable `mono_ms` is skipped and noted.
public enum RecordingReader {
    /// The header versions read.
    public static let supportedVersions = [1, 2]

    /// The largest `mono_ms` believed (about 115 days); a larger one is a damaged line.
    public static let maxMonoMs = 1e10

    /// Reads a recording from its bytes.
    public static func read(bytes: Data) throws(RecordingError) -> Recording {
        guard let text = String(data: bytes, encoding: .utf8) else { throw .notUTF8 }
        return try read(text: text)
    }

    /// Reads a recording from its text.
    public static func read(text: String) throws(RecordingError) -> Recording {
        var lines: [RecordingLine] = []
        var skipped: [SkippedLine] = []
        let header = try scan(text, header: { _ in }) { parsed in
            switch parsed {
            case .line(let entry): lines.append(entry)
            case .skipped(let problem): skipped.append(problem)
            }
        }
        return Recording(header: header, lines: lines, skipped: skipped)
    }

    /// Summarises a recording from its bytes in one pass, keeping no line once it is counted
    /// (what `bird-inspect report` uses: memory stays about twice the file's size, not ten times).
    public static func summarize(bytes: Data) throws(RecordingError) -> SessionSummary {
        guard let text = String(data: bytes, encoding: .utf8) else { throw .notUTF8 }
        return try summarize(text: text)
    }

    /// Summarises a recording from its text in one pass; the same summary as
    /// `SessionSummary(recording: read(text:))`.
    public static func summarize(text: String) throws(RecordingError) -> SessionSummary {
        var builder: SummaryBuilder?
        var skipped: [SkippedLine] = []
        _ = try scan(text, header: { builder = SummaryBuilder(header: $0) }) { parsed in
            switch parsed {
            case .line(let entry): builder?.take(entry)
            case .skipped(let problem): skipped.append(problem)
            }
        }
        guard var builder else { throw .empty }
        return builder.finish(skipped: skipped)
    }

    /// A line after the header, read or skipped.
    enum Parsed {
        case line(RecordingLine)
        case skipped(SkippedLine)
    }

    /// Walks the text's lines: the header (checked, handed to `header`), then each other line
    /// to `body` in order. Lines end at LF bytes ("\r\n" is one Character in Swift, so the walk
    /// is over UTF-8); a CR before the LF is dropped; blank lines are skipped.
    private static func scan(
        _ text: String, header onHeader: (RecordingHeader) -> Void, body: (Parsed) -> Void
    ) throws(RecordingError) -> RecordingHeader {
        var header: RecordingHeader?
        var lastMono = 0.0
        var number = 0
        let utf8 = text.utf8
        var start = utf8.startIndex
        while start < utf8.endIndex {
            let end = utf8[start...].firstIndex(of: UInt8(ascii: "\n")) ?? utf8.endIndex
            number += 1
            var bytes = utf8[start..<end]
            start = end < utf8.endIndex ? utf8.index(after: end) : end
            if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
            if bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { continue }
            let value = parseJSON(Substring(bytes))
            guard header != nil else {
                let first = try readHeader(value)
                header = first
                onHeader(first)
                continue
            }
            switch entry(value, number: number) {
            case .line(var line):
                // mono_ms never decreases in a good recording; hold the clock if one does.
                line.monoMs = max(line.monoMs, lastMono)
                lastMono = line.monoMs
                body(.line(line))
            case .skipped(let problem):
                body(.skipped(problem))
            }
        }
        guard let header else { throw .empty }
        return header
    }

    /// The line's JSON, parsed straight from the text's UTF-8 when it is contiguous.
    private static func parseJSON(_ line: Substring) -> JSONValue? {
        if let parsed = line.utf8.withContiguousStorageIfAvailable({ try? JSONValue(parsing: $0) }) {
            return parsed
        }
        return try? JSONValue(parsing: String(line))
    }

    private static func readHeader(_ value: JSONValue?) throws(RecordingError) -> RecordingHeader {
        guard let object = value?.objectValue else {
            throw .notARecording("the first line is not a JSON object")
        }
        guard object["type"]?.stringValue == "recording" else {
            throw .notARecording("the first line is not a recording header")
        }
        guard let version = object["version"]?.intValue else {
            throw .notARecording("the header has no version")
        }
        guard supportedVersions.contains(version) else { throw .unsupportedVersion(version) }
        return RecordingHeader(version: version, object: object)
    }

    private static func entry(_ parsed: JSONValue?, number: Int) -> Parsed {
        guard let value = parsed else {
            return .skipped(SkippedLine(number: number, reason: "not JSON"))
        }
        guard let object = value.objectValue else {
            return .skipped(SkippedLine(number: number, reason: "not a JSON object"))
        }
        guard let type = object["type"]?.stringValue else {
            return .skipped(SkippedLine(number: number, reason: "no type"))
        }
        guard let mono = object["mono_ms"]?.doubleValue, mono.isFinite else {
            return .skipped(SkippedLine(number: number, reason: "no mono_ms"))
        }
        guard mono >= 0, mono <= maxMonoMs else {
            return .skipped(SkippedLine(number: number, reason: "mono_ms out of range"))
        }
        return .line(RecordingLine(number: number, monoMs: mono, type: type, fields: object))
    }
}
