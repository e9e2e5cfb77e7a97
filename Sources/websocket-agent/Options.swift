import BirdCommandLine
import Foundation

/// A bad command line: the message is printed with the usage, and the process exits 2.
struct UsageError: Error {
    let message: String
}

/// `--name value` flags after the subcommand. Every flag takes a value; unknown flags are errors.
struct Options {
    private var values: [String: String] = [:]

    /// Parses `arguments` accepting only the flags in `allowed` (names without the dashes).
    init(_ arguments: ArraySlice<String>, allowed: Set<String>) throws(UsageError) {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard flag.hasPrefix("--") else { throw UsageError(message: "unexpected argument '\(flag)'") }
            var name = String(flag.dropFirst(2))
            var value: String?
            if let eq = name.firstIndex(of: "=") {
                value = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard allowed.contains(name) else { throw UsageError(message: "unknown flag '--\(name)'") }
            if value == nil { value = rest.popFirst() }
            guard let value, !value.hasPrefix("--") else { throw UsageError(message: "--\(name) needs a value") }
            values[name] = value
        }
    }

    /// A string flag, or `fallback` when absent (nil fallback: the flag is required).
    func string(_ name: String, default fallback: String? = nil) throws(UsageError) -> String {
        if let value = values[name] { return value }
        if let fallback { return fallback }
        throw UsageError(message: "--\(name) is required")
    }

    /// An integer flag within `range`.
    func int(_ name: String, default fallback: Int? = nil, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        let text = try string(name, default: fallback.map(String.init))
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(
                message: "--\(name) must be a whole number in \(range.lowerBound)...\(range.upperBound), not '\(text)'")
        }
        return value
    }

    /// A `ws://` or `wss://` URL flag.
    func url(_ name: String, default fallback: String? = nil) throws(UsageError) -> URL {
        let text = try string(name, default: fallback)
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "ws" || scheme == "wss",
            url.host != nil
        else {
            throw UsageError(message: "--\(name) must be a ws:// or wss:// URL, not '\(text)'")
        }
        return url
    }
}

/// Writes a line to stdout immediately (no stdio buffering: logs and pipes see it at once).
func emit(_ line: String) {
    StandardStreams.out((line + "\n"))
}

/// Writes a line to stderr.
func emitError(_ line: String) {
    StandardStreams.err((line + "\n"))
}
