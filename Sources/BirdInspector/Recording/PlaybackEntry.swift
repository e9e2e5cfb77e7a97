// A recording line as the TUI plays it: its E line decoded back into a client event (wire, auth
// and unknown lines count as entries but change nothing), with a summary for the footer.

import BirdRecording
import BirdWire
import Foundation

/// One entry the TUI plays.
public struct PlaybackEntry: Sendable, Equatable {
    /// Line number in the file.
    public var line: Int
    /// Milliseconds since the recording started.
    public var monoMs: Double
    /// When it happened (the line's `ts`).
    public var time: Date
    /// The line's `type`.
    public var type: String
    /// The client event for E lines (nil for `wire`, `auth` and unknown types).
    public var event: ClientEvent?
    /// A short description for the footer ("wire in pusher:ping", "auth channel private-x → 200").
    public var summary: String

    /// An entry.
    public init(line: Int, monoMs: Double, time: Date, type: String, event: ClientEvent?, summary: String) {
        self.line = line
        self.monoMs = monoMs
        self.time = time
        self.type = type
        self.event = event
        self.summary = summary
    }

    /// The entry the TUI plays for a line, or why it cannot be played (an E line without its
    /// required keys). A line without a readable `ts` is placed at `startedAt` + `mono_ms`.
    public static func make(_ line: RecordingLine, startedAt: Date) -> Result<PlaybackEntry, RecordingProblem> {
        let time = line.time ?? Checked.date(startedAt, plus: line.monoMs / 1000)
        let event = line.isEventLine ? JSONLines.decode(line.fields) : nil
        if event == nil && line.isEventLine {
            return .failure(
                RecordingProblem(
                    line: line.number, type: line.type,
                    reason: "a \(line.type) line without its required keys"))
        }
        return .success(
            PlaybackEntry(
                line: line.number, monoMs: line.monoMs, time: time, type: line.type, event: event,
                summary: summary(line, event)))
    }

    private static func summary(_ line: RecordingLine, _ event: ClientEvent?) -> String {
        let f = line.fields
        switch line.type {
        case "wire":
            let direction = f.string("direction") ?? "?"
            let text = f.string("text") ?? ""
            var name = "message"
            if case .object(let m)? = try? JSONValue(parsing: text) {
                let w = RecordingFields(m)
                name = (w.string("event") ?? "message") + (w.string("channel").map { " \($0)" } ?? "")
            }
            return "wire \(direction) \(name)"
        case "auth":
            var s = "auth \(f.string("kind") ?? "?")"
            if let ch = f.string("channel") { s += " \(ch)" }
            if let status = f.int("status") {
                s += " → \(status)"
            } else if let error = f.string("error") {
                s += " → \(error)"
            }
            if let ms = f.int("ms") { s += " (\(ms) ms)" }
            return s
        default:
            guard let event else { return line.type }
            switch event {
            case .stateChanged(let c):
                return "state \(c.previous.rawValue) → \(c.current.rawValue)" + (c.cause.map { " · \($0.text)" } ?? "")
            case .event(let e): return "event \(e.channel) \(e.event)"
            default:
                return JSONLines.type(event) + (event.channel.map { " \($0)" } ?? "")
            }
        }
    }
}

/// A whole recording read for the TUI at once (tests, the fuzz harness, small files; `--replay`
/// streams instead, through a `PlaybackIndex` and windows of entries).
public struct PlaybackRecording: Sendable {
    /// The versions the inspector reads.
    public static let versions = RecordingVersions(reader: "bird-inspect")

    /// The header.
    public var header: RecordingHeader
    /// The header's `ts`: when the recording started (the epoch when unreadable).
    public var startedAt: Date
    /// The playable entries, in file order.
    public var entries: [PlaybackEntry]
    /// Lines skipped, with why.
    public var problems: [RecordingProblem]

    /// Reads a whole file's bytes: the header must come first (blank lines are ignored); bad lines
    /// and E lines that cannot be decoded are skipped and listed in `problems`.
    public init(bytes: [UInt8]) throws(RecordingError) {
        let recording = try Recording.read(bytes: bytes, versions: Self.versions)
        header = recording.header
        startedAt = recording.header.startedAt ?? Date(timeIntervalSince1970: 0)
        entries = []
        problems = recording.problems
        for line in recording.lines {
            switch PlaybackEntry.make(line, startedAt: startedAt) {
            case .success(let entry): entries.append(entry)
            case .failure(let problem): problems.append(problem)
            }
        }
        problems.sort { $0.line < $1.line }
    }

    /// ``init(bytes:)`` over text.
    public init(text: String) throws(RecordingError) {
        try self.init(bytes: Array(text.utf8))
    }
}
