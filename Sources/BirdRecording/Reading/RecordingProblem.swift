/// A line of a recording that cannot be used; readers skip it and say why (docs/RECORDING.md,
/// "Reading rules").
public struct RecordingProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the line.
    public enum Kind: Sendable, Equatable {
        /// Not UTF-8 (a file cut inside a character, say).
        case notUTF8
        /// Longer than the line limit (bytes); not held in memory.
        case tooLong(Int)
        /// Not JSON (a line cut off by a crash, say).
        case notJSON
        /// JSON, but not an object.
        case notObject
        /// An object without a string `type`.
        case noType
        /// No number `mono_ms`.
        case noMono
        /// A `mono_ms` outside 0…``RecordingFormat/maxMonoMs``, as written.
        case monoOutOfRange(String)
        /// A line its reader cannot use for a reason of its own (a `state` line without `current`).
        case incomplete(String)
    }

    /// Line number in the file, from 1.
    public var line: Int
    /// What is wrong.
    public var kind: Kind
    /// The line's `type`, when it has one.
    public var type: String?

    /// A problem.
    public init(line: Int, kind: Kind, type: String? = nil) {
        self.line = line
        self.kind = kind
        self.type = type
    }

    /// A reader's own problem with a line of type `type` (``Kind/incomplete(_:)``).
    public init(line: Int, type: String?, reason: String) {
        self.init(line: line, kind: .incomplete(reason), type: type)
    }

    /// What is wrong, in a few words ("not JSON", "mono_ms 1e300 is outside 0…10000000000").
    public var reason: String {
        switch kind {
        case .notUTF8: return "not UTF-8 (cut inside a character?)"
        case .tooLong(let limit): return "longer than \(limit) bytes"
        case .notJSON: return "not JSON"
        case .notObject: return "not a JSON object"
        case .noType: return "no type"
        case .noMono: return "no mono_ms"
        case .monoOutOfRange(let written): return "mono_ms \(written) is outside 0…\(RecordingFormat.maxMonoMs)"
        case .incomplete(let why): return why
        }
    }

    /// Whether the line is no entry at all — not text, not a JSON object with a string `type` —
    /// rather than an entry with a bad clock or missing keys.
    public var isMalformed: Bool {
        switch kind {
        case .notUTF8, .tooLong, .notJSON, .notObject, .noType: return true
        case .noMono, .monoOutOfRange, .incomplete: return false
        }
    }

    /// "line 12: not JSON".
    public var description: String { "line \(line): \(reason)" }
}
