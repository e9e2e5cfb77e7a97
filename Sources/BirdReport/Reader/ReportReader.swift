import BirdRecording
import Foundation

extension RecordingVersions {
    /// The versions the report reads: 1, and 2 (a later writer's, read as far as it goes).
    public static let report = RecordingVersions(reader: "report", supported: [1, 2])
}

/// The report's side of BirdRecording's reader (docs/REPORT.md, "Reading rules"): the same
/// streaming reader as every program, with the report's versions, summarised in one pass.
public enum ReportReader {
    /// Reads a whole recording from its text (tests; the report itself summarises as it reads).
    public static func read(text: String) throws(RecordingError) -> Recording {
        try Recording.read(text: text, versions: .report)
    }

    /// Summarises a recording from its bytes in one pass, keeping no line once it is counted.
    public static func summarize(bytes: [UInt8]) throws(RecordingError) -> SessionSummary {
        var splitter = LineSplitter()
        var reader = RecordingReader(versions: .report)
        var summarizer = Summarizer()
        for line in splitter.push(bytes) + splitter.finish() { summarizer.take(try reader.read(line)) }
        try reader.finish()
        return try summarizer.finish()
    }

    /// ``summarize(bytes:)`` over text.
    public static func summarize(text: String) throws(RecordingError) -> SessionSummary {
        try summarize(bytes: Array(text.utf8))
    }

    /// A summary built item by item as a recording streams in (`RecordingReader`, `RecordingFile`);
    /// the same summary as `SessionSummary(recording:)`.
    public struct Summarizer {
        private var builder: SummaryBuilder?
        private var problems: [RecordingProblem] = []

        /// A summary of nothing yet.
        public init() {}

        /// Takes the next item.
        public mutating func take(_ item: RecordingItem) {
            switch item {
            case .header(let header, _): builder = SummaryBuilder(header: header)
            case .line(let line): builder?.take(line)
            case .problem(let problem): problems.append(problem)
            }
        }

        /// The summary; a recording without a header is empty.
        public func finish() throws(RecordingError) -> SessionSummary {
            guard var builder else { throw .empty }
            return builder.finish(skipped: problems)
        }
    }
}
