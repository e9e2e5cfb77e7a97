// The terminal's own effects, which never reach the client: `w` / `:export` write a file, `y` /
// `:copy` put an entry on the clipboard with OSC 52 (the sequences are made in the core's
// `Clipboard`).

import BirdInspector
import Foundation

/// Performs `Command.export` and `Command.copy` for the TUI loops (live and replay).
struct ShareEffects {
    /// The `--record` file (absolute), which an export must not overwrite.
    var recordingPath: String?
    /// The process environment (`TMUX`: inside tmux).
    var environment = ProcessInfo.processInfo.environment

    /// Whether `command` is one of these (so the loop does not hand it to the client).
    static func handles(_ command: Command) -> Bool {
        switch command {
        case .export, .copy: return true
        default: return false
        }
    }

    /// Runs `messages` through `update` in order: export and copy are performed here (an export's
    /// answer is appended and handled in the same call), every other command goes to `others`.
    /// False as soon as a command asks to quit.
    func update(_ model: inout Model, with messages: [Message], others: (Command) -> Void) -> Bool {
        var messages = messages
        var next = 0
        while next < messages.count {
            let message = messages[next]
            next += 1
            for command in Inspector.update(&model, message) {
                if command == .quit { return false }
                if Self.handles(command) {
                    if let answer = perform(command) { messages.append(answer) }
                } else {
                    others(command)
                }
            }
        }
        return true
    }

    /// Performs `command`; an export's outcome comes back as the message for `update`.
    func perform(_ command: Command) -> Message? {
        switch command {
        case .export(let path, let contents, let entries):
            let target = Self.absolute(path)
            if let recordingPath, Self.absolute(recordingPath) == target {
                return .exported(path: target, entries: 0, error: "that is the --record file")
            }
            return .exported(path: target, entries: entries, error: Self.write(contents, to: target))
        case .copy(let text):
            let bytes = Clipboard.bytes(copying: text, insideTmux: !(environment["TMUX"] ?? "").isEmpty)
            Self.writeAll(bytes, to: STDOUT_FILENO)
            return nil
        default:
            return nil
        }
    }

    /// `path` with `~/` expanded, made absolute against the working directory.
    static func absolute(_ path: String) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        let full = expanded.hasPrefix("/") ? expanded : FileManager.default.currentDirectoryPath + "/" + expanded
        return (full as NSString).standardizingPath
    }

    /// Writes `text` to `path` (created 0644, or replaced); nil, or why it failed.
    static func write(_ text: String, to path: String) -> String? {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_TRUNC
        let fd = open(path, flags, 0o644)
        guard fd >= 0 else { return "cannot open \(path): \(String(cString: strerror(errno)))" }
        defer { close(fd) }
        if let problem = writeAll(Array(text.utf8), to: fd) { return "cannot write \(path): \(problem)" }
        return nil
    }

    /// Writes every byte (retrying short writes and EINTR); nil, or the error's text.
    @discardableResult
    static func writeAll(_ bytes: [UInt8], to fd: Int32) -> String? {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { buffer in
                Glibc.write(fd, buffer.baseAddress.map { $0 + offset }, bytes.count - offset)
            }
            if n < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            offset += n
        }
        return nil
    }
}
