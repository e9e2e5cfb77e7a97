// Signals: SIGINT, SIGTERM, SIGHUP (and SIGQUIT in the terminal) set a flag the main loops check, so
// every exit goes through the normal path (recording flushed, terminal restored); a second one
// exits at once. SIGPIPE is ignored (a closed stdout is an EPIPE write error, handled by
// OutputWriter). While the TUI owns the terminal, a crash (SIGSEGV, SIGILL, SIGTRAP, SIGABRT,
// SIGBUS, SIGFPE) first puts the terminal back with async-signal-safe calls only, then dies of
// the signal as it would have.

import Foundation

/// The signal that asked the loops to stop (0: none). Set by the signal handler, read by the loops.
nonisolated(unsafe) var stopRequested: sig_atomic_t = 0

/// Whether the TUI owns the terminal (alternate screen, raw mode): set by CursesTerminal.
nonisolated(unsafe) private var terminalTaken: sig_atomic_t = 0
/// The terminal settings before the TUI started, for the crash handler.
nonisolated(unsafe) private var savedTermios = termios()
nonisolated(unsafe) private var haveSavedTermios = false
/// The reset sequence, allocated once so the handler does not allocate: leave the alternate
/// screen, mouse reporting off, show the cursor, plain attributes, normal cursor keys and keypad.
nonisolated(unsafe) private let resetSequence: (pointer: UnsafeMutablePointer<UInt8>, count: Int) = {
    let bytes = Array("\u{1B}[?1000l\u{1B}[?1006l\u{1B}[?1049l\u{1B}[?25h\u{1B}[0m\u{1B}[?1l\u{1B}>\r\n".utf8)
    let p = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
    p.initialize(from: bytes, count: bytes.count)
    return (p, bytes.count)
}()

/// The stop signals' handler: the first sets `stopRequested`; a second one (the loop did not
/// stop) restores the terminal if the TUI has it and exits at once.
private let stopHandler: @convention(c) (Int32) -> Void = { signal in
    if stopRequested != 0 {
        restoreTerminalNow()
        _exit(128 + signal)
    }
    stopRequested = signal
}

/// The crash signals' handler: terminal back, then the default action (core or death by signal).
private let crashHandler: @convention(c) (Int32) -> Void = { sig in
    restoreTerminalNow()
    signal(sig, SIG_DFL)
    raise(sig)
}

/// The signals that crash the process.
private let crashSignals = [SIGSEGV, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE]

/// Installs the stop handlers (before ncurses starts, so it leaves them alone) and ignores SIGPIPE.
/// `terminal`: SIGQUIT stops too (in the TUI Ctrl-\ should not leave a wrecked screen).
func installStopHandlers(terminal: Bool = false) {
    signal(SIGPIPE, SIG_IGN)
    for sig in [SIGINT, SIGTERM, SIGHUP] + (terminal ? [SIGQUIT] : []) {
        signal(sig, stopHandler)
    }
}

/// Before the TUI takes the terminal: remembers its settings and installs the crash handlers and
/// an `atexit` hook, so every exit the process can catch leaves the terminal usable.
func prepareTerminalRestore() {
    haveSavedTermios = tcgetattr(STDIN_FILENO, &savedTermios) == 0
    _ = resetSequence
    for sig in crashSignals { signal(sig, crashHandler) }
    atexit { restoreTerminalNow() }
}

/// The TUI has taken the terminal (true) or given it back (false).
func markTerminalTaken(_ taken: Bool) {
    terminalTaken = taken ? 1 : 0
}

/// Puts the terminal back if the TUI still has it, with async-signal-safe calls only (`write`,
/// `tcsetattr`): usable from a signal handler and at exit.
func restoreTerminalNow() {
    guard terminalTaken != 0 else { return }
    terminalTaken = 0
    var offset = 0
    while offset < resetSequence.count {
        let n = write(STDOUT_FILENO, resetSequence.pointer + offset, resetSequence.count - offset)
        if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { break }
    }
    if haveSavedTermios { _ = tcsetattr(STDIN_FILENO, TCSANOW, &savedTermios) }
}

/// A line naming the stop signal, for command errors ("stopped by SIGTERM").
func stopReason() -> String {
    switch stopRequested {
    case SIGINT: return "stopped by SIGINT"
    case SIGTERM: return "stopped by SIGTERM"
    case SIGHUP: return "stopped by SIGHUP"
    case SIGQUIT: return "stopped by SIGQUIT"
    default: return "stopped by signal \(stopRequested)"
    }
}

/// `BIRD_INSPECT_TEST_CRASH=after-start` (tests only; docs/INSPECTOR.md): trap once the first frame
/// is on screen, to check that a crash leaves the terminal restored. Inert unless set.
func testCrashPoint(_ point: String) {
    guard ProcessInfo.processInfo.environment["BIRD_INSPECT_TEST_CRASH"] == point else { return }
    fatalError("BIRD_INSPECT_TEST_CRASH=\(point): a deliberate crash for tests")
}
