// Reading a recording (docs/RECORDING.md): the header check, each line's `mono_ms` and `type`, the
// E lines decoded back into client events for the TUI, and `ts` replaced for `--jsonl --replay`.

import Foundation

/// Why a file cannot be replayed at all (bad single lines are `TranscriptProblem`s instead).
public enum TranscriptError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No lines.
    case empty
    /// The first line is not a recording header; the reason says what it is.
    case notARecording(String)
    /// A header of a version this build does not read.
    case unsupportedVersion(Int)

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
    public var members: [JSONMember]
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

/// A whole recording, read for the TUI.
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

/// Reading recordings.
public enum TranscriptReader {
    /// Checks the header line; the returned date is its `ts`.
    public static func header(_ line: String) throws(TranscriptError) -> (TranscriptHeader, Date) {
        guard case .object(let members)? = JSONText.parse(line) else {
            throw .notARecording("the first line is not a JSON object")
        }
        let f = Fields(members)
        guard let type = f.string("type") else { throw .notARecording("the first line has no type") }
        guard type == "recording" else { throw .notARecording("the first line is a \(type) line, not the recording header") }
        guard let version = f.int("version") else { throw .notARecording("the header has no version") }
        guard version == TranscriptHeader.currentVersion else { throw .unsupportedVersion(version) }
        let header = TranscriptHeader(
            version: version, tool: f.string("tool") ?? "unknown", dialect: f.string("dialect") ?? "bird",
            host: f.string("host") ?? "unknown", port: f.int("port") ?? 0, tls: f.bool("tls") ?? false,
            appKey: f.string("app_key") ?? "", channels: channelList(f.node("channels")))
        return (header, f.string("ts").flatMap(TimeText.parseISO) ?? Date(timeIntervalSince1970: 0))
    }

    /// Reads one line after the header: a JSON object with a numeric `mono_ms` and a string `type`.
    public static func parse(_ text: String, number: Int) -> Result<TranscriptLine, TranscriptProblem> {
        guard let node = JSONText.parse(text) else { return .failure(TranscriptProblem(line: number, reason: "not JSON")) }
        guard case .object(let members) = node else {
            return .failure(TranscriptProblem(line: number, reason: "not a JSON object"))
        }
        let f = Fields(members)
        guard let type = f.string("type") else { return .failure(TranscriptProblem(line: number, reason: "no type")) }
        guard let mono = f.number("mono_ms"), mono.isFinite, mono >= 0 else {
            return .failure(TranscriptProblem(line: number, reason: "no mono_ms"))
        }
        return .success(TranscriptLine(number: number, text: text, type: type, monoMs: mono,
                                       time: f.string("ts").flatMap(TimeText.parseISO), members: members))
    }

    /// Reads a whole file's text: the header must come first (blank lines are ignored); bad lines
    /// and E lines that cannot be decoded are skipped and listed in `problems`.
    public static func read(_ text: String) throws(TranscriptError) -> Recording {
        var lines = Self.lines(text)
        guard !lines.isEmpty else { throw .empty }
        let (header, startedAt) = try Self.header(lines.removeFirst().text)
        var entries: [ReplayEntry] = []
        var problems: [TranscriptProblem] = []
        for (number, text) in lines {
            switch parse(text, number: number) {
            case .failure(let problem): problems.append(problem)
            case .success(let line):
                let time = line.time ?? startedAt.addingTimeInterval(line.monoMs / 1000)
                let event = JSONLines.decode(line.members)
                if event == nil && isClientType(line.type) {
                    problems.append(TranscriptProblem(line: number, reason: "a \(line.type) line without its required keys"))
                    continue
                }
                entries.append(ReplayEntry(line: number, monoMs: line.monoMs, time: time, type: line.type, event: event,
                                           summary: summary(line, event)))
            }
        }
        return Recording(header: header, startedAt: startedAt, entries: entries, problems: problems)
    }

    /// The non-blank lines of a file with their numbers (from 1). Lines end at LF only (a JSON
    /// string may hold other line separators); a CR before the LF is dropped.
    public static func lines(_ text: String) -> [(number: Int, text: String)] {
        var out: [(number: Int, text: String)] = []
        for (i, raw) in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let bytes = raw.last == 0x0D ? raw.dropLast() : raw[...]
            guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
            out.append((i + 1, String(decoding: bytes, as: UTF8.self)))
        }
        return out
    }

    /// The line with its `ts` value replaced by `time` and every other byte unchanged (a line
    /// without `ts` gets one in front).
    public static func restamp(_ text: String, ts time: Date) -> String {
        let stamp = JSONText.quote(TimeText.iso(time))
        let bytes = Array(text.utf8)
        guard let members = JSONText.memberRanges(text) else { return text }
        if let ts = members.first(where: { $0.key == "ts" }) {
            return String(decoding: bytes[..<ts.value.lowerBound], as: UTF8.self) + stamp
                + String(decoding: bytes[ts.value.upperBound...], as: UTF8.self)
        }
        guard let brace = bytes.firstIndex(of: UInt8(ascii: "{")) else { return text }
        let rest = String(decoding: bytes[(brace + 1)...], as: UTF8.self)
        return String(decoding: bytes[...brace], as: UTF8.self) + "\"ts\":" + stamp + (members.isEmpty ? "" : ",") + rest
    }

    /// Whether `type` is one of the line types of docs/PROTOCOL.md § Headless output.
    public static func isClientType(_ type: String) -> Bool {
        ["state", "retry", "subscribed", "subscription_error", "event", "members", "member_added", "member_removed",
         "connection_count", "signin", "signin_error", "error", "sent", "command_error"].contains(type)
    }

    private static func channelList(_ node: JSONNode?) -> [String] {
        guard case .array(let items)? = node else { return [] }
        return items.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
    }

    private static func summary(_ line: TranscriptLine, _ event: ClientEvent?) -> String {
        let f = Fields(line.members)
        switch line.type {
        case "wire":
            let direction = f.string("direction") ?? "?"
            let text = f.string("text") ?? ""
            var name = "message"
            if case .object(let m)? = JSONText.parse(text) {
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
