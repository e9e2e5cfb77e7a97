// `--jsonl`: PROTOCOL.md part E — JSON lines on stdout, commands on stdin.

import BirdInspector
import Foundation

/// Runs headless until `quit`, end of stdin, SIGINT/SIGTERM or `--duration`.
func runHeadless(options: InspectorOptions) -> Int32 {
    installStopHandlers()
    let start = Date()
    let inbox = MessageInbox()
    let session: LiveSession
    do {
        session = try LiveSession(options: options, inbox: inbox)
    } catch {
        FileHandle.standardError.write(Data("bird-inspect: \(error)\n".utf8))
        return 1
    }
    defer { session.shutdown() }
    var model = Model(config: session.config, now: start)
    var pending = Data()
    var stdinOpen = true
    let flags = fcntl(0, F_GETFL)
    _ = fcntl(0, F_SETFL, flags | O_NONBLOCK)
    defer { _ = fcntl(0, F_SETFL, flags) }

    func emit(_ event: ClientEvent, _ at: Date) {
        FileHandle.standardOutput.write(Data((JSONLines.line(event, at: at) + "\n").utf8))
    }

    while stopRequested == 0 {
        let now = Date()
        if let duration = options.duration, now.timeIntervalSince(start) >= duration { return 0 }
        if !stdinOpen && options.duration == nil { return 0 }
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
        while let newline = pending.firstIndex(of: 0x0A) {
            let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
            pending.removeSubrange(pending.startIndex...newline)
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            switch CommandText.parse(line) {
            case .failure(let error):
                emit(.commandError(command: line, message: error.message), Date())
            case .success(.quit):
                return 0
            case .success(let command):
                if case .trigger(let ch, _, _) = command, let problem = Inspector.triggerProblem(model, channel: ch) {
                    emit(.commandError(command: line, message: problem), Date())
                } else {
                    session.perform(command)
                }
            }
        }
        for message in inbox.drain(limit: 5000) {
            if case .client(let event, let at) = message {
                _ = Inspector.update(&model, message)
                emit(event, at)
            }
        }
    }
    return 0
}
