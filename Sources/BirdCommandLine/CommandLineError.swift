/// A bad flag or value: one line for the user (values of secret flags are never echoed).
///
/// The one error type of the command-line parsers; `bird-inspect`'s, its doctor's and its
/// report's parsers name it `ArgumentError`, `DoctorArgumentError` and `ReportArgumentError`.
public struct CommandLineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line.
    public var message: String

    /// An error that says `message`.
    public init(_ message: String) { self.message = message }

    /// The line.
    public var description: String { message }
}
