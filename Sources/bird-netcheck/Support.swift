import BirdCommandLine
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Prints to stderr and exits with status 2 (misuse or a setup failure).
func fail(_ message: String) -> Never {
    StandardStreams.err("bird-netcheck: \(message)\n")
    exit(2)
}

/// Writes a line to stdout at once (a parent process reads it as it comes).
func say(_ line: String) {
    StandardStreams.out((line + "\n"))
}

/// `--name value` pairs and bare `--flag`s.
struct Options {
    private var values: [String: String] = [:]
    private var flags: Set<String> = []
    private static let flagNames: Set<String> = ["mutate", "verbose", "without-monitor"]

    init(_ list: ArraySlice<String>) {
        var iterator = list.makeIterator()
        while let key = iterator.next() {
            guard key.hasPrefix("--") else { fail("unexpected argument '\(key)'") }
            let name = String(key.dropFirst(2))
            if Self.flagNames.contains(name) {
                flags.insert(name)
                continue
            }
            guard let value = iterator.next() else { fail("\(key) wants a value") }
            values[name] = value
        }
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }

    func int(_ name: String, _ fallback: Int, range: ClosedRange<Int>) -> Int {
        guard let text = values[name] else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            fail("--\(name) wants an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }
}

/// Runs `ip` with `arguments`; exits the tool (status 2) when it fails.
func ip(_ arguments: String...) { ip(arguments) }

/// Runs `ip` with `arguments`; exits the tool (status 2) when it fails.
func ip(_ arguments: [String]) {
    spawnAndWait(ipPath, arguments, quiet: false, what: "ip \(arguments.joined(separator: " "))")
}

let ipPath = executable(["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"]) ?? "ip"

/// Runs `path` with `arguments`, its output to /dev/null; exits the tool (status 2) when it fails.
func runQuietly(_ path: String, _ arguments: [String]) {
    spawnAndWait(path, arguments, quiet: true, what: "\(path) \(arguments.first ?? "")")
}

/// Runs `path` with `arguments` and waits for it (output to /dev/null when `quiet`); exits the
/// tool (status 2) when it cannot start or does not exit with 0, naming it as `what`. Spawned with
/// `posix_spawn`, not `Process`: Foundation's child watcher needs a loopback socket pair, which a
/// fresh namespace (lo down) cannot give.
private func spawnAndWait(_ path: String, _ arguments: [String], quiet: Bool, what: String) {
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if quiet {
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
    guard spawned == 0 else { fail("cannot run \(path): \(String(cString: strerror(spawned)))") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
        guard errno == EINTR else { fail("waitpid: \(String(cString: strerror(errno)))") }
    }
    // WIFEXITED && WEXITSTATUS == 0, spelled out (the macros do not import).
    guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
        fail("\(what) failed (wait status \(status))")
    }
}

/// The first executable of `candidates`, or nil.
func executable(_ candidates: [String]) -> String? {
    candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
}
