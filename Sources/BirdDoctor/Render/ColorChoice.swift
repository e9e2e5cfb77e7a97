/// `--color auto|always|never`.
public enum ColorChoice: String, Sendable, CaseIterable {
    /// Colour on a terminal, unless `NO_COLOR` is set (non-empty) or `TERM` is `dumb`.
    case auto
    /// Always colour (the flag wins over `NO_COLOR`).
    case always
    /// Never colour.
    case never

    /// Whether to colour output written to a terminal (`isTerminal`) under `environment`.
    public func enabled(isTerminal: Bool, environment: [String: String]) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
            if environment["TERM"] == "dumb" { return false }
            return isTerminal
        }
    }
}
