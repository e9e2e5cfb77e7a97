// `--jsonl`: docs/PROTOCOL.md § Headless output — JSON lines on stdout, commands on stdin. With `--record FILE`
// stdout carries exactly the recording's lines (header, E lines with `mono_ms`, wire, auth).

import BirdInspector
import Foundation

/// Runs headless until `quit`, end of stdin, SIGINT/SIGTERM or `--duration`.
func runHeadless(options: InspectorOptions) -> Int32 {
    installStopHandlers()
    let start = Date()
    let inbox = MessageInbox()
    let recorder: Recorder?
    let session: LiveSession
    do {
        recorder = try options.record.map { try Recorder(path: $0) }
        session = try LiveSession(options: options, inbox: inbox, recording: recorder != nil)
    } catch {
        FileHandle.standardError.write(Data("bird-inspect: \(error)\n".utf8))
        return 1
    }
    var model = Model(config: session.config, now: start)
    var out: [UInt8] = []
    func emit(_ line: String) {
        out.append(contentsOf: line.utf8)
        out.append(0x0A)
    }
    func flushOut() {
        guard !out.isEmpty else { return }
        FileHandle.standardOutput.write(Data(out))
        out.removeAll(keepingCapacity: true)
        recorder?.flush()
    }
    if let recorder { emit(recorder.writeHeader(session.recordingHeader)) }
    /// Everything the loop drained goes to stdout (and the recording) in arrival order.
    func drain() {
        for item in inbox.drain(limit: 5000) {
            switch item.payload {
            case .message(let message):
                guard case .client(let event, let at) = message else { continue }
                _ = Inspector.update(&model, message)
                emit(recorder?.record(.client(event), at: at, instant: item.instant) ?? JSONLines.line(event, at: at))
            case .transcript(let entry, let at):
                if let recorder { emit(recorder.record(entry, at: at, instant: item.instant)) }
            }
        }
        flushOut()
    }
    defer {
        // What happened up to the exit is printed and recorded; the disconnect the exit itself
        // causes is not (a recording ends as the session was).
        drain()
        session.shutdown()
        recorder?.finish()
        if let problem = recorder?.writeError { FileHandle.standardError.write(Data("bird-inspect: \(problem)\n".utf8)) }
    }

    var pending = Data()
    var stdinOpen = true
    let flags = fcntl(0, F_GETFL)
    _ = fcntl(0, F_SETFL, flags | O_NONBLOCK)
    defer { _ = fcntl(0, F_SETFL, flags) }

    while stopRequested == 0 {
        let now = Date()
        if let duration = options.duration, now.timeIntervalSince(start) >= duration { break }
        if !stdinOpen && options.duration == nil { break }
        var fds = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        _ = poll(&fds, 1, stdinOpen ? 50 : 0)
        if !stdinOpen { usleep(50_000) }
        if stdinOpen && fds.revents != 0 {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = read(0, &buffer, buffer.count)
            if n > 0 {
                pending.append(contentsOf: buffer[0..<n])
            } else if n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) {
                stdinOpen = false
                if !pending.isEmpty { pending.append(0x0A) }
            }
        }
        var quit = false
        while let newline = pending.firstIndex(of: 0x0A) {
            let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
            pending.removeSubrange(pending.startIndex...newline)
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            // Refusals go through the inbox like everything else, so they keep their place in the stream.
            switch CommandText.parse(line) {
            case .failure(let error):
                inbox.post(.client(.commandError(command: line, message: error.message), at: Date()))
            case .success(.quit):
                quit = true
            case .success(let command):
                if case .trigger(let ch, _, _) = command, let problem = Inspector.triggerProblem(model, channel: ch) {
                    inbox.post(.client(.commandError(command: line, message: problem), at: Date()))
                } else {
                    session.perform(command)
                }
            }
            if quit { break }
        }
        drain()
        if quit { break }
    }
    return 0
}
