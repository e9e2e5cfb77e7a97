import BirdRecording
import BirdWire
import Foundation

/// Why a recording cannot be replayed by the sandbox, as one line (`bird-sandbox` prints it and
/// exits 2).
public struct ServerReplayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message, on one line.
    public var message: String

    /// A message; line breaks become spaces.
    public init(_ message: String) {
        self.message = message.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// The message.
    public var description: String { message }
}

/// What the sandbox's replay takes from a `bird-inspect --record` recording (docs/RECORDING.md,
/// "Replay against a client"): the dialect of its header and its `state` and `wire` lines, read
/// through BirdRecording's reader. Every other type is skipped, as the format asks of readers.
///
/// Stricter than the inspector, since a reproduction must not guess: a line that is no entry at
/// all (not UTF-8, not JSON, not an object) is an error unless it is the last one (a recorder that
/// was killed leaves one; it is skipped with a warning), and so are an object without a `type`
/// and a `state` or `wire` line without the keys it needs. A `state` or `wire` line with a bad `mono_ms` is skipped
/// with a warning.
public struct ServerReplaySource: Sendable, Equatable {
    /// The versions the sandbox reads.
    public static let versions = RecordingVersions(reader: "bird-sandbox")

    /// A `state` or `wire` line.
    public enum Entry: Sendable, Equatable {
        /// A `state` line: a connection state change and its cause.
        case state(State)
        /// A `wire` line: a protocol message as the client saw it.
        case wire(Wire)
    }

    /// A `state` line.
    public struct State: Sendable, Equatable {
        /// Milliseconds since the recording started.
        public var mono: Double
        /// The 1-based line number in the file.
        public var line: Int
        /// `previous` (a state name of docs/PROTOCOL.md § States).
        public var previous: String
        /// `current`.
        public var current: String
        /// The `cause` text as the inspector writes it (e.g. `server closed: 4200 … (edge restarting)`).
        public var cause: String?
        /// `close_code`, when the cause carries one.
        public var closeCode: Int?
        /// `close_reason`, when a writer adds it (the inspector puts the reason in `cause`).
        public var closeReason: String?

        /// A state line.
        public init(
            mono: Double, line: Int = 0, previous: String, current: String, cause: String? = nil,
            closeCode: Int? = nil, closeReason: String? = nil
        ) {
            self.mono = mono
            self.line = line
            self.previous = previous
            self.current = current
            self.cause = cause
            self.closeCode = closeCode
            self.closeReason = closeReason
        }
    }

    /// A `wire` line.
    public struct Wire: Sendable, Equatable {
        /// Milliseconds since the recording started.
        public var mono: Double
        /// The 1-based line number in the file.
        public var line: Int
        /// `in` (server → client) or `out` (client → server).
        public var inbound: Bool
        /// The message text (redacted by the recorder).
        public var text: String

        /// A wire line.
        public init(mono: Double, line: Int = 0, inbound: Bool, text: String) {
            self.mono = mono
            self.line = line
            self.inbound = inbound
            self.text = text
        }
    }

    /// The header.
    public var header: RecordingHeader
    /// The wire dialect the recorded client spoke (`bird` when the header names none).
    public var dialect: Dialect
    /// The `state` and `wire` entries, in file order.
    public var entries: [Entry]
    /// Things the reader tolerated (a cut-off last line, a bad `mono_ms`), for the log.
    public var warnings: [String]

    /// A source from its parts.
    public init(
        header: RecordingHeader = RecordingHeader(), dialect: Dialect = .bird, entries: [Entry],
        warnings: [String] = []
    ) {
        self.header = header
        self.dialect = dialect
        self.entries = entries
        self.warnings = warnings
    }

    /// Reads the lines of a recording.
    public init(parsing text: String) throws(ServerReplayError) {
        try self.init(bytes: Array(text.utf8))
    }

    /// Reads a recording's bytes (what ``load(path:)`` streams from a file).
    public init(bytes: [UInt8]) throws(ServerReplayError) {
        var splitter = LineSplitter()
        var reader = RecordingReader(versions: Self.versions)
        var builder = Builder()
        do throws(RecordingError) {
            for line in splitter.push(bytes) + splitter.finish() { builder.take(try reader.read(line)) }
            try reader.finish()
        } catch {
            throw ServerReplayError(error.description)
        }
        self = try builder.finish()
    }

    /// Reads the recording at `path`, streamed; errors name the file.
    public static func load(path: String) throws(ServerReplayError) -> ServerReplaySource {
        var builder = Builder()
        do throws(RecordingFileError) {
            let file = try RecordingFile(path: path, versions: versions)
            while let item = try file.nextItem() { builder.take(item) }
        } catch .recording(let error) {
            throw ServerReplayError("\(path): \(error)")
        } catch {
            throw ServerReplayError("\(path): cannot read the file (\(error))")
        }
        do throws(ServerReplayError) {
            return try builder.finish()
        } catch {
            throw ServerReplayError("\(path): \(error.message)")
        }
    }

    /// The sandbox's rules over the reader's items.
    struct Builder {
        private var header: RecordingHeader?
        private var dialect = Dialect.bird
        private var entries: [Entry] = []
        private var warnings: [String] = []
        /// A line that is no entry (not UTF-8, not JSON, not an object): an error if any line follows.
        private var unreadable: RecordingProblem?
        /// The first error found (thrown at the end, so the reader's errors come first).
        private var failure: ServerReplayError?

        /// Takes one item; an error stops the reading at the end.
        mutating func take(_ item: RecordingItem) {
            guard failure == nil else { return }
            if case .header = item {
            } else if let problem = unreadable {
                failure = ServerReplayError(problem.description)
                return
            }
            switch item {
            case .header(let h, _):
                header = h
                if let name = h.dialect {
                    guard let known = Dialect(rawValue: name) else {
                        failure = ServerReplayError("unknown dialect '\(name)' in the header (bird or pusher)")
                        return
                    }
                    dialect = known
                }
            case .problem(let problem):
                if problem.kind == .noType {
                    failure = ServerReplayError(problem.description)
                } else if problem.isMalformed {
                    unreadable = problem
                } else if problem.type == "state" || problem.type == "wire" {
                    warnings.append("\(problem); skipped")
                }
            case .line(let line):
                do {
                    if let entry = try Self.entry(line) { entries.append(entry) }
                } catch {
                    failure = error
                }
            }
        }

        /// The source, or the first error.
        func finish() throws(ServerReplayError) -> ServerReplaySource {
            if let failure { throw failure }
            var warnings = warnings
            if let problem = unreadable { warnings.append("\(problem) (a cut-off last line?); skipped") }
            return ServerReplaySource(
                header: header ?? RecordingHeader(), dialect: dialect, entries: entries, warnings: warnings)
        }

        private static func entry(_ line: RecordingLine) throws(ServerReplayError) -> Entry? {
            let f = line.fields
            switch line.type {
            case "wire":
                let direction = f.string("direction")
                guard direction == "in" || direction == "out", let text = f.string("text") else {
                    throw ServerReplayError("line \(line.number): wire entry needs \"direction\" (in/out) and \"text\"")
                }
                return .wire(Wire(mono: line.monoMs, line: line.number, inbound: direction == "in", text: text))
            case "state":
                guard let previous = f.string("previous"), let current = f.string("current") else {
                    throw ServerReplayError("line \(line.number): state entry needs \"previous\" and \"current\"")
                }
                return .state(
                    State(
                        mono: line.monoMs, line: line.number, previous: previous, current: current,
                        cause: f.string("cause"), closeCode: f.int("close_code"), closeReason: f.string("close_reason"))
                )
            default:
                return nil  // other types: skipped by design
            }
        }
    }
}
