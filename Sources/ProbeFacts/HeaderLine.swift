/// One HTTP header field, `Name: value`: one the server sent, or one to send (the doctor's
/// `--auth-header`, whose values are secrets).
public struct HeaderLine: Sendable, Equatable {
    /// The field name.
    public var name: String
    /// The value.
    public var value: String

    /// Creates a header line.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
