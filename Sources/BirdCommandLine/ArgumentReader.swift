/// Reads a command line one flag at a time: `--flag value`, `--flag=value` and bare flags.
///
/// The callers (`bird-inspect`'s and `bird-inspect doctor`'s parsers) switch on ``flag`` and ask
/// for its value; each error is a sentence for the user, which the caller wraps in its own error
/// type.
package struct ArgumentReader {
    private let arguments: [String]
    private var index = -1
    private var inline: String?
    /// The current argument as given (`--host=a`).
    package private(set) var argument = ""
    /// The current flag (`--host` of `--host=a`), or an argument that is no flag.
    package private(set) var flag = ""

    /// A reader before the first of `arguments` (the program name not included).
    package init(_ arguments: [String]) {
        self.arguments = arguments
    }

    /// Moves to the next argument; false when there is none.
    package mutating func next() -> Bool {
        index += 1
        guard index < arguments.count else { return false }
        argument = arguments[index]
        flag = argument
        inline = nil
        if flag.hasPrefix("--"), let eq = flag.firstIndex(of: "=") {
            inline = String(flag[flag.index(after: eq)...])
            flag = String(flag[..<eq])
        }
        return true
    }

    /// The current flag's value: what follows its `=`, else the next argument (consumed).
    package mutating func value<Failure: Error>(
        _ failure: (String) -> Failure
    ) throws(Failure) -> String {
        if let inline { return inline }
        index += 1
        guard index < arguments.count else { throw failure("\(flag) needs a value") }
        return arguments[index]
    }

    /// Checks that the current flag came without `=value`.
    package func noValue<Failure: Error>(_ failure: (String) -> Failure) throws(Failure) {
        if inline != nil { throw failure("\(flag) takes no value") }
    }

    /// What to say about the current argument when no case matched it.
    package var unknown: String {
        flag.hasPrefix("-") ? "unknown flag \(flag)" : "unexpected argument \(flag)"
    }
}
