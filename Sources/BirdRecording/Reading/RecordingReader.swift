// Reading a recording (docs/RECORDING.md, "Reading rules"), the one reader every program uses:
// fed the lines `LineSplitter` cuts as the bytes stream in, it checks the header and turns every
// later line into a `RecordingLine` or a `RecordingProblem`. Pure; no I/O.

import BirdWire

/// What one line of a recording is, read in order.
public enum RecordingItem: Sendable, Equatable {
    /// The header line, and its text.
    case header(RecordingHeader, text: String)
    /// A well-formed line after the header.
    case line(RecordingLine)
    /// A line that is skipped, with why.
    case problem(RecordingProblem)
}

/// Reads a recording line by line: the first line must be the header (of a version in
/// `versions`); every later line is a JSON object with a string `type` and a number `mono_ms` in
/// 0…``RecordingFormat/maxMonoMs``, or a problem. Unknown types and keys are kept for the caller
/// to ignore. A `mono_ms` smaller than the previous line's is held at the previous value.
public struct RecordingReader: Sendable {
    /// The versions read, and the program's name for messages.
    public let versions: RecordingVersions
    /// The header, once read.
    public private(set) var header: RecordingHeader?
    private var lastMono = 0.0

    /// A reader before the header.
    public init(versions: RecordingVersions) {
        self.versions = versions
    }

    /// What `line` is. Throws when the header is missing, unreadable or of another version
    /// (nothing can be read then).
    public mutating func read(_ line: SplitLine) throws(RecordingError) -> RecordingItem {
        guard header != nil else {
            switch line {
            case .unreadable(let problem): throw .notARecording("the first line is \(problem.reason)")
            case .text(_, let text):
                let first = try Self.header(text, versions: versions)
                header = first
                return .header(first, text: text)
            }
        }
        switch line {
        case .unreadable(let problem): return .problem(problem)
        case .text(let number, let text):
            switch Self.parse(text, number: number) {
            case .success(var line):
                line.monoMs = max(line.monoMs, lastMono)
                lastMono = line.monoMs
                return .line(line)
            case .failure(let problem): return .problem(problem)
            }
        }
    }

    /// Call at the end of the file: a file with no header line is empty.
    public func finish() throws(RecordingError) {
        if header == nil { throw .empty }
    }

    /// Checks a header line.
    static func header(_ text: String, versions: RecordingVersions) throws(RecordingError) -> RecordingHeader {
        guard case .object(let object)? = try? JSONValue(parsing: text) else {
            throw .notARecording("the first line is not a JSON object")
        }
        let f = RecordingFields(object, text: text)
        guard let type = f.string("type") else { throw .notARecording("the first line has no type") }
        guard type == RecordingFormat.headerType else {
            throw .notARecording("the first line is a \(type) line, not the recording header")
        }
        guard let written = f.value("version") else { throw .notARecording("the header has no version") }
        guard let version = f.int("version"), versions.supported.contains(version) else {
            throw .unsupportedVersion(String(written.description.prefix(40)), versions)
        }
        return RecordingHeader(version: version, fields: f)
    }

    /// Reads one line after the header (its `mono_ms` as written, not held).
    static func parse(_ text: String, number: Int) -> Result<RecordingLine, RecordingProblem> {
        guard let value = try? JSONValue(parsing: text) else {
            return .failure(RecordingProblem(line: number, kind: .notJSON))
        }
        guard case .object(let object) = value else {
            return .failure(RecordingProblem(line: number, kind: .notObject))
        }
        let f = RecordingFields(object, text: text)
        guard let type = f.string("type") else { return .failure(RecordingProblem(line: number, kind: .noType)) }
        guard let mono = f.number("mono_ms") else {
            return .failure(RecordingProblem(line: number, kind: .noMono, type: type))
        }
        guard mono >= 0, mono <= Double(RecordingFormat.maxMonoMs) else {
            let written = f.value("mono_ms").map { String($0.description.prefix(40)) } ?? "?"
            return .failure(RecordingProblem(line: number, kind: .monoOutOfRange(written), type: type))
        }
        return .success(RecordingLine(number: number, text: text, type: type, monoMs: mono, fields: f))
    }
}
