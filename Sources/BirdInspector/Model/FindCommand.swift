// The `:` commands of the event log's filter, search, marks, export and copy (the terminal's
// own: `--jsonl` scripts refuse them).

import Foundation

/// A `:` command that works on the event log rather than the client.
public enum FindCommand: Sendable, Equatable {
    /// `filter [QUERY]`: set the filter (empty: clear it).
    case filter(String)
    /// `search [QUERY]`: set the search (empty: clear it).
    case search(String)
    /// `next [mark]`: the next search match (or mark).
    case next(mark: Bool)
    /// `prev [mark]`: the previous search match (or mark).
    case previous(mark: Bool)
    /// `mark`: toggle the selected entry's mark.
    case mark
    /// `mark clear`: remove every mark.
    case clearMarks
    /// `export [PATH]`: write the filtered log as JSON lines (nil: the default file name).
    case export(path: String?)
    /// `copy`: the selected entry's JSON line to the clipboard.
    case copy

    /// The command words (also in `CommandText.verbs`, for prefixes and completion).
    public static let verbs = ["filter", "search", "next", "prev", "mark", "export", "copy"]

    /// The commands, for help text.
    public static let usage =
        "filter [QUERY] · search [QUERY] · next [mark] · prev [mark] · mark [clear] · export [PATH] · copy"

    /// Parses a command line whose first word resolved to `verb` (one of `verbs`).
    public static func parse(verb: String, line: String) -> Result<FindCommand, CommandTextError> {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let rest =
            trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }).map {
                trimmed[$0...].trimmingCharacters(in: .whitespaces)
            } ?? ""
        switch verb {
        case "filter": return .success(.filter(rest))
        case "search": return .success(.search(rest))
        case "next", "prev":
            guard rest.isEmpty || rest.lowercased() == "mark" else { return .failure(.init("usage: \(verb) [mark]")) }
            return .success(verb == "next" ? .next(mark: !rest.isEmpty) : .previous(mark: !rest.isEmpty))
        case "mark":
            if rest.isEmpty { return .success(.mark) }
            return rest.lowercased() == "clear" ? .success(.clearMarks) : .failure(.init("usage: mark [clear]"))
        case "export": return .success(.export(path: rest.isEmpty ? nil : rest))
        case "copy": return rest.isEmpty ? .success(.copy) : .failure(.init("copy takes no arguments"))
        default: return .failure(.init("unknown command \(verb)"))
        }
    }
}
