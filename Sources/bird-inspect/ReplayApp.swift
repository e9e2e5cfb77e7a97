// `--replay FILE`: play a recording — no client, no network. `--jsonl` prints every line in order
// with only `ts` changed, paced by `mono_ms` / `--speed`; the TUI feeds the E lines into the same
// model, view and keys as a live session (Replay.swift in the core keeps playback time).

import BirdInspector
import Foundation

/// The file's text, or a one-line reason it cannot be read.
private func readRecordingText(_ path: String) -> Result<String, SessionError> {
    guard FileManager.default.fileExists(atPath: path) else {
        return .failure(SessionError("cannot replay \(path): no such file"))
    }
    guard let data = FileManager.default.contents(atPath: path) else {
        return .failure(SessionError("cannot replay \(path): the file cannot be read"))
    }
    guard let text = String(data: data, encoding: .utf8) else {
        return .failure(SessionError("cannot replay \(path): not UTF-8 text (not a recording)"))
    }
    return .success(text)
}

private func complain(_ message: String) {
    FileHandle.standardError.write(Data("bird-inspect: \(message)\n".utf8))
}

/// `--jsonl --replay FILE`: every line on stdout with `ts` set to the time of printing, at the
/// recorded pace divided by `--speed`. Bad lines are skipped with a warning on stderr. Exits 0 at
/// the end of the file (1 when the file cannot be replayed at all).
func runReplayHeadless(options: InspectorOptions) -> Int32 {
    installStopHandlers()
    guard let path = options.replay else { return 2 }
    let text: String
    switch readRecordingText(path) {
    case .failure(let error): complain(error.description); return 1
    case .success(let t): text = t
    }
    var lines = TranscriptReader.lines(text)
    guard !lines.isEmpty else { complain("\(path): \(TranscriptError.empty)"); return 1 }
    let first = lines.removeFirst()
    do {
        _ = try TranscriptReader.header(first.text)
    } catch {
        complain("\(path): \(error)")
        return 1
    }

    let clock = ContinuousClock()
    let begin = clock.now
    let wallStart = Date()
    var out: [UInt8] = []
    func flush() {
        guard !out.isEmpty else { return }
        FileHandle.standardOutput.write(Data(out))
        out.removeAll(keepingCapacity: true)
    }
    func emit(_ line: String) {
        out.append(contentsOf: TranscriptReader.restamp(line, ts: Date()).utf8)
        out.append(0x0A)
        if out.count >= 64 * 1024 { flush() }
    }
    func expired() -> Bool {
        stopRequested != 0 || options.duration.map { Date().timeIntervalSince(wallStart) >= $0 } ?? false
    }
    emit(first.text)
    for (number, line) in lines {
        let parsed: TranscriptLine
        switch TranscriptReader.parse(line, number: number) {
        case .failure(let problem):
            flush()
            complain("\(path) \(problem) — skipped")
            continue
        case .success(let p): parsed = p
        }
        if options.speed > 0 {
            let due = begin + .microseconds(Int64(parsed.monoMs * 1000 / options.speed))
            if clock.now < due { flush() }
            while clock.now < due, !expired() {
                let left = due - clock.now
                let nap = min(left, .milliseconds(50))
                usleep(UInt32(max(1, nap.components.attoseconds / 1_000_000_000_000 + nap.components.seconds * 1_000_000)))
            }
        }
        if expired() { break }
        emit(line)
    }
    flush()
    return 0
}

/// `--replay FILE` in the terminal: the recording plays into the panes; the window stays open at
/// the end ("replay finished") until `q`.
func runReplayTerminal(options: InspectorOptions) -> Int32 {
    installStopHandlers()
    guard let path = options.replay else { return 2 }
    let recording: Recording
    switch readRecordingText(path) {
    case .failure(let error): complain(error.description); return 1
    case .success(let text):
        do {
            recording = try TranscriptReader.read(text)
        } catch {
            complain("\(path): \(error)")
            return 1
        }
    }
    let start = Date()
    let terminal = CursesTerminal()
    defer { terminal.end() }
    var model = Model(replaying: recording, file: (path as NSString).lastPathComponent, speed: options.speed,
                      size: terminal.size, utcOffsetSeconds: TimeZone.current.secondsFromGMT(for: start),
                      logSize: options.logSize)

    let frameInterval = 1.0 / 30
    var lastDraw = Date.distantPast
    var dirty = true
    while stopRequested == 0 {
        let now = Date()
        if let duration = options.duration, now.timeIntervalSince(start) >= duration { break }
        var messages: [Message] = []
        switch terminal.read(timeoutMilliseconds: 10) {
        case .key(let key): messages.append(.key(key))
        case .resize(let size): messages.append(.resize(size))
        case .none: break
        }
        // Playback time moves on every turn (≤ 10 ms steps), so entries land close to their offsets.
        messages.append(.tick(now: Date()))
        for message in messages {
            for command in Inspector.update(&model, message) where command == .quit {
                return 0
            }
        }
        dirty = true
        if dirty && Date().timeIntervalSince(lastDraw) >= frameInterval {
            terminal.draw(Inspector.view(model, size: terminal.size))
            lastDraw = Date()
            dirty = false
        }
    }
    return 0
}
