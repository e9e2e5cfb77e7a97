// The interactive main loop: key-or-tick via wtimeout + wget_wch, messages into `update`,
// commands out to the live session, redraws for client messages coalesced to at most 30 per second
// (a key is drawn at once). With `--record FILE` the loop is also the recording's single writer.

import BirdInspector
import Foundation

/// Runs the TUI until `q`, `:quit`, SIGINT/SIGTERM/SIGHUP/SIGQUIT or `--duration`.
func runTerminalApp(options: InspectorOptions) -> Int32 {
    installStopHandlers(terminal: true)
    let start = Date()
    // Opened before the terminal is taken over, so a bad path is one plain line on stderr.
    let recorder: Recorder?
    do {
        recorder = try options.record.map { try Recorder(path: $0) }
    } catch {
        FileHandle.standardError.write(Data("bird-inspect: \(error)\n".utf8))
        return 1
    }
    // Runs after the terminal is given back (defers run last-registered first), so the lines
    // land on the normal screen.
    defer {
        recorder?.finish()
        if let recorder {
            if let problem = recorder.writeError {
                FileHandle.standardError.write(Data("bird-inspect: \(problem)\n".utf8))
            } else if recorder.lines > 0 {
                let location =
                    recorder.path.hasPrefix("/")
                    ? recorder.path : FileManager.default.currentDirectoryPath + "/" + recorder.path
                FileHandle.standardError.write(
                    Data("bird-inspect: recorded \(recorder.lines) lines to \(location)\n".utf8))
            }
        }
    }
    let terminal = CursesTerminal(colours: options.colours, mouse: options.mouse)
    defer { terminal.end() }

    let offset = TimeZone.current.secondsFromGMT(for: start)
    let inbox = MessageInbox()  // the client's callbacks post here, from its delivery queue
    let session: LiveSession
    do {
        session = try LiveSession(options: options, inbox: inbox, utcOffsetSeconds: offset, recording: recorder != nil)
    } catch {
        terminal.end()
        FileHandle.standardError.write(Data("bird-inspect: \(error)\n".utf8))
        return 1
    }
    recorder?.writeHeader(session.recordingHeader)
    var model = Model(config: session.config, now: start, size: terminal.size)
    model.config.unicode = terminal.unicode
    model.recording = recorder.map { RecordingStatus(path: $0.path, lines: $0.lines) }
    for ch in session.initialChannels where model.channelIndex(ch) == nil {
        model.channels.append(ChannelInfo(name: ch, status: .subscribing))
    }
    /// Takes what the client posted: messages for `update`, everything for the recording.
    func drain() -> [Message] {
        var messages: [Message] = []
        for item in inbox.drain(limit: 5000) {
            switch item.payload {
            case .message(let message):
                messages.append(message)
                if let recorder, case .client(let event, let at) = message {
                    recorder.record(.client(event), at: at, instant: item.instant)
                }
            case .recorded(let entry, let at):
                recorder?.record(entry, at: at, instant: item.instant)
            }
        }
        recorder?.flush()
        if let recorder, recorder.lines != model.recording?.lines { messages.append(.recorded(lines: recorder.lines)) }
        return messages
    }
    defer {
        // Recorded up to the exit (a flood: for at most 2 s, then a `dropped` line for the rest);
        // the disconnect the exit causes is not.
        let deadline = Date().addingTimeInterval(2)
        while inbox.count > 0 && Date() < deadline { _ = drain() }
        let left = inbox.drain(limit: Int.max)
        if let recorder, !left.isEmpty {
            var events = 0, wire = 0
            for item in left {
                switch item.payload {
                case .message(.client(.dropped(let count, let w, _), _)):
                    events += count
                    wire += w
                case .recorded: wire += 1
                case .message: events += 1
                }
            }
            recorder.record(
                .client(.dropped(count: events, wire: wire, since: Date())), at: Date(), instant: ContinuousClock.now)
            recorder.flush()
        }
        session.shutdown()
    }

    let share = ShareEffects(recordingPath: recorder?.path)
    let frameInterval = 1.0 / 30
    let tickInterval = 0.1
    var lastDraw = Date.distantPast
    var lastTick = start
    var dirty = true
    while stopRequested == 0 {
        let now = Date()
        if let duration = options.duration, now.timeIntervalSince(start) >= duration { break }
        var messages: [Message] = []
        // A key or a resize is drawn at once; only the client's messages wait for the next frame.
        var input = true
        switch terminal.read(timeoutMilliseconds: dirty ? 10 : 33) {
        case .key(let key): messages.append(.key(key))
        case .resize(let size): messages.append(.resize(size))
        case .mouse(let x, let y, let kind): messages.append(.mouse(x: x, y: y, kind: kind))
        case .none: input = false
        }
        let after = Date()
        messages += drain()
        if after.timeIntervalSince(lastTick) >= tickInterval {
            messages.append(.tick(now: after))
            lastTick = after
        }
        // An export's answer is appended and handled in the same turn.
        var next = 0
        while next < messages.count {
            let message = messages[next]
            next += 1
            for command in Inspector.update(&model, message) {
                if command == .quit { return 0 }
                if ShareEffects.handles(command) {
                    if let answer = share.perform(command) { messages.append(answer) }
                } else {
                    session.perform(command)
                }
            }
        }
        if !messages.isEmpty { dirty = true }
        if dirty && (input || after.timeIntervalSince(lastDraw) >= frameInterval) {
            terminal.draw(Inspector.view(model, size: terminal.size))
            if lastDraw == .distantPast { testCrashPoint("after-start") }
            lastDraw = after
            dirty = false
        }
    }
    return 0
}
