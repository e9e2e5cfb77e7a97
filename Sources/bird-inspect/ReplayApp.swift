// `--replay FILE`: play a recording — no client, no network. The file is streamed (BirdRecording's
// RecordingFile):
// `--jsonl` prints every line in order with only `ts` changed, paced by `mono_ms` / `--speed`; the
// TUI indexes the file in a first pass (entries, state changes, bad lines) and then feeds the E
// lines into the same model, view and keys as a live session, a window at a time (Replay.swift in
// the core keeps playback time).

import BirdInspector
import BirdRecording
import BirdWire
import BirdCommandLine
import Foundation

private func complain(_ message: String) {
    StandardStreams.err("bird-inspect: \(message)\n")
}

/// `--jsonl --replay FILE`: every line on stdout with `ts` set to the time of printing, at the
/// recorded pace divided by `--speed`. Bad lines are skipped with a warning on stderr. Exits 0 at
/// the end of the file (and when stdout is closed), 1 when the file cannot be replayed at all.
func runReplayHeadless(options: InspectorOptions) -> Int32 {
    installStopHandlers()
    guard let path = options.replay else { return 2 }
    let file: RecordingFile
    do {
        file = try openRecording(path)
    } catch {
        complain(message(error, path))
        return 1
    }
    let stdout = OutputWriter()
    let clock = ContinuousClock()
    let begin = clock.now
    let limit = options.duration.map { Checked.duration(seconds: $0) }
    var out: [UInt8] = []
    func flush() {
        if !out.isEmpty { stdout.write(out) }
        out.removeAll(keepingCapacity: true)
    }
    func emit(_ line: String) {
        out.append(contentsOf: RecordingFormat.restamp(line, ts: Date()).utf8)
        out.append(0x0A)
        if out.count >= 64 * 1024 { flush() }
    }
    func stopped() -> Bool {
        stopRequested != 0 || stdout.closed || limit.map { clock.now - begin >= $0 } ?? false
    }
    do {
        while !stopped(), let item = try file.nextItem() {
            switch item {
            case .header(_, let text):
                emit(text)
            case .problem(let problem):
                flush()
                complain("\(path) \(problem) — skipped")
            case .line(let line):
                if let wait = PlaybackPacing.due(monoMs: line.monoMs, speed: options.speed) {
                    let due = begin + wait
                    if clock.now < due { flush() }
                    while clock.now < due, !stopped() {
                        let left = due - clock.now
                        _ = poll(nil, 0, Int32(max(1, min(50, Checked.milliseconds(left)))))
                    }
                }
                if stopped() { break }
                emit(line.text)
            }
        }
    } catch {
        complain(message(error, path))
        return 1
    }
    flush()
    return 0
}

/// `--replay FILE` in the terminal: the recording plays into the panes; the window stays open at
/// the end ("replay finished") until `q`.
func runReplayTerminal(options: InspectorOptions) -> Int32 {
    installStopHandlers(terminal: true)
    guard let path = options.replay else { return 2 }
    let index: PlaybackIndex
    let source: RecordingFile
    do {
        index = try indexRecording(path)
        source = try openRecording(path)
    } catch {
        complain(message(error, path))
        return 1
    }
    if stopRequested != 0 { return 0 }
    let start = Date()
    let terminal = CursesTerminal(colours: options.colours, mouse: options.mouse)
    defer { terminal.end() }
    var model = Model(
        replaying: index, file: (path as NSString).lastPathComponent, speed: options.speed,
        size: terminal.size, utcOffsetSeconds: TimeZone.current.secondsFromGMT(for: start),
        logSize: options.logSize)
    model.config.unicode = terminal.unicode
    /// Tops up the model's window of entries from the second pass over the file.
    func supply() {
        while let wanted = model.playback?.wanted, wanted > 0 {
            var batch: [PlaybackEntry] = []
            while batch.count < wanted, let item = try? source.nextItem() {
                if case .line(let line) = item,
                    case .success(let entry) = PlaybackEntry.make(line, startedAt: index.startedAt)
                {
                    batch.append(entry)
                }
            }
            guard !batch.isEmpty else { return }
            model.playback?.supply(batch)
        }
    }

    let share = ShareEffects()
    let frameInterval = 1.0 / 30
    var lastDraw = Date.distantPast
    while stopRequested == 0 {
        let now = Date()
        if let duration = options.duration, now.timeIntervalSince(start) >= duration { break }
        supply()
        var messages: [Message] = []
        switch terminal.read(timeoutMilliseconds: 10) {
        case .key(let key): messages.append(.key(key))
        case .resize(let size): messages.append(.resize(size))
        case .mouse(let x, let y, let kind): messages.append(.mouse(x: x, y: y, kind: kind))
        case .none: break
        }
        // Playback time moves on every turn (≤ 10 ms steps), so entries land close to their offsets.
        messages.append(.tick(now: Date()))
        // Export and copy work on a replay too (an export's answer is handled in the same turn);
        // nothing else leaves the core.
        guard share.update(&model, with: messages, others: { _ in }) else { return 0 }
        // Entries due beyond the loaded window play in the same turn (for at most 20 ms).
        let budget = Date().addingTimeInterval(0.02)
        while model.playback?.starved == true, Date() < budget {
            let before = model.playback?.position
            supply()
            _ = Inspector.update(&model, .tick(now: Date()))
            if model.playback?.position == before { break }
        }
        if Date().timeIntervalSince(lastDraw) >= frameInterval {
            terminal.draw(Inspector.view(model, size: terminal.size))
            if lastDraw == .distantPast { testCrashPoint("after-start") }
            lastDraw = Date()
        }
    }
    return 0
}

/// The first pass over a recording for the TUI: header, entries, state changes, bad lines.
private func indexRecording(_ path: String) throws(RecordingFileError) -> PlaybackIndex {
    let file = try openRecording(path)
    var index: PlaybackIndex?
    while stopRequested == 0, let item = try file.nextItem() {
        switch item {
        case .header(let header, _):
            index = PlaybackIndex(header: header, startedAt: header.startedAt ?? Date(timeIntervalSince1970: 0))
        case .problem(let problem): index?.add(problem)
        case .line(let line):
            guard let startedAt = index?.startedAt else { continue }
            switch PlaybackEntry.make(line, startedAt: startedAt) {
            case .success(let entry): index?.add(entry)
            case .failure(let problem): index?.add(problem)
            }
        }
    }
    guard let index else { throw .recording(.empty) }
    return index
}

/// The recording at `path`, for a reader named bird-inspect.
private func openRecording(_ path: String) throws(RecordingFileError) -> RecordingFile {
    try RecordingFile(path: path, versions: PlaybackRecording.versions)
}

/// One line for stderr: a recording problem after the path (`s.jsonl: recording version 2 is not
/// supported …`), a file problem as "cannot replay PATH: …".
private func message(_ error: any Error, _ path: String) -> String {
    switch error {
    case RecordingFileError.recording(let problem): return "\(path): \(problem)"
    case let file as RecordingFileError: return "cannot replay \(path): \(file)"
    default: return "cannot replay \(path): \(error)"
    }
}
