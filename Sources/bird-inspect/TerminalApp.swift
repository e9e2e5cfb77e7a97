// The interactive main loop, paced by `LoopPacer`: a key (click, resize) is read with wtimeout +
// wget_wch and handled and drawn at once, before the client's messages still waiting; those are
// drained in batches with a look for a key between them, and their redraws coalesced to at most 30
// per second. Commands go out to the live session. With `--record FILE` the loop is also the
// recording's single writer; with `BIRD_INSPECT_TRACE=FILE` it notes its times (LoopTrace).

import BirdInspector
import BirdCommandLine
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
        StandardStreams.err("bird-inspect: \(error)\n")
        return 1
    }
    // Runs after the terminal is given back (defers run last-registered first), so the lines
    // land on the normal screen.
    defer {
        recorder?.finish()
        if let recorder {
            if let problem = recorder.writeError {
                StandardStreams.err("bird-inspect: \(problem)\n")
            } else if recorder.lines > 0 {
                let location =
                    recorder.path.hasPrefix("/")
                    ? recorder.path : FileManager.default.currentDirectoryPath + "/" + recorder.path
                StandardStreams.err("bird-inspect: recorded \(recorder.lines) lines to \(location)\n")
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
        StandardStreams.err("bird-inspect: \(error)\n")
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
    /// Takes up to `limit` items: the messages for `update`, and how many items were taken.
    func drain(limit: Int) -> (messages: [Message], taken: Int) {
        var messages: [Message] = []
        let items = inbox.drain(limit: limit)
        for item in items {
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
        return (messages, items.count)
    }
    defer {
        // Recorded up to the exit (a flood: for at most 2 s, then a `dropped` line for the rest);
        // the disconnect the exit causes is not.
        let deadline = Date().addingTimeInterval(2)
        while inbox.count > 0 && Date() < deadline { _ = drain(limit: 5000) }
        if let recorder, let dropped = inbox.drainAsDropped() {
            recorder.record(.client(dropped), at: Date(), instant: ContinuousClock.now)
            recorder.flush()
        }
        session.shutdown()
    }

    let share = ShareEffects(recordingPath: recorder?.path)
    let trace = LoopTrace.fromEnvironment()
    defer { trace?.flush() }
    var pacer = LoopPacer(start: start)
    var firstFrame = true
    /// Runs `messages` through `update` and performs their commands (an export's answer is
    /// appended and handled in the same call); false once one of them asks to quit.
    func handle(_ messages: [Message]) -> Bool {
        share.update(&model, with: messages) { session.perform($0) }
    }
    /// Builds the view and copies it onto the screen.
    func drawFrame(_ turn: inout LoopTurn) {
        let grid = Inspector.view(model, size: terminal.size)
        if trace != nil { turn.built = LoopTrace.now }
        turn.cells = terminal.draw(grid)
        if trace != nil { turn.drawn = LoopTrace.now }
        if firstFrame { testCrashPoint("after-start") }
        firstFrame = false
    }
    /// Reads a key, click or resize, waiting up to `milliseconds` (0: only one already there), and
    /// handles and draws it at once — before any client message still waiting. Nil when there was
    /// none; false once it asks to quit.
    func readInput(_ milliseconds: Int32) -> Bool? {
        var turn = LoopTurn()
        if trace != nil { turn.readCalled = LoopTrace.now }
        let message: Message
        switch terminal.read(timeoutMilliseconds: milliseconds) {
        case .key(let key): message = .key(key)
        case .resize(let size): message = .resize(size)
        case .mouse(let x, let y, let kind): message = .mouse(x: x, y: y, kind: kind)
        case .none: return nil
        }
        if trace != nil { turn.readDone = LoopTrace.now }
        guard handle([message]) else { return false }
        if trace != nil {
            turn.keyUpdated = LoopTrace.now
            turn.drainUpdated = turn.keyUpdated
        }
        drawFrame(&turn)
        pacer.inputDrawn(at: Date())
        trace?.record(turn, key: true)
        return true
    }
    while stopRequested == 0 {
        if let duration = options.duration, Date().timeIntervalSince(start) >= duration { break }
        if readInput(pacer.readTimeoutMilliseconds) == false { return 0 }
        var turn = LoopTurn()
        if trace != nil { turn.readDone = LoopTrace.now }
        // Then the client's messages, in batches, looking for input between them.
        pacer.turnBegins()
        while true {
            let (messages, taken) = drain(limit: pacer.batch)
            turn.drained += taken
            if !messages.isEmpty, !handle(messages) { return 0 }
            if pacer.drained(taken, changed: !messages.isEmpty) == .done { break }
            if readInput(0) == false { return 0 }
        }
        let now = Date()
        let end = pacer.turnEnds(at: now)
        if end.tick, !handle([.tick(now: now)]) { return 0 }
        if trace != nil { turn.drainUpdated = LoopTrace.now }
        if end.draw {
            // Input that came during the drain is drawn with this frame rather than after it.
            switch readInput(0) {
            case false?: return 0
            case true?: break
            case nil:
                drawFrame(&turn)
                pacer.frameDrawn(at: now)
                trace?.record(turn, key: false)
            }
        }
    }
    return 0
}
