// `update`: the only place the model changes. Pure: no I/O, no clocks; effects come back as
// commands for the driver.

import BirdWire
import Foundation

/// The inspector's pure functions: `update` and `view`.
public enum Inspector {
    /// How long a footer message stays.
    static let flashSeconds: TimeInterval = 5

    /// Applies one message to the model and returns the commands the driver must perform.
    public static func update(_ model: inout Model, _ message: Message) -> [Command] {
        let commands = handle(message, &model)
        model.find.filterHits.sync(model.filterQuery, model.log)
        model.find.searchHits.sync(model.find.search, model.log)
        return commands
    }

    static func handle(_ message: Message, _ model: inout Model) -> [Command] {
        switch message {
        case .tick(let now):
            if model.playback != nil {
                playbackTick(now, &model)
            } else {
                model.now = now
            }
            if let flash = model.flash, flash.until <= now { model.flash = nil }
            return []
        case .resize(let size):
            model.size = size
            return []
        case .recorded(let lines):
            model.recording?.lines = lines
            return []
        case .exported(let path, let entries, let error):
            exported(path: path, entries: entries, error: error, &model)
            return []
        case .client(let event, let at):
            if at > model.now { model.now = at }
            apply(event, at: at, to: &model)
            return []
        case .key(let key):
            return handleKey(key, &model)
        case .mouse(let x, let y, let kind):
            return handleMouse(x: x, y: y, kind, &model)
        }
    }

    // MARK: - Keys

    static func handleKey(_ key: Key, _ model: inout Model) -> [Command] {
        switch model.mode {
        case .normal: return mainKey(key, &model)
        case .prompt(let prompt): return promptKey(key, prompt, &model)
        case .help(let scroll):
            guard let b = KeyBindings.binding(for: key, in: .help) else { return [] }
            let page = max(1, model.size.height - 6)
            switch b.action {
            case .close:
                model.mode = model.helpReturn ?? .normal
                model.helpReturn = nil
            case .up: model.mode = .help(scroll: max(0, scroll - 1))
            case .down: model.mode = .help(scroll: min(Int.max / 2, scroll + 1))
            case .pageUp: model.mode = .help(scroll: max(0, scroll - page))
            case .pageDown: model.mode = .help(scroll: min(Int.max / 2, scroll + page))
            default: break
            }
            return []
        case .detail(let seq, let scroll, let raw):
            guard let b = KeyBindings.binding(for: key, in: .detail) else { return [] }
            let page = max(1, model.size.height - 8)
            switch b.action {
            case .close: model.mode = .normal
            case .up: model.mode = .detail(seq: seq, scroll: max(0, scroll - 1), raw: raw)
            case .down: model.mode = .detail(seq: seq, scroll: min(Int.max / 2, scroll + 1), raw: raw)
            case .pageUp: model.mode = .detail(seq: seq, scroll: max(0, scroll - page), raw: raw)
            case .pageDown: model.mode = .detail(seq: seq, scroll: min(Int.max / 2, scroll + page), raw: raw)
            case .top: model.mode = .detail(seq: seq, scroll: 0, raw: raw)
            case .bottom: model.mode = .detail(seq: seq, scroll: Int.max / 2, raw: raw)
            case .toggleRaw: model.mode = .detail(seq: seq, scroll: 0, raw: !raw)
            case .toggleCiphertext:
                if let problem = ciphertextProblem(model) {
                    refuse(problem, &model)
                } else {
                    model.detailCiphertext.toggle()
                    model.mode = .detail(seq: seq, scroll: 0, raw: raw)
                }
            case .copy:
                if let entry = model.log.entry(seq: seq) { return copy(entry, &model) }
                refuse("copy: the entry has left the log", &model)
            case .help: openHelp(&model)
            default: break
            }
            return []
        case .closeMenu(let selected):
            guard let b = KeyBindings.binding(for: key, in: .closeMenu) else { return [] }
            let codes = CloseCodeText.menuCodes
            switch b.action {
            case .up: model.mode = .closeMenu(selected: max(0, selected - 1))
            case .down: model.mode = .closeMenu(selected: min(codes.count - 1, selected + 1))
            case .cancel: model.mode = .normal
            case .choose:
                model.mode = .normal
                guard let id = model.connection.connectionId, model.connection.state == .connected else {
                    refuse("not connected any more", &model)
                    return []
                }
                let code = codes[min(max(0, selected), codes.count - 1)]
                let reason = CloseCodeText.defaultReason(code)
                say("asked the sandbox to close \(id) with \(code)", &model)
                return [.closeConnection(connectionId: id, code: code, reason: reason)]
            case .help: openHelp(&model)
            default: break
            }
            return []
        case .timeline(let window):
            timelineKey(key, window, &model)
            return []
        }
    }

    /// Opens the help overlay over the current screen; closing it comes back there.
    static func openHelp(_ model: inout Model) {
        if case .help = model.mode { return }
        model.helpReturn = model.mode == .normal ? nil : model.mode
        model.mode = .help(scroll: 0)
    }

    static func mainKey(_ key: Key, _ model: inout Model) -> [Command] {
        if model.playback != nil, let binding = KeyBindings.binding(for: key, in: .replay) {
            return playbackKey(binding, &model)
        }
        guard let binding = KeyBindings.binding(for: key, in: .main) else { return [] }
        if let why = binding.unavailable(model) {
            refuse("\(binding.label): \(why)", &model)
            return []
        }
        model.flash = nil
        switch binding.action {
        case .subscribe: model.mode = .prompt(Prompt(purpose: .subscribe, text: ""))
        case .unsubscribe:
            if let ch = model.currentChannel { return perform(.unsubscribe(ch.name), &model) }
        case .trigger:
            if let ch = model.currentChannel {
                model.mode = .prompt(Prompt(purpose: .triggerEvent(channel: ch.name), text: "client-"))
            }
        case .signin:
            // Where the endpoint signs a chosen id, i asks which (the default pre-filled).
            if let id = model.config.signinId {
                model.mode = .prompt(Prompt(purpose: .signin, text: id))
                return []
            }
            return perform(.signin, &model)
        case .signout: return perform(.signout, &model)
        case .disconnect: return perform(.disconnect, &model)
        case .connect: return perform(.connect, &model)
        case .drop: return perform(.drop, &model)
        case .ping: return perform(.ping, &model)
        case .closeMenu: model.mode = .closeMenu(selected: CloseCodeText.menuCodes.firstIndex(of: 4009) ?? 0)
        case .filter: model.mode = .prompt(Prompt(purpose: .filter(previous: model.filter), text: model.filter))
        case .pause:
            if model.paused { follow(&model) } else { pause(&model) }
        case .follow: follow(&model)
        case .detail:
            if let entry = selectedEntry(model) {
                model.mode = .detail(seq: entry.seq, scroll: 0, raw: false)
                model.detailCiphertext = false
            }
        case .nextPane, .previousPane:
            let panes = Pane.allCases
            let i = panes.firstIndex(of: model.focus) ?? 0
            let step = binding.action == .nextPane ? 1 : panes.count - 1
            model.focus = panes[(i + step) % panes.count]
        case .commandLine: model.mode = .prompt(Prompt(purpose: .command, text: ""))
        case .help: openHelp(&model)
        case .timeline:
            // Opened zoomed so the whole history shows.
            let history = model.timeline.origin.map { model.now.timeIntervalSince($0) } ?? 0
            model.mode = .timeline(TimelineWindow.fitting(history, columns: timelineColumns(model.size)))
        case .quit: return perform(.quit, &model)
        case .search, .nextMatch, .previousMatch, .toggleMark, .nextMark, .previousMark, .export, .copy:
            return findKey(binding.action, &model)
        case .up: move(-1, &model)
        case .down: move(1, &model)
        case .pageUp: move(-pageSize(model), &model)
        case .pageDown: move(pageSize(model), &model)
        case .top: move(Int.min / 2, &model)
        default: break
        }
        return []
    }

    static func promptKey(_ key: Key, _ prompt: Prompt, _ model: inout Model) -> [Command] {
        var prompt = prompt
        if let b = KeyBindings.binding(for: key, in: .prompt) {
            switch b.action {
            case .cancel:
                if case .filter(let previous) = prompt.purpose { model.filter = previous }
                if case .search(let previous) = prompt.purpose {
                    model.find.search = previous.isEmpty ? nil : LogQuery.parseOrLiteral(previous)
                }
                model.mode = .normal
                return []
            case .erase:
                if !prompt.text.isEmpty { prompt.text.removeLast() }
            case .clear: prompt.text = ""
            case .submit: return submit(prompt, &model)
            case .up, .down:
                guard prompt.purpose == .command, !model.commandHistory.isEmpty else { return [] }
                let history = model.commandHistory
                let current = prompt.historyIndex ?? history.count
                let next = b.action == .up ? max(0, current - 1) : current + 1
                if next >= history.count {
                    prompt.historyIndex = nil
                    prompt.text = ""
                } else {
                    prompt.historyIndex = next
                    prompt.text = history[next]
                }
            case .complete:
                guard prompt.purpose == .command else { return [] }
                let (text, candidates) = CommandText.complete(prompt.text, channels: model.channels.map(\.name))
                prompt.text = text
                if candidates.count > 1 { say(candidates.joined(separator: " · "), &model) }
                if candidates.isEmpty { refuse("nothing to complete", &model) }
            default: break
            }
        } else if case .char(let c) = key {
            prompt.text.append(c)
        } else {
            return []
        }
        model.mode = .prompt(prompt)
        // The filter and the search follow the typing while the text is a valid query.
        if case .filter = prompt.purpose, case .success(let query) = LogQuery.parse(prompt.text) {
            model.filterQuery = query
        }
        if case .search = prompt.purpose, case .success(let query) = LogQuery.parse(prompt.text) {
            model.find.search = query.isEmpty ? nil : query
        }
        return []
    }

    static func submit(_ prompt: Prompt, _ model: inout Model) -> [Command] {
        let text = prompt.text.trimmingCharacters(in: .whitespaces)
        switch prompt.purpose {
        case .filter:
            switch LogQuery.parse(prompt.text) {
            case .success(let query):
                model.filterQuery = query
                model.mode = .normal
            case .failure(let error):
                // The prompt stays for a fix; the filter from before the prompt is back in force.
                if case .filter(let previous) = prompt.purpose { model.filter = previous }
                refuse("filter: \(error.message)", &model)
            }
            return []
        case .search:
            if setSearch(prompt.text, &model) { model.mode = .normal }
            return []
        case .export:
            model.mode = .normal
            return export(to: text, &model)
        case .signin:
            switch MemberIdRules.parse(text) {
            case .failure(let error):
                refuse("sign-in refused: \(error.message)", &model)
                return []
            case .success(let choice):
                model.mode = .normal
                return perform(.signinAs(choice.id, info: choice.info), &model)
            }
        case .subscribe:
            if let problem = ChannelRules.nameProblem(text) {
                refuse("subscribe refused: \(problem)", &model)
                return []
            }
            model.mode = .normal
            return perform(.subscribe(text), &model)
        case .triggerEvent(let channel):
            if let problem = ChannelRules.eventProblem(text) {
                refuse("trigger refused: \(problem)", &model)
                return []
            }
            model.mode = .prompt(Prompt(purpose: .triggerData(channel: channel, event: text), text: ""))
            return []
        case .triggerData(let channel, let event):
            if !text.isEmpty && !PayloadText.isJSON(text) {
                refuse("trigger refused: invalid JSON data", &model)
                return []
            }
            model.mode = .normal
            return perform(.trigger(channel: channel, event: event, data: text.isEmpty ? nil : text), &model)
        case .command:
            model.mode = .normal
            if !text.isEmpty && model.commandHistory.last != text {
                model.commandHistory.append(text)
                if model.commandHistory.count > 100 { model.commandHistory.removeFirst() }
            }
            if let word = text.split(separator: " ").first, case .success("help") = CommandText.resolve(String(word)) {
                openHelp(&model)
                return []
            }
            if let word = text.split(separator: " ").first, case .success(let verb) = CommandText.resolve(String(word)),
                FindCommand.verbs.contains(verb)
            {
                switch FindCommand.parse(verb: verb, line: text) {
                case .success(let command): return perform(command, &model)
                case .failure(let error):
                    commandError(text, error.message, &model, repeatCommand: false)
                    return []
                }
            }
            switch CommandText.parse(text) {
            case .success(let command): return perform(command, &model)
            case .failure(let error):
                // The footer says what is wrong (not the line again); the log keeps both.
                commandError(text, error.message, &model, repeatCommand: false)
                return []
            }
        }
    }

    /// Validates and performs a command (from a key, a prompt or the command line), updating the
    /// model optimistically where the client will not report back.
    static func perform(_ command: Command, _ model: inout Model) -> [Command] {
        if model.playback != nil && command != .quit {
            refuse("\(command.verb): replaying a recording", &model)
            return []
        }
        switch command {
        case .subscribe(let name):
            if let problem = ChannelRules.nameProblem(name) {
                commandError("subscribe \(name)", problem, &model)
                return []
            }
            if let i = model.channelIndex(name) {
                model.selectedChannel = i
                refuse("already subscribed to \(name)", &model)
                return []
            }
            model.channels.append(ChannelInfo(name: name, status: .subscribing))
            model.selectedChannel = model.channels.count - 1
            say("subscribing to \(name)…", &model)
        case .unsubscribe(let name):
            guard let i = model.channelIndex(name) else {
                commandError("unsubscribe \(name)", "not subscribed to \(name)", &model)
                return []
            }
            model.channels.remove(at: i)
            model.selectedChannel = max(0, min(model.selectedChannel, model.channels.count - 1))
            say("unsubscribed from \(name)", &model)
        case .trigger(let channel, let event, let data):
            if let problem = triggerProblem(model, channel: channel) ?? ChannelRules.eventProblem(event) {
                commandError("trigger \(channel) \(event)", problem, &model)
                return []
            }
            if let data {
                if !PayloadText.isJSON(data) {
                    commandError("trigger \(channel) \(event)", "invalid JSON data", &model)
                    return []
                }
                if data.utf8.count > 10 * 1024 {
                    commandError("trigger \(channel) \(event)", "data larger than 10 KB", &model)
                    return []
                }
            }
        case .signin, .signinAs:
            if !model.config.canSignIn {
                commandError("signin", "no member auth endpoint (--member-auth-endpoint)", &model)
                return []
            }
            if case .signinAs(let id, _) = command {
                guard model.config.signinId != nil else {
                    commandError(
                        "signin \(id)", "this member auth endpoint decides who signs in (a chosen id needs --sandbox)",
                        &model)
                    return []
                }
                model.config.signinId = id
                say("signing in as \(id)…", &model)
            } else {
                say("signing in…", &model)
            }
        case .signout:
            model.connection.memberId = nil
            model.channels.removeAll { $0.kind == .member }
            model.selectedChannel = max(0, min(model.selectedChannel, model.channels.count - 1))
        case .closeConnection(let id, let code, let reason):
            if !model.config.sandboxAttached {
                commandError("close \(code)", "not attached to a sandbox (--sandbox or --sandbox-control URL)", &model)
                return []
            }
            if id.isEmpty {
                // `:close CODE`: this connection, as the k menu does.
                guard let current = model.connection.connectionId, model.connection.state == .connected else {
                    commandError("close \(code)", "not connected", &model)
                    return []
                }
                say("asked the sandbox to close \(current) with \(code)", &model)
                return [.closeConnection(connectionId: current, code: code, reason: reason)]
            }
        case .quit: model.quitting = true
        case .ping:
            guard model.connection.state == .connected else {
                commandError("ping", "not connected", &model)
                return []
            }
        case .disconnect, .connect, .drop: break
        case .export, .copy: break  // made by the find group (UpdateFind.swift), never from a script
        }
        return [command]
    }

    /// Why a client event cannot be triggered on `channel` right now, or nil.
    public static func triggerProblem(_ model: Model, channel: String?) -> String? {
        guard let name = channel else { return "no channel selected" }
        let kind = ChannelRules.kind(of: name)
        if kind != .private && kind != .presence { return "client events need a private- or presence- channel" }
        if ChannelKind.isEncrypted(channelName: name) { return "client events cannot be sent on encrypted channels" }
        guard let ch = model.channels.first(where: { $0.name == name }) else { return "not subscribed to \(name)" }
        if ch.status != .subscribed { return "\(name) is not subscribed right now" }
        return nil
    }

    // MARK: - Log navigation

    static func pause(_ model: inout Model) {
        model.paused = true
        model.pausedAtSeq = model.log.lastSeq
        model.missedWhilePaused = 0
    }

    static func follow(_ model: inout Model) {
        model.paused = false
        model.selectedSeq = nil
        model.missedWhilePaused = 0
    }

    static func pageSize(_ model: Model) -> Int {
        max(1, layout(model, size: model.size).events.height - 3)
    }

    static func move(_ delta: Int, _ model: inout Model) {
        switch model.focus {
        case .channels:
            guard !model.channels.isEmpty else { return }
            model.selectedChannel = min(max(0, model.selectedChannel + delta), model.channels.count - 1)
            model.membersScroll = 0
        case .members:
            model.membersScroll = max(0, model.membersScroll + delta)
        case .events:
            let seqs = visibleSeqs(model)
            guard !seqs.isEmpty else { return }
            let current = model.selectedSeq.flatMap { s in seqs.lastIndex { $0 <= s } } ?? seqs.count - 1
            let target = min(max(0, current + delta), seqs.count - 1)
            if !model.paused { pause(&model) }
            model.selectedSeq = seqs[target]
        case .connection:
            break
        }
    }

    /// Sequence numbers of log entries shown: matching the filter, up to the paused point.
    public static func visibleSeqs(_ model: Model) -> [Int] {
        let log = model.log
        let anchor = model.paused ? model.pausedAtSeq : log.lastSeq
        guard log.count > 0, anchor >= log.firstSeq else { return [] }
        let upper = min(anchor, log.lastSeq)
        if model.filterQuery.isEmpty { return Array(log.firstSeq...upper) }
        if model.find.filterHits.isCurrent(for: model.filterQuery, log) {
            return Array(model.find.filterHits.seqs(from: log.firstSeq, through: upper))
        }
        var seqs: [Int] = []
        for seq in log.firstSeq...upper {
            if let entry = log.entry(seq: seq), model.filterQuery.matches(entry) { seqs.append(seq) }
        }
        return seqs
    }

    /// The selected log entry (the newest visible one when following).
    public static func selectedEntry(_ model: Model) -> LogEntry? {
        let seqs = visibleSeqs(model)
        guard let last = seqs.last else { return nil }
        if let s = model.selectedSeq, let pick = seqs.last(where: { $0 <= s }) { return model.log.entry(seq: pick) }
        return model.log.entry(seq: last)
    }

    // MARK: - Footer messages

    static func say(_ text: String, _ model: inout Model) {
        model.flash = Flash(text: text, isError: false, until: model.flashNow.addingTimeInterval(flashSeconds))
    }

    static func refuse(_ text: String, _ model: inout Model) {
        model.flash = Flash(text: text, isError: true, until: model.flashNow.addingTimeInterval(flashSeconds))
    }

    static func commandError(_ command: String, _ message: String, _ model: inout Model, repeatCommand: Bool = true) {
        refuse(repeatCommand ? "\(command): \(message)" : message, &model)
        model.flash?.logged = true
        let at = model.now
        model.log.append(.commandError(command: command, message: message), at: at)
        if model.paused { model.missedWhilePaused += 1 }
    }
}
