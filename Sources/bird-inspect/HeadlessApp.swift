// `--jsonl`: docs/PROTOCOL.md § Headless output — JSON lines on stdout, a script of commands on stdin. With
// `--record FILE` stdout carries exactly the recording's lines (header, E lines with `mono_ms`,
// wire, auth). The script runs in `ScriptRunner` (BirdInspector): each command when the state it
// needs exists, `wait …` commands, and the exit code; this file only feeds it.

import BirdInspector
import BirdWire
import BirdCommandLine
import Foundation

/// Runs headless until `quit` (after the commands before it), end of stdin (likewise; with
/// `--duration`, until it ends), SIGINT/SIGTERM/SIGHUP, `--duration`, or a closed stdout. Returns 0
/// when every command succeeded (and on a closed stdout), 1 when one failed.
func runHeadless(options: InspectorOptions) -> Int32 {
    installStopHandlers()
    let clock = ContinuousClock()
    let begin = clock.now
    let inbox = MessageInbox()
    let recorder: Recorder?
    let session: LiveSession
    do {
        recorder = try options.record.map { try Recorder(path: $0) }
        session = try LiveSession(options: options, inbox: inbox, recording: recorder != nil)
    } catch {
        StandardStreams.err("bird-inspect: \(error)\n")
        return 1
    }
    let stdout = OutputWriter()
    var runner = ScriptRunner(
        defaultTimeout: Checked.duration(seconds: options.waitTimeout),
        endOfInputFinishes: options.duration == nil)
    func elapsed() -> Duration { clock.now - begin }

    var out: [UInt8] = []
    func emit(_ line: String) {
        guard !stdout.closed else { return }
        out.append(contentsOf: line.utf8)
        out.append(0x0A)
        if out.count >= 256 * 1024 { flushOut() }
    }
    func flushOut() {
        if !out.isEmpty, !stdout.closed { stdout.write(out) }
        out.removeAll(keepingCapacity: true)
        recorder?.flush()
    }
    /// A line made here (a refusal from the script runner): printed and recorded in its place.
    func emitOwn(_ event: ClientEvent) {
        let at = Date()
        emit(recorder?.record(.client(event), at: at, instant: clock.now) ?? JSONLines.line(event, at: at))
    }
    func perform(_ actions: [ScriptRunner.Action]) {
        for action in actions {
            switch action {
            case .perform(let command): session.perform(command)
            case .commandError(let command, let message): emitOwn(.commandError(command: command, message: message))
            case .finished: break
            }
        }
    }
    if let recorder { emit(recorder.writeHeader(session.recordingHeader)) }

    /// Everything drained goes to stdout (and the recording) in arrival order; client events go
    /// to the script runner too.
    func drain(limit: Int = 5000) -> Int {
        let items = inbox.drain(limit: limit)
        for item in items {
            switch item.payload {
            case .message(let message):
                guard case .client(let event, let at) = message else { continue }
                emit(recorder?.record(.client(event), at: at, instant: item.instant) ?? JSONLines.line(event, at: at))
                perform(runner.observe(event, at: elapsed()))
            case .recorded(let entry, let at):
                if let recorder { emit(recorder.record(entry, at: at, instant: item.instant)) }
            }
        }
        return items.count
    }
    /// What happened up to the exit is printed and recorded — all of it, or, past a deadline (a
    /// flood), a `dropped` line for the rest; the disconnect the exit itself causes is not (a
    /// recording ends as the session was). The session may still refuse a command performed
    /// last, so the exit code is read after this.
    func finish() {
        let deadline = clock.now + .seconds(2)
        while drain() > 0 && clock.now < deadline {}
        if let dropped = inbox.drainAsDropped() { emitOwn(dropped) }
        flushOut()
        session.shutdown()
        recorder?.finish()
        if let problem = recorder?.writeError {
            StandardStreams.err("bird-inspect: \(problem)\n")
        }
        if let problem = stdout.failure { StandardStreams.err("bird-inspect: \(problem)\n") }
    }

    var pending: [UInt8] = []
    var stdinOpen = true
    let flags = fcntl(STDIN_FILENO, F_GETFL)
    _ = fcntl(STDIN_FILENO, F_SETFL, flags | O_NONBLOCK)
    defer { _ = fcntl(STDIN_FILENO, F_SETFL, flags) }
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    while !runner.isFinished && !stdout.closed {
        if stopRequested != 0 {
            perform(runner.stop(reason: stopReason(), at: elapsed()))
            break
        }
        if let duration = options.duration, elapsed() >= Checked.duration(seconds: duration) {
            perform(runner.stop(reason: "--duration ended the run", at: elapsed()))
            break
        }
        // Wait for stdin, or a little while when the inbox has nothing (the client's callbacks
        // arrive on another thread; 20 ms keeps the output prompt and deadlines exact enough).
        var fds = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        let wait: Int32 = inbox.count > 0 ? 0 : 20
        if stdinOpen {
            _ = poll(&fds, 1, wait)
        } else if wait > 0 {
            _ = poll(nil, 0, wait)
        }
        if stdinOpen && fds.revents != 0 {
            let n = read(STDIN_FILENO, &buffer, buffer.count)
            if n > 0 {
                pending.append(contentsOf: buffer[0..<n])
            } else if n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) {
                stdinOpen = false
                if !pending.isEmpty { pending.append(0x0A) }
            }
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                perform(runner.input(line: line, at: elapsed()))
            }
            if !stdinOpen { perform(runner.endOfInput(at: elapsed())) }
            if pending.count > 1 << 20 {
                perform(runner.input(line: "<a line longer than 1 MiB>", at: elapsed()))
                pending.removeAll()
            }
        }
        // Drain what arrived, for at most ~20 ms per turn so stdin and deadlines stay live.
        let turnEnd = clock.now + .milliseconds(20)
        while drain() > 0 && clock.now < turnEnd && !runner.isFinished {}
        perform(runner.tick(at: elapsed()))
        flushOut()
    }
    finish()
    // A closed stdout ends the run cleanly (the recording is kept); otherwise the exit code says
    // whether every command succeeded.
    return stdout.closed ? 0 : runner.exitCode
}
