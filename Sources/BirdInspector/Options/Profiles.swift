// `--profile NAME`: named connection settings from `$XDG_CONFIG_HOME/bird-inspect/profiles.json`.
// The executable reads the file; parsing it and merging a profile under the command line happen
// here (pure, unit-tested). Profiles hold no secrets: a header value comes from an environment
// variable the profile names (`"auth_headers_env": {"Authorization": "MY_TOKEN"}`).

import BirdWire
import Foundation

/// The profiles file as the executable found it.
public struct ProfilesFile: Sendable, Equatable {
    /// Where it was looked for (shown in errors).
    public var path: String
    /// Its text, or nil when there is no such file.
    public var text: String?

    /// A file at `path` with `text` (nil: missing).
    public init(path: String, text: String?) {
        self.path = path
        self.text = text
    }

    /// Where the profiles file is: `$XDG_CONFIG_HOME/bird-inspect/profiles.json`, else
    /// `$HOME/.config/bird-inspect/profiles.json` (nil when neither variable is set).
    public static func path(environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return xdg + "/bird-inspect/profiles.json"
        }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.config/bird-inspect/profiles.json" }
        return nil
    }
}

/// Parsing `profiles.json` and turning one profile into flags.
public enum Profiles {
    /// The settings a profile may hold, each with the flag it stands for, in help order.
    public static let settings: [(key: String, flag: String)] = [
        ("sandbox", "--sandbox"), ("app_key", "--app-key"), ("region", "--region"), ("cluster", "--region"),
        ("host", "--host"), ("port", "--port"), ("insecure", "--insecure"), ("ca_file", "--ca-file"),
        ("no_network_monitor", "--no-network-monitor"), ("auth_endpoint", "--auth-endpoint"),
        ("auth_headers_env", "--auth-header"), ("member_auth_endpoint", "--member-auth-endpoint"),
        ("dialect", "--dialect"), ("subscribe", "--subscribe"), ("signin", "--signin"),
        ("user_id", "--user-id"), ("sandbox_control", "--sandbox-control"), ("demo_rate", "--demo-rate"),
        ("wait_timeout", "--wait-timeout"), ("log_size", "--log-size"), ("theme", "--theme"),
        ("mouse", "--no-mouse"),
    ]

    /// Flags a profile can repeat; given on the command line, they replace the profile's.
    static let repeatable: Set<String> = ["--subscribe", "--auth-header"]

    /// The flags profile `name` in `file` stands for, read over `environment` (for the variables
    /// its `auth_headers_env` names). Errors: no file, malformed JSON (with line and column), an
    /// unknown profile (listing the known ones), an unknown setting, a wrong type, a literal
    /// secret (saying how to reference an environment variable), a variable that is not set.
    public static func flags(
        profile name: String, file: ProfilesFile, environment: [String: String]
    ) -> Result<[String], ArgumentError> {
        guard let text = file.text else {
            return .failure(
                ArgumentError(
                    "--profile \(name): no profiles file at \(file.path) (a JSON object of profiles, docs/INSPECTOR.md § Profiles)"
                ))
        }
        let root: JSONValue
        do {
            root = try JSONValue(parsing: text)
        } catch {
            let (line, column) = position(of: error.offset, in: text)
            return .failure(ArgumentError("\(file.path):\(line):\(column): malformed JSON: \(error.message)"))
        }
        guard let profiles = root.objectValue else {
            return .failure(ArgumentError("\(file.path): must be a JSON object of profiles ({\"name\": {…}})"))
        }
        guard let profile = profiles[name] else {
            let known = profiles.keys.sorted()
            return .failure(
                ArgumentError(
                    "--profile \(name): no such profile in \(file.path) (known: \(known.isEmpty ? "none" : known.joined(separator: ", ")))"
                ))
        }
        guard let members = profile.objectValue else {
            return .failure(ArgumentError("profile \(name) in \(file.path) must be a JSON object of settings"))
        }
        do {
            var out: [String] = []
            for (key, value) in members {
                out += try flags(key: key, value: value, profile: name, environment: environment)
            }
            return .success(out)
        } catch let error as ArgumentError {
            return .failure(error)
        } catch {
            return .failure(ArgumentError("profile \(name): \(error)"))
        }
    }

    /// `args` after profile flags `profile`: the command line wins (its flags come last, and a
    /// repeatable flag it gives replaces the profile's).
    public static func merge(profile: [String], commandLine args: [String]) -> [String] {
        let given = Set(args.map { $0.split(separator: "=", maxSplits: 1).first.map(String.init) ?? $0 })
        var kept: [String] = []
        var i = 0
        while i < profile.count {
            let flag = profile[i]
            let takesValue = i + 1 < profile.count && !profile[i + 1].hasPrefix("--")
            if !(repeatable.contains(flag) && given.contains(flag)) {
                kept.append(flag)
                if takesValue { kept.append(profile[i + 1]) }
            }
            i += takesValue ? 2 : 1
        }
        return kept + args
    }

    /// Line and column (from 1) of byte `offset` in `text`.
    static func position(of offset: Int, in text: String) -> (line: Int, column: Int) {
        var line = 1, column = 1
        for (i, byte) in text.utf8.enumerated() {
            if i >= offset { break }
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    static func flags(key: String, value: JSONValue, profile: String, environment: [String: String]) throws
        -> [String]
    {
        func fail(_ what: String) -> ArgumentError { ArgumentError("profile \(profile): \(key) \(what)") }
        if key == "auth_headers" || (Redaction.isSecretKey(key) && !key.hasSuffix("_env")) {
            let example =
                key == "auth_headers"
                ? "\"auth_headers_env\": {\"Authorization\": \"MY_TOKEN\"}" : "\"\(key)_env\": \"MY_SECRET\""
            throw ArgumentError(
                "profile \(profile): \(key) would store a secret in the file (refused; value not shown): put it in an environment variable and name that instead, e.g. \(example)"
            )
        }
        guard let flag = settings.first(where: { $0.key == key })?.flag else {
            throw ArgumentError(
                "profile \(profile): unknown setting \(key) (settings: \(settings.map(\.key).joined(separator: ", ")))")
        }
        switch value {
        case .bool(let on):
            if key == "mouse" { return on ? [] : [flag] }
            guard ["sandbox", "insecure", "no_network_monitor", "signin"].contains(key) else {
                throw fail("must be \(key == "port" || key == "log_size" ? "a number" : "a string"), not true/false")
            }
            return on ? [flag] : []
        case .string(let s):
            guard
                !["sandbox", "insecure", "no_network_monitor", "signin", "mouse", "subscribe", "auth_headers_env"]
                    .contains(key)
            else { throw fail("has the wrong type (a string)") }
            return [flag, s]
        case .number(let n):
            guard ["port", "demo_rate", "wait_timeout", "log_size"].contains(key) else {
                throw fail("has the wrong type (a number)")
            }
            return [flag, n.description]
        case .array(let items):
            guard key == "subscribe" else { throw fail("has the wrong type (a list)") }
            return try items.flatMap { item -> [String] in
                guard let s = item.stringValue else { throw fail("must be a list of channel names") }
                return [flag, s]
            }
        case .object(let object):
            guard key == "auth_headers_env" else { throw fail("has the wrong type (an object)") }
            return try object.flatMap { member -> [String] in
                guard let variable = member.value.stringValue, !variable.isEmpty else {
                    throw fail("\(member.key) must name an environment variable")
                }
                guard let header = environment[variable] else {
                    throw fail("\(member.key): environment variable \(variable) is not set")
                }
                return [flag, "\(member.key): \(header)"]
            }
        case .null:
            return []
        }
    }

    /// The profile name `args` ask for (`--profile NAME`, `--profile=NAME`), else `BIRD_PROFILE`.
    public static func requested(_ args: [String], environment: [String: String]) -> String? {
        var i = 0
        var name: String?
        while i < args.count {
            if args[i] == "--profile", i + 1 < args.count {
                name = args[i + 1]
                i += 1
            } else if args[i].hasPrefix("--profile=") {
                name = String(args[i].dropFirst("--profile=".count))
            }
            i += 1
        }
        if let name { return name }
        if let env = environment["BIRD_PROFILE"], !env.isEmpty { return env }
        return nil
    }
}
