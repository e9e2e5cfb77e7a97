/// Why an event's payload text did not become a JSON value (the value is then `.string(text)`,
/// nothing is changed or dropped).
public enum PayloadProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text is not JSON. Not necessarily wrong: the Pusher dialect allows any string.
    case notJSON(JSONParseError)
    /// The text has a number beyond `Double`'s range (such as `1e400`).
    case numberOutOfRange(JSONParseError)
    /// Arrays and objects nest deeper than ``JSONValue/maxNestingDepth``.
    case tooDeep(JSONParseError)
    /// The text is larger than ``EventPayload/maxParsedBytes`` and was not parsed.
    case tooLarge(bytes: Int, limit: Int)

    /// The problem a parse error stands for.
    public init(_ error: JSONParseError) {
        switch error.kind {
        case .numberOutOfRange: self = .numberOutOfRange(error)
        case .tooDeep: self = .tooDeep(error)
        case .syntax, .invalidUTF8, .invalidUnicodeEscape: self = .notJSON(error)
        }
    }

    /// The parse error, when the text was parsed.
    public var parseError: JSONParseError? {
        switch self {
        case .notJSON(let e), .numberOutOfRange(let e), .tooDeep(let e): return e
        case .tooLarge: return nil
        }
    }

    public var description: String {
        switch self {
        case .notJSON(let e): return "not JSON (\(e))"
        case .numberOutOfRange(let e): return "a number is out of range (\(e))"
        case .tooDeep(let e): return "nested too deeply (\(e))"
        case .tooLarge(let bytes, let limit): return "\(bytes) bytes, more than the \(limit) parsed"
        }
    }
}
