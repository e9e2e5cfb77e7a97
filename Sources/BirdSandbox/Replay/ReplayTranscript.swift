import BirdWire
import Foundation

/// Why a recording cannot be replayed, as one line (`bird-sandbox` prints it and exits 2).
public struct ReplayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message, on one line.
    public var message: String

    /// A message; line breaks become spaces.
    public init(_ message: String) {
        self.message = message.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// The message.
    public var description: String { message }
}

/// The entries of a `bird-inspect --record` transcript (docs/RECORDING.md, version 1) that the
/// sandbox's replay uses: the header, `state` lines and `wire` lines. Every other type is skipped,
/// as the format asks of readers.
public struct ReplayTranscript: Sendable, Equatable {
    /// The only format version this reader knows.
    public static let supportedVersion = 1
    /// The range of `mono_ms` a `state` or `wire` line may carry: 0 to 10¹⁰ ms (about 115 days).
    /// A line outside it (negative, `1e300`, not a number) is skipped with a warning, so every
    /// wait the replay derives from it is a few months at most.
    public static let monoRange: ClosedRange<Double> = 0...1e10

    /// The header line (`"type":"recording"`).
    public struct Header: Sendable, Equatable {
        /// Format version (1).
        public var version: Int
        /// The wire dialect the recorded client spoke (`bird` when the header names none).
        public var dialect: Dialect
        /// The recording tool, e.g. `bird-inspect 0.1.0`, when given.
        public var tool: String?
        /// The recorded edge host, when given (for the log only).
        public var host: String?
        /// The recorded channels, when given (for the log only).
        public var channels: [String]

        /// A header.
        public init(
            version: Int = 1, dialect: Dialect = .bird, tool: String? = nil, host: String? = nil,
            channels: [String] = []
        ) {
            self.version = version
            self.dialect = dialect
            self.tool = tool
            self.host = host
            self.channels = channels
        }
    }

    /// One entry the replay uses.
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
    public var header: Header
    /// The `state` and `wire` entries, in file order.
    public var entries: [Entry]
    /// Things the reader tolerated (a cut-off last line), for the log.
    public var warnings: [String]

    /// A transcript from its parts.
    public init(header: Header, entries: [Entry], warnings: [String] = []) {
        self.header = header
        self.entries = entries
        self.warnings = warnings
    }

    /// Reads the JSON lines of a recording. Throws for a missing or wrong header, an unknown
    /// version, or a line that is not a JSON object (except a cut-off last line, which is
    /// skipped with a warning: a recorder that was killed leaves one). A `state` or `wire` line
    /// whose `mono_ms` is missing, not a number or outside ``monoRange`` is skipped with a warning.
    public init(parsing text: String) throws(ReplayError) {
        var lines: [(number: Int, text: Substring)] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.hasSuffix("\r") ? line.dropLast() : line
            if !trimmed.allSatisfy(\.isWhitespace) { lines.append((index + 1, trimmed)) }
        }
        guard let first = lines.first else { throw ReplayError("empty file: not a recording") }
        guard let headerObject = try? JSONValue(parsing: String(first.text)), headerObject.objectValue != nil,
            headerObject["type"]?.stringValue == "recording"
        else {
            throw ReplayError(
                "line \(first.number): not a recording header (the first line must have \"type\":\"recording\")")
        }
        guard let version = headerObject["version"]?.intValue else {
            throw ReplayError("line \(first.number): the header has no version")
        }
        guard version == Self.supportedVersion else {
            throw ReplayError(
                "recording version \(version) is not supported (this bird-sandbox reads version \(Self.supportedVersion))"
            )
        }
        var header = Header(version: version)
        if let name = headerObject["dialect"]?.stringValue {
            guard let dialect = Dialect(rawValue: name) else {
                throw ReplayError("line \(first.number): unknown dialect '\(name)' (bird or pusher)")
            }
            header.dialect = dialect
        }
        header.tool = headerObject["tool"]?.stringValue
        header.host = headerObject["host"]?.stringValue
        header.channels = headerObject["channels"]?.arrayValue?.compactMap(\.stringValue) ?? []

        var entries: [Entry] = []
        var warnings: [String] = []
        for (position, line) in lines.enumerated().dropFirst() {
            guard let object = try? JSONValue(parsing: String(line.text)), object.objectValue != nil else {
                if position == lines.count - 1 {
                    warnings.append("line \(line.number): not JSON (a cut-off last line?); skipped")
                    continue
                }
                throw ReplayError("line \(line.number): not a JSON object")
            }
            guard let type = object["type"]?.stringValue else {
                throw ReplayError("line \(line.number): no \"type\"")
            }
            guard type == "state" || type == "wire" else { continue }  // other types: skipped by design
            guard let mono = object["mono_ms"]?.doubleValue, mono.isFinite else {
                warnings.append("line \(line.number): \(type) entry without a number \"mono_ms\"; skipped")
                continue
            }
            guard Self.monoRange.contains(mono) else {
                warnings.append(
                    "line \(line.number): \"mono_ms\" \(mono) is outside 0…\(Int(Self.monoRange.upperBound)); skipped")
                continue
            }
            if type == "wire" {
                let direction = object["direction"]?.stringValue
                guard direction == "in" || direction == "out", let text = object["text"]?.stringValue else {
                    throw ReplayError("line \(line.number): wire entry needs \"direction\" (in/out) and \"text\"")
                }
                entries.append(.wire(Wire(mono: mono, line: line.number, inbound: direction == "in", text: text)))
            } else {
                guard let previous = object["previous"]?.stringValue, let current = object["current"]?.stringValue
                else {
                    throw ReplayError("line \(line.number): state entry needs \"previous\" and \"current\"")
                }
                entries.append(
                    .state(
                        State(
                            mono: mono, line: line.number, previous: previous, current: current,
                            cause: object["cause"]?.stringValue, closeCode: object["close_code"]?.intValue,
                            closeReason: object["close_reason"]?.stringValue)))
            }
        }
        self.init(header: header, entries: entries, warnings: warnings)
    }

    /// Reads the recording at `path`; errors name the file.
    public static func load(path: String) throws(ReplayError) -> ReplayTranscript {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ReplayError("\(path): cannot read the file (missing, unreadable or not UTF-8)")
        }
        do {
            return try ReplayTranscript(parsing: text)
        } catch {
            throw ReplayError("\(path): \(error.message)")
        }
    }
}
