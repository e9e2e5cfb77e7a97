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
        var header: RecordingHeader?
        var lines: [RecordingLine] = []
        var skipped: [SkippedLine] = []
        var lastMono = 0.0
        var number = 0
        // Lines end at LF bytes ("\r\n" is one Character in Swift, so split the UTF-8).
        for raw in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            var bytes = raw
            if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
            if bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { continue }
            let line = Substring(bytes)
            if header == nil {
                header = try readHeader(String(line))
                continue
            }
            switch parse(String(line), number: number) {
            case .line(var entry):
                // mono_ms never decreases in a good recording; hold the clock if one does.
                entry.monoMs = max(entry.monoMs, lastMono)
                lastMono = entry.monoMs
                lines.append(entry)
            case .skipped(let problem):
                skipped.append(problem)
            }
        }
        guard let header else { throw .empty }
        return Recording(header: header, lines: lines, skipped: skipped)
    }

    private static func readHeader(_ line: String) throws(RecordingError) -> RecordingHeader {
        guard let value = try? JSONValue(parsing: line), let object = value.objectValue else {
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

    private enum Parsed {
        case line(RecordingLine)
        case skipped(SkippedLine)
    }

    private static func parse(_ line: String, number: Int) -> Parsed {
        guard let value = try? JSONValue(parsing: line) else {
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
