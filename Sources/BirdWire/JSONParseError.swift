/// Why a text is not valid JSON (or not a JSON value this model can hold), with the byte offset
/// where parsing stopped.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What class of problem stopped the parser.
    public enum Kind: String, Sendable, Equatable, CustomStringConvertible {
        /// Not RFC 8259 JSON: an unexpected character or end, a bad escape, a control character
        /// in a string, text after the value…
        case syntax
        /// A string's bytes are not valid UTF-8.
        case invalidUTF8
        /// A `\u` escape names a lone or mismatched UTF-16 surrogate.
        case invalidUnicodeEscape
        /// A number whose magnitude is beyond `Double`'s finite range (such as `1e400`): kept
        /// neither as a number that became infinity nor as anything else.
        case numberOutOfRange
        /// Arrays and objects nested deeper than ``JSONValue/maxNestingDepth``.
        case tooDeep

        public var description: String { rawValue }
    }

    /// What class of problem this is.
    public var kind: Kind
    /// What was wrong, for people.
    public var message: String
    /// Byte offset into the input.
    public var offset: Int

    /// Creates an error; `kind` defaults to ``Kind/syntax``.
    public init(kind: Kind = .syntax, message: String, offset: Int) {
        self.kind = kind
        self.message = message
        self.offset = offset
    }

    public var description: String { "invalid JSON at byte \(offset): \(message)" }
}
