/// A whole recording read at once: the header, the lines in order, and the lines skipped (tests,
/// fuzzing, small files; programs stream with `RecordingReader` or `RecordingFile`).
public struct Recording: Sendable, Equatable {
    /// The header.
    public var header: RecordingHeader
    /// Every readable line after the header, in file order.
    public var lines: [RecordingLine]
    /// Lines skipped, with why.
    public var problems: [RecordingProblem]

    /// A recording from its parts.
    public init(header: RecordingHeader, lines: [RecordingLine], problems: [RecordingProblem] = []) {
        self.header = header
        self.lines = lines
        self.problems = problems
    }

    /// Reads a file's bytes (``RecordingReader``'s rules).
    public static func read(bytes: [UInt8], versions: RecordingVersions) throws(RecordingError) -> Recording {
        var splitter = LineSplitter()
        var reader = RecordingReader(versions: versions)
        var lines: [RecordingLine] = []
        var problems: [RecordingProblem] = []
        for split in splitter.push(bytes) + splitter.finish() {
            switch try reader.read(split) {
            case .header: break
            case .line(let line): lines.append(line)
            case .problem(let problem): problems.append(problem)
            }
        }
        try reader.finish()
        guard let header = reader.header else { throw .empty }
        return Recording(header: header, lines: lines, problems: problems)
    }

    /// ``read(bytes:versions:)`` over text.
    public static func read(text: String, versions: RecordingVersions) throws(RecordingError) -> Recording {
        try read(bytes: Array(text.utf8), versions: versions)
    }
}
