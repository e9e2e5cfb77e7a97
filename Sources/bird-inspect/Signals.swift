// SIGINT / SIGTERM set a flag that the main loop checks, so the terminal is always restored.

import Foundation

/// Set by the signal handler; read by the loops.
nonisolated(unsafe) var stopRequested: sig_atomic_t = 0

/// Installs handlers for SIGINT and SIGTERM (before ncurses starts, so it leaves them alone).
func installStopHandlers() {
    signal(SIGINT) { _ in stopRequested = 1 }
    signal(SIGTERM) { _ in stopRequested = 1 }
}
