// Reading a recording (docs/RECORDING.md): the header check, each line's `mono_ms` and `type`, the
// E lines decoded back into client events for the TUI, and `ts` replaced for `--jsonl --replay`.

import BirdWire
import Foundation

/// Why a file cannot be replayed at all (bad single lines are `TranscriptProblem`s instead).
public enum TranscriptError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No lines.
    case empty
    /// The first line is not a recording header; the reason says what it is.
    case notARecording(String)
    /// A header of a version this build does not read; the version as written in the file.
    case unsupportedVersion(String)

    /// One line for the user (the caller puts the file name in front).
    public var description: String {
        switch self {
        case .empty: return "the file is empty (not a recording)"
        case .notARecording(let why): return "not a bird-inspect recording: \(why)"
        case .unsupportedVersion(let v):
            return "recording version \(v) is not supported (this bird-inspect reads version \(TranscriptHeader.currentVersion))"
        }
    }
}

/// A line that cannot be played; it is skipped.
public struct TranscriptProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// Line number in the file, from 1.
    public var line: Int
    /// What is wrong.
    public var reason: String

    /// A problem.
    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    /// "line 12: not JSON".
    public var description: String { "line \(line): \(reason)" }
}

/// One line of a recording after the header, read.
public struct TranscriptLine: Sendable {
    /// Line number in the file, from 1.
    public var number: Int
    /// The line as in the file.
    public var text: String
    /// Its `type`.
    public var type: String
    /// Its `mono_ms`.
    public var monoMs: Double
    /// Its `ts`, when readable.
    public var time: Date?
    /// Its members.
    public var object: JSONObject
}

/// One entry the TUI plays.
public struct ReplayEntry: Sendable, Equatable {
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
}

/// A whole recording, read at once (tests, the fuzz harness, small files; replays stream instead).
public struct Recording: Sendable {
    /// The header.
    public var header: TranscriptHeader
    /// The header's `ts`: when the recording started.
    public var startedAt: Date
    /// The playable entries, in file order.
    public var entries: [ReplayEntry]
    /// Lines skipped, with why.
    public var problems: [TranscriptProblem]
}

/// What one line of a recording is, read in order (`RecordingReader`).
public enum RecordingItem: Sendable {
    /// The header line, its `ts`, and its text.
    case header(TranscriptHeader, Date, text: String)
    /// A well-formed line after the header.
    case line(TranscriptLine)
    /// A line that is skipped, with why.
    case problem(TranscriptProblem)
}

/// Reads a recording line by line as it streams in: the first line must be the header, every later
/// line is a `TranscriptLine` or a problem. Pure; feed it what `LineSplitter` cuts.
public struct RecordingReader: Sendable {
    /// The header, once read.
    public private(set) var header: TranscriptHeader?
    /// The header's `ts` (the epoch until the header is read).
    public private(set) var startedAt = Date(timeIntervalSince1970: 0)

    /// A reader before the header.
    public init() {}

    /// What `line` is. Throws when the header is missing or unreadable (nothing can be played).
    public mutating func read(_ line: SplitLine) throws(TranscriptError) -> RecordingItem {
        guard header != nil else {
            switch line {
            case .unreadable(let problem): throw .notARecording("the first line is \(problem.reason)")
            case .text(_, let text):
                let (h, date) = try TranscriptReader.header(text)
                header = h
                startedAt = date
                return .header(h, date, text: text)
            }
        }
        switch line {
        case .unreadable(let problem): return .problem(problem)
        case .text(let number, let text):
            switch TranscriptReader.parse(text, number: number) {
            case .success(let l): return .line(l)
            case .failure(let p): return .problem(p)
            }
        }
    }

    /// Call at the end of the file: a file with no header line is empty.
    public func finish() throws(TranscriptError) {
        if header == nil { throw .empty }
    }
}

/// Reading recordings.
public enum TranscriptReader {
    /// Checks the header line; the returned date is its `ts`.
    public static func header(_ line: String) throws(TranscriptError) -> (TranscriptHeader, Date) {
        guard case .object(let object)? = try? JSONValue(parsing: line) else {
            throw .notARecording("the first line is not a JSON object")
        }
        let f = Fields(object)
        guard let type = f.string("type") else { throw .notARecording("the first line has no type") }
        guard type == "recording" else { throw .notARecording("the first line is a \(type) line, not the recording header") }
        guard let versionValue = f.node("version") else { throw .notARecording("the header has no version") }
        guard f.int("version") == TranscriptHeader.currentVersion else {
            throw .unsupportedVersion(String(versionValue.description.prefix(40)))
        }
        let port = f.int("port").flatMap { (0...65535).contains($0) ? $0 : nil } ?? 0
        let header = TranscriptHeader(
            version: TranscriptHeader.currentVersion, tool: f.string("tool") ?? "unknown", dialect: f.string("dialect") ?? "bird",
            host: f.string("host") ?? "unknown", port: port, tls: f.bool("tls") ?? false,
            appKey: f.string("app_key") ?? "", channels: channelList(f.node("channels")))
        return (header, f.string("ts").flatMap(TimeText.parseISO) ?? Date(timeIntervalSince1970: 0))
    }

    /// Reads one line after the header: a JSON object with a string `type` and a `mono_ms` from 0
    /// to `Checked.maxRecordedMs` (10¹⁰ ms).
    public static func parse(_ text: String, number: Int) -> Result<TranscriptLine, TranscriptProblem> {
        guard let value = try? JSONValue(parsing: text) else {
            return .failure(TranscriptProblem(line: number, reason: "not JSON"))
        }
        guard case .object(let object) = value else {
            return .failure(TranscriptProblem(line: number, reason: "not a JSON object"))
        }
        let f = Fields(object)
        guard let type = f.string("type") else { return .failure(TranscriptProblem(line: number, reason: "no type")) }
        guard let mono = f.number("mono_ms") else { return .failure(TranscriptProblem(line: number, reason: "no mono_ms")) }
        guard mono.isFinite, mono >= 0, mono <= Double(Checked.maxRecordedMs) else {
            let shown = f.node("mono_ms").map { String($0.description.prefix(40)) } ?? "?"
            return .failure(TranscriptProblem(line: number, reason: "mono_ms \(shown) is outside 0…\(Checked.maxRecordedMs)"))
        }
        return .success(TranscriptLine(number: number, text: text, type: type, monoMs: mono,
                                       time: f.string("ts").flatMap(TimeText.parseISO), object: object))
    }

    /// The entry the TUI plays for a line, or why it cannot be played (an E line without its
    /// required keys).
    public static func entry(_ line: TranscriptLine, startedAt: Date) -> Result<ReplayEntry, TranscriptProblem> {
        let time = line.time ?? Checked.date(startedAt, plus: line.monoMs / 1000)
        let event = isClientType(line.type) ? JSONLines.decode(Fields(line.object, text: line.text)) : nil
        if event == nil && isClientType(line.type) {
            return .failure(TranscriptProblem(line: line.number, reason: "a \(line.type) line without its required keys"))
        }
        return .success(ReplayEntry(line: line.number, monoMs: line.monoMs, time: time, type: line.type, event: event,
                                    summary: summary(line, event)))
    }

    /// Reads a whole file's bytes: the header must come first (blank lines are ignored); bad lines
    /// and E lines that cannot be decoded are skipped and listed in `problems`.
    public static func read(bytes: [UInt8]) throws(TranscriptError) -> Recording {
        var splitter = LineSplitter()
        let lines = splitter.push(bytes) + splitter.finish()
        var reader = RecordingReader()
        var entries: [ReplayEntry] = []
        var problems: [TranscriptProblem] = []
        for line in lines {
            switch try reader.read(line) {
            case .header: break
            case .problem(let p): problems.append(p)
            case .line(let l):
                switch entry(l, startedAt: reader.startedAt) {
                case .success(let e): entries.append(e)
                case .failure(let p): problems.append(p)
                }
            }
        }
        try reader.finish()
        guard let header = reader.header else { throw .empty }
        return Recording(header: header, startedAt: reader.startedAt, entries: entries, problems: problems)
    }

    /// `read(bytes:)` over text.
    public static func read(_ text: String) throws(TranscriptError) -> Recording {
        try read(bytes: Array(text.utf8))
    }

    /// The non-blank lines of a text with their numbers (from 1), as `LineSplitter` cuts them.
    public static func lines(_ text: String) -> [(number: Int, text: String)] {
        var splitter = LineSplitter()
        return (splitter.push(Array(text.utf8)) + splitter.finish()).compactMap { line in
            if case .text(let n, let t) = line { return (n, t) }
            return nil
        }
    }

    /// The line with its `ts` value replaced by `time` and every other byte unchanged (a line
    /// without `ts` gets one in front).
    public static func restamp(_ text: String, ts time: Date) -> String {
        let stamp = TimeText.iso(time).jsonQuoted
        let bytes = Array(text.utf8)
        guard let members = JSONValue.memberRanges(in: text) else { return text }
        if let ts = members.first(where: { $0.key == "ts" }) {
            return String(decoding: bytes[..<ts.value.lowerBound], as: UTF8.self) + stamp
                + String(decoding: bytes[ts.value.upperBound...], as: UTF8.self)
        }
        guard let brace = bytes.firstIndex(of: UInt8(ascii: "{")) else { return text }
        let rest = String(decoding: bytes[(brace + 1)...], as: UTF8.self)
        return String(decoding: bytes[...brace], as: UTF8.self) + "\"ts\":" + stamp + (members.isEmpty ? "" : ",") + rest
    }

    /// Whether `type` is one of the E line types (docs/PROTOCOL.md § Headless output, plus the inspector's `dropped`).
    public static func isClientType(_ type: String) -> Bool {
        ["state", "retry", "subscribed", "subscription_error", "event", "members", "member_added", "member_removed",
         "connection_count", "signin", "signin_error", "error", "sent", "command_error", "dropped"].contains(type)
    }

    private static func channelList(_ value: JSONValue?) -> [String] {
        value?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    private static func summary(_ line: TranscriptLine, _ event: ClientEvent?) -> String {
        let f = Fields(line.object)
        switch line.type {
        case "wire":
            let direction = f.string("direction") ?? "?"
            let text = f.string("text") ?? ""
            var name = "message"
            if case .object(let m)? = try? JSONValue(parsing: text) {
                let w = Fields(m)
                name = (w.string("event") ?? "message") + (w.string("channel").map { " \($0)" } ?? "")
            }
            return "wire \(direction) \(name)"
        case "auth":
            var s = "auth \(f.string("kind") ?? "?")"
            if let ch = f.string("channel") { s += " \(ch)" }
            if let status = f.int("status") { s += " → \(status)" } else if let error = f.string("error") { s += " → \(error)" }
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
