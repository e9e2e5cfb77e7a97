/// The versions a program reads, and its name for the message that refuses another.
public struct RecordingVersions: Sendable, Equatable {
    /// How the program names itself: "bird-inspect", "bird-sandbox", "report".
    public var reader: String
    /// The versions it reads.
    public var supported: [Int]

    /// A reader of `supported` versions.
    public init(reader: String, supported: [Int] = [RecordingFormat.version]) {
        self.reader = reader
        self.supported = supported
    }

    /// "version 1", "versions 1 and 2".
    public var text: String {
        let numbers = supported.map(String.init)
        guard let last = numbers.last, numbers.count > 1 else { return "version \(numbers.first ?? "none")" }
        return "versions " + numbers.dropLast().joined(separator: ", ") + " and " + last
    }
}

/// Why a file cannot be read as a recording at all (a bad single line is a `RecordingProblem`).
public enum RecordingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No lines (or only blank ones).
    case empty
    /// The first line is not a recording header; the reason says what it is.
    case notARecording(String)
    /// A header of a version the reader does not read: the version as written in the file.
    case unsupportedVersion(String, RecordingVersions)

    /// One line for the user (the caller puts the file name in front).
    public var description: String {
        switch self {
        case .empty: return "the file is empty (not a recording)"
        case .notARecording(let why): return "not a bird-inspect recording: \(why)"
        case .unsupportedVersion(let written, let versions):
            return "recording version \(written) is not supported (this \(versions.reader) reads \(versions.text))"
        }
    }
}
