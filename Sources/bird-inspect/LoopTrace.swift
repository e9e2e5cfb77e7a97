// An opt-in trace of the TUI's main loop (`BIRD_INSPECT_TRACE=FILE`): one JSON line per key
// (read from the terminal, update done, view built, doupdate done) and per drawn frame (drain,
// update, build and draw times), in wall-clock seconds so a bench can line it up with its own
// send→seen times (Scripts/bench.d/inspector_flood.py). Inert, and free, unless the variable is set.

import BirdCommandLine
import Foundation

/// Where one turn of the main loop spent its time (wall-clock seconds since 1970).
struct LoopTurn {
    /// When the loop asked the terminal for input.
    var readCalled = 0.0
    /// When the read returned.
    var readDone = 0.0
    /// When the key (if any) had gone through `update`.
    var keyUpdated = 0.0
    /// Messages taken from the inbox this turn.
    var drained = 0
    /// When the drained messages had gone through `update`.
    var drainUpdated = 0.0
    /// When the view's grid was built (0: no frame this turn).
    var built = 0.0
    /// When `doupdate` returned.
    var drawn = 0.0
    /// Cells written to ncurses for the frame.
    var cells = 0
}

/// Writes trace lines to a file; a path that cannot be opened disables the trace (one stderr line).
final class LoopTrace {
    private let fd: Int32
    private var pending: [UInt8] = []

    /// The trace `environment` asks for, or nil (not set, or the file could not be created).
    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> LoopTrace? {
        guard let path = environment["BIRD_INSPECT_TRACE"], !path.isEmpty else { return nil }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            StandardStreams.err("bird-inspect: BIRD_INSPECT_TRACE: cannot write \(path)\n")
            return nil
        }
        return LoopTrace(fd: fd)
    }

    private init(fd: Int32) { self.fd = fd }

    deinit {
        flush()
        close(fd)
    }

    /// The current wall-clock time, as the trace writes it.
    static var now: Double { Date().timeIntervalSince1970 }

    /// Notes one turn of the loop: a `key` line when it handled a key, a `frame` line when it drew.
    func record(_ turn: LoopTurn, key: Bool) {
        guard key || turn.drawn > 0 else { return }
        let line =
            "{\"kind\":\"\(key ? "key" : "frame")\",\"read_called\":\(Self.format(turn.readCalled))"
            + ",\"read\":\(Self.format(turn.readDone)),\"key_updated\":\(Self.format(turn.keyUpdated))"
            + ",\"drained\":\(turn.drained),\"drain_updated\":\(Self.format(turn.drainUpdated))"
            + ",\"built\":\(Self.format(turn.built)),\"drawn\":\(Self.format(turn.drawn)),\"cells\":\(turn.cells)}\n"
        pending.append(contentsOf: line.utf8)
        // Written at most every 16 KiB (about 60 lines) and at exit, so the trace costs no syscall a frame.
        if pending.count >= 16 << 10 { flush() }
    }

    /// Writes what is buffered.
    func flush() {
        var offset = 0
        while offset < pending.count {
            let n = pending.withUnsafeBytes { write(fd, $0.baseAddress.map { $0 + offset }, pending.count - offset) }
            if n <= 0 { break }
            offset += n
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Six decimals (microseconds); 0 stays 0.
    private static func format(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds > 0 else { return "0" }
        return String(format: "%.6f", seconds)
    }
}
