/// A recording as read: the header, the entries in order, and the lines that could not be read.
public struct Recording: Sendable, Equatable {
    /// The first line.
    public var header: RecordingHeader
    /// Every readable entry after the header, in file order.
    public var lines: [RecordingLine]
    /// Lines skipped as unreadable, with why.
    public var skipped: [SkippedLine]

    /// A recording from its parts.
    public init(header: RecordingHeader, lines: [RecordingLine], skipped: [SkippedLine] = []) {
        self.header = header
        self.lines = lines
        self.skipped = skipped
    }
}

/// A line the reader could not use (not JSON, no `type`, no usable `mono_ms`, …).
public struct SkippedLine: Sendable, Equatable {
    /// The 1-based line number.
    public var number: Int
    /// Why, in a few words.
    public var reason: String

    /// A skipped line.
    public init(number: Int, reason: String) {
        self.number = number
        self.reason = reason
    }
}

/// Why a file is not a recording this reader can summarise.
public enum RecordingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not UTF-8.
    case notUTF8
    /// Nothing but blank lines.
    case empty
    /// The first line is not a `recording` header; the text says what it is instead.
    case notARecording(String)
    /// The header's version is not one this reader knows.
    case unsupportedVersion(Int)

    /// One line for the user.
    public var message: String {
        switch self {
        case .notUTF8: return "not UTF-8 text"
        case .empty: return "empty file"
        case .notARecording(let why): return "not a recording: \(why)"
        case .unsupportedVersion(let version):
            let known = RecordingReader.supportedVersions.map(String.init).joined(separator: " and ")
            return "recording version \(version) is not supported (this report reads versions \(known))"
        }
    }

    public var description: String { message }
}
