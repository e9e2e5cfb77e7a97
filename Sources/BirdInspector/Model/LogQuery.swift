// The query language of the event log's filter (`/`) and search (`f`): terms AND-ed, each a
// bare word, a "quoted phrase", a /regex/ or a field (`ch:` `ev:` `dir:` `kind:`), `!` negating.

import Foundation

/// What a log entry is, for `kind:` in a query.
public enum LogEntryKind: String, Sendable, CaseIterable {
    /// The connection's life: states, retries, network paths, endpoints, scenario steps.
    case state
    /// App events: received on a channel, or client events sent.
    case event
    /// Errors: subscription and sign-in failures, error reports, refused commands, drops.
    case error
    /// The protocol's own messages: subscribed, members, counts, sign-in, ping round trips.
    case wire

    /// The kind of a log entry's event.
    public static func of(_ event: ClientEvent) -> LogEntryKind {
        switch event {
        case .stateChanged, .retryScheduled, .networkPath, .endpoint, .scenario: return .state
        case .event, .sent: return .event
        case .subscriptionError, .signinFailed, .error, .commandError, .dropped: return .error
        case .subscribed, .membersSnapshot, .memberAdded, .memberRemoved, .connectionCount, .signinSucceeded,
            .roundTrip:
            return .wire
        }
    }
}

/// Which way a log entry's message travelled, for `dir:` in a query.
public enum LogDirection: String, Sendable, CaseIterable {
    /// Received from the edge: channel events and the protocol's messages.
    case `in`
    /// Sent by this inspector: client events.
    case out

    /// The direction of a log entry's event (nil: not a message, e.g. a state change).
    public static func of(_ event: ClientEvent) -> LogDirection? {
        switch event {
        case .sent: return .out
        case .event, .subscribed, .membersSnapshot, .memberAdded, .memberRemoved, .connectionCount,
            .signinSucceeded:
            return .in
        default: return nil
        }
    }
}

/// Why a query was refused (one line, for the status line).
public struct LogQueryError: Error, Sendable, Equatable {
    /// What is wrong.
    public var message: String
    /// An error.
    public init(_ message: String) { self.message = message }
}

/// A parsed filter or search query: every term must match (AND). Empty text matches everything.
/// Matching ignores case everywhere (a regex can turn that off with `(?-i)`).
public struct LogQuery: Sendable, Equatable {
    /// The text as typed.
    public let text: String
    let terms: [Term]

    /// One condition on an entry.
    enum Term: Sendable {
        case text(Pattern)
        case channel(Pattern)
        case event(Pattern)
        case direction(Set<LogDirection>)
        case kind(Set<LogEntryKind>)
        indirect case not(Term)
    }

    /// How a term's value matches a string.
    enum Pattern: Sendable {
        /// Case-insensitive substring (lowercased).
        case contains(String)
        /// Case-insensitive whole-string match with `*` and `?` wildcards (lowercased).
        case glob(String)
        /// The whole string, ignoring case (lowercased).
        case exact(String)
        /// A regular expression found anywhere in the string.
        case regex(NSRegularExpression)

        func matches(_ s: String) -> Bool {
            switch self {
            case .contains(let needle): return s.range(of: needle, options: .caseInsensitive) != nil
            case .exact(let whole): return s.lowercased() == whole
            case .glob(let pattern): return LogQuery.glob(pattern, matches: s.lowercased())
            case .regex(let regex):
                return regex.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil
            }
        }
    }

    /// The query matching everything.
    public init() {
        text = ""
        terms = []
    }

    private init(text: String, terms: [Term]) {
        self.text = text
        self.terms = terms
    }

    /// Whether the query has no terms (matches everything).
    public var isEmpty: Bool { terms.isEmpty }

    /// Queries are equal when their texts are.
    public static func == (a: LogQuery, b: LogQuery) -> Bool { a.text == b.text }

    /// The field names a term may start with (`ch:presence-*`), each with its long form.
    public static let fields = ["ch", "channel", "ev", "event", "dir", "direction", "kind"]

    /// The query's syntax in one line (for refusals and help).
    public static let syntax =
        "words AND-ed: text · \"a phrase\" · /regex/ · ch:GLOB · ev:GLOB · dir:in|out · "
        + "kind:state|event|error|wire · !term negates"

    /// Parses a query; the error says which term is wrong and why.
    public static func parse(_ text: String) -> Result<LogQuery, LogQueryError> {
        var terms: [Term] = []
        var rest = Substring(text)
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            guard !rest.isEmpty else { break }
            let token = nextToken(&rest)
            switch term(token) {
            case .success(let t): terms.append(t)
            case .failure(let e): return .failure(e)
            }
        }
        return .success(LogQuery(text: text, terms: terms))
    }

    /// The query `text` means, or — when it is not a valid query — one matching it as plain text.
    public static func parseOrLiteral(_ text: String) -> LogQuery {
        switch parse(text) {
        case .success(let q): return q
        case .failure: return LogQuery(text: text, terms: text.isEmpty ? [] : [.text(.contains(text))])
        }
    }

    /// Whether every term matches the entry.
    public func matches(_ entry: LogEntry) -> Bool {
        terms.allSatisfy { Self.term($0, matches: entry) }
    }

    // MARK: - Matching

    private static func term(_ term: Term, matches entry: LogEntry) -> Bool {
        let e = entry.event
        switch term {
        case .text(let p):
            if p.matches(LogText.channel(e)) || p.matches(LogText.name(e)) { return true }
            if let name = eventName(e), p.matches(name) { return true }
            if p.matches(LogText.rawData(e) ?? entry.summary) { return true }
            if case .event(let ev) = e, let m = ev.memberId, p.matches(m) { return true }
            return false
        case .channel(let p): return e.channel.map(p.matches) ?? false
        case .event(let p): return eventName(e).map(p.matches) ?? false
        case .direction(let set): return LogDirection.of(e).map(set.contains) ?? false
        case .kind(let set): return set.contains(LogEntryKind.of(e))
        case .not(let inner): return !self.term(inner, matches: entry)
        }
    }

    /// The event name an entry concerns, for `ev:` (app events, sent events, errors about one).
    static func eventName(_ event: ClientEvent) -> String? {
        switch event {
        case .event(let e): return e.event
        case .sent(_, let name, _): return name
        case .error(let r): return r.event
        default: return nil
        }
    }

    /// `*` any run, `?` any one character; both strings already lowercased.
    static func glob(_ pattern: String, matches s: String) -> Bool {
        let p = Array(pattern), t = Array(s)
        var i = 0, j = 0
        var star = -1, mark = 0
        while j < t.count {
            if i < p.count && (p[i] == "?" || p[i] == t[j]) {
                i += 1
                j += 1
            } else if i < p.count && p[i] == "*" {
                star = i
                mark = j
                i += 1
            } else if star >= 0 {
                i = star + 1
                mark += 1
                j = mark
            } else {
                return false
            }
        }
        while i < p.count && p[i] == "*" { i += 1 }
        return i == p.count
    }

    // MARK: - Parsing

    /// The next token: up to white space, except that a quoted phrase or a /regex/ (after an
    /// optional `!` and `field:`) runs to its closing mark, spaces and all.
    private static func nextToken(_ rest: inout Substring) -> Substring {
        var head = rest.startIndex
        if rest[head...].first == "!" { head = rest.index(after: head) }
        if let colon = rest[head...].firstIndex(of: ":"),
            fields.contains(rest[head..<colon].lowercased()),
            !rest[head..<colon].contains(where: { $0 == " " || $0 == "\t" })
        {
            head = rest.index(after: colon)
        }
        if head < rest.endIndex, let open = rest[head...].first, open == "\"" || open == "/" {
            var i = rest.index(after: head)
            while i < rest.endIndex {
                if rest[i] == "\\" && open == "/" {
                    i = rest.index(after: i)
                    if i == rest.endIndex { break }
                } else if rest[i] == open {
                    let end = rest.index(after: i)
                    if end == rest.endIndex || rest[end] == " " || rest[end] == "\t" {
                        let token = rest[..<end]
                        rest = rest[end...]
                        return token
                    }
                }
                i = rest.index(after: i)
            }
        }
        let end = rest.firstIndex { $0 == " " || $0 == "\t" } ?? rest.endIndex
        let token = rest[..<end]
        rest = rest[end...]
        return token
    }

    private static func term(_ token: Substring) -> Result<Term, LogQueryError> {
        if token.first == "!" && token.count > 1 {
            return term(token.dropFirst()).map { .not($0) }
        }
        if let colon = token.firstIndex(of: ":"), fields.contains(token[..<colon].lowercased()) {
            let field = token[..<colon].lowercased()
            let value = token[token.index(after: colon)...]
            guard !value.isEmpty else { return .failure(.init("\(field): needs a value (\(usage(field)))")) }
            switch field {
            case "ch", "channel": return pattern(value, glob: true).map { .channel($0) }
            case "ev", "event": return pattern(value, glob: true).map { .event($0) }
            case "dir", "direction":
                return choices(value, field: "dir", LogDirection.self).map { .direction($0) }
            default:
                return choices(value, field: "kind", LogEntryKind.self).map { .kind($0) }
            }
        }
        return pattern(token, glob: false).map { .text($0) }
    }

    private static func usage(_ field: String) -> String {
        switch field {
        case "dir", "direction": return "dir:in or dir:out"
        case "kind": return "kind:" + LogEntryKind.allCases.map(\.rawValue).joined(separator: "|")
        default: return "\(field):NAME, * and ? as wildcards, or \(field):/regex/"
        }
    }

    /// A value: /regex/, "quoted" (exact for a field, a phrase for text), a glob for a field
    /// holding `*` or `?` (else the whole name), or a substring.
    private static func pattern(_ value: Substring, glob: Bool) -> Result<Pattern, LogQueryError> {
        if value.count >= 2, value.first == "/", value.last == "/" {
            let source = String(value.dropFirst().dropLast())
            guard !source.isEmpty else { return .failure(.init("empty regex // (write /…/ around a pattern)")) }
            do {
                return .success(.regex(try NSRegularExpression(pattern: source, options: [.caseInsensitive])))
            } catch {
                return .failure(.init("invalid regex /\(source)/ (check its brackets, parentheses and escapes)"))
            }
        }
        if value.count >= 2, value.first == "\"", value.last == "\"" {
            let inner = String(value.dropFirst().dropLast()).lowercased()
            return .success(glob ? .exact(inner) : .contains(inner))
        }
        let lower = value.lowercased()
        if glob { return .success(lower.contains(where: { $0 == "*" || $0 == "?" }) ? .glob(lower) : .exact(lower)) }
        return .success(.contains(lower))
    }

    /// Comma-separated names of a field's values (`kind:state,error`).
    private static func choices<T: RawRepresentable & CaseIterable & Hashable>(
        _ value: Substring, field: String, _ type: T.Type
    ) -> Result<Set<T>, LogQueryError> where T.RawValue == String {
        var set = Set<T>()
        for name in value.lowercased().split(separator: ",") {
            guard let v = T(rawValue: String(name)) else {
                let names = T.allCases.map(\.rawValue).joined(separator: ", ")
                return .failure(.init("\(field): “\(name)” is not one of \(names)"))
            }
            set.insert(v)
        }
        guard !set.isEmpty else { return .failure(.init("\(field): needs a value (\(usage(field)))")) }
        return .success(set)
    }
}
