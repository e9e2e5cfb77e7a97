// `update` for finding, keeping and sharing log entries: the filter's query, the search and
// `n`/`N`, marks, export (`w`) and copy (`y`). The file and the clipboard are the driver's: these
// return commands for it.

import Foundation

extension Inspector {
    /// A main-screen key of this group (its binding was found available).
    static func findKey(_ action: Action, _ model: inout Model) -> [Command] {
        switch action {
        case .search:
            let text = model.find.search?.text ?? ""
            model.mode = .prompt(Prompt(purpose: .search(previous: text), text: text))
        case .nextMatch: step(forward: true, marks: false, &model)
        case .previousMatch: step(forward: false, marks: false, &model)
        case .nextMark: step(forward: true, marks: true, &model)
        case .previousMark: step(forward: false, marks: true, &model)
        case .toggleMark: toggleMark(&model)
        case .export:
            let path = LogExport.defaultPath(now: model.now, utcOffsetSeconds: model.config.utcOffsetSeconds)
            model.mode = .prompt(Prompt(purpose: .export, text: path))
        case .copy:
            if let entry = selectedEntry(model) { return copy(entry, &model) }
        default: break
        }
        return []
    }

    /// Performs a `:` command of this group.
    static func perform(_ command: FindCommand, _ model: inout Model) -> [Command] {
        switch command {
        case .filter(let text):
            if case .failure(let e) = LogQuery.parse(text) {
                commandError("filter", e.message, &model)
            } else {
                model.filter = text
                say(text.isEmpty ? "filter cleared" : "filter “\(text)”: \(visibleSeqs(model).count) entries", &model)
            }
        case .search(let text): _ = setSearch(text, &model)
        case .next(let marks): step(forward: true, marks: marks, &model)
        case .previous(let marks): step(forward: false, marks: marks, &model)
        case .mark:
            if selectedEntry(model) == nil { refuse("mark: the log is empty", &model) } else { toggleMark(&model) }
        case .clearMarks:
            let n = model.find.marks.count
            model.find.marks = []
            say("cleared \(n) mark\(n == 1 ? "" : "s")", &model)
        case .export(let path):
            return export(
                to: path ?? LogExport.defaultPath(now: model.now, utcOffsetSeconds: model.config.utcOffsetSeconds),
                &model)
        case .copy:
            guard let entry = selectedEntry(model) else {
                refuse("copy: the log is empty", &model)
                return []
            }
            return copy(entry, &model)
        }
        return []
    }

    /// Sets the search (empty text clears it) and selects the newest match at or before the
    /// selection (else the first after it). False when the query is refused.
    @discardableResult
    static func setSearch(_ text: String, _ model: inout Model) -> Bool {
        if text.trimmingCharacters(in: .whitespaces).isEmpty {
            model.find.search = nil
            say("search cleared", &model)
            return true
        }
        let query: LogQuery
        switch LogQuery.parse(text) {
        case .success(let q): query = q
        case .failure(let e):
            refuse("search: \(e.message)", &model)
            return false
        }
        model.find.search = query
        let seqs = visibleSeqs(model)
        let hits = seqs.filter { seq in model.log.entry(seq: seq).map(query.matches) ?? false }
        guard !hits.isEmpty else {
            refuse("no match for “\(text)”" + (model.filter.isEmpty ? "" : " in the filtered log"), &model)
            return true
        }
        let current = selectedEntry(model)?.seq ?? Int.max
        let pick = hits.last { $0 <= current } ?? hits[0]
        select(pick, &model)
        say("\(hits.count) match\(hits.count == 1 ? "" : "es") for “\(text)” · n / N move", &model)
        return true
    }

    /// `n` / `N` (search matches) and `]` / `[` (marks): the next target after (or before) the
    /// selection among the entries shown, wrapping round with a "wrapped" message.
    static func step(forward: Bool, marks: Bool, _ model: inout Model) {
        let seqs = visibleSeqs(model)
        let targets: [Int]
        if marks {
            targets = seqs.filter { model.find.marks.contains($0) }
            if targets.isEmpty {
                let held = model.find.marks.filter { $0 >= model.log.firstSeq }.count
                refuse(
                    held == 0
                        ? "no marks (m marks the selected entry)" : "no mark shown (\(held) hidden by the filter)",
                    &model)
                return
            }
        } else {
            guard let query = model.find.search else {
                refuse("no search (f sets one)", &model)
                return
            }
            targets = seqs.filter { seq in model.log.entry(seq: seq).map(query.matches) ?? false }
            if targets.isEmpty {
                refuse("no match for “\(query.text)”", &model)
                return
            }
        }
        // Following the newest: "before" is everything, "after" nothing (n wraps to the first).
        let current = model.paused || model.selectedSeq != nil ? selectedEntry(model)?.seq ?? Int.max : Int.max
        let next = forward ? targets.first { $0 > current } : targets.last { $0 < current }
        let what = marks ? "mark" : "match"
        if let next {
            select(next, &model)
            let index = (targets.firstIndex(of: next) ?? 0) + 1
            say("\(what) \(index) of \(targets.count)", &model)
        } else if let wrap = forward ? targets.first : targets.last {
            select(wrap, &model)
            if wrap == current {
                say("the only \(what)", &model)
            } else {
                say(
                    "wrapped to the \(forward ? "first" : "last") \(what) (\(forward ? 1 : targets.count) of \(targets.count))",
                    &model)
            }
        }
    }

    /// `m`: marks the selected entry, or unmarks it; the log pauses there so the mark stays in view.
    static func toggleMark(_ model: inout Model) {
        guard let entry = selectedEntry(model) else { return }
        model.find.marks = model.find.marks.filter { $0 >= model.log.firstSeq }
        select(entry.seq, &model)
        if model.find.marks.remove(entry.seq) == nil {
            model.find.marks.insert(entry.seq)
            say("marked entry \(entry.seq) (\(model.find.marks.count) marked · ] / [ jump)", &model)
        } else {
            say("unmarked entry \(entry.seq) (\(model.find.marks.count) marked)", &model)
        }
    }

    /// Selects entry `seq` in the event log (pausing it, as moving does).
    static func select(_ seq: Int, _ model: inout Model) {
        if !model.paused { pause(&model) }
        if seq > model.pausedAtSeq { model.pausedAtSeq = seq }
        model.selectedSeq = seq
    }

    /// The export command for `path`, or a refusal.
    static func export(to path: String, _ model: inout Model) -> [Command] {
        let path = path.trimmingCharacters(in: .whitespaces)
        guard !path.isEmpty else {
            refuse("export: no file name", &model)
            return []
        }
        if let recording = model.recording?.path, recording == path {
            commandError("export \(path)", "that is the --record file", &model)
            return []
        }
        let (text, n) = LogExport.contents(model)
        guard n > 0 else {
            refuse(model.filter.isEmpty ? "export: the log is empty" : "export: no entry matches the filter", &model)
            return []
        }
        say("writing \(n) entries to \(path)…", &model)
        return [.export(path: path, contents: text, entries: n)]
    }

    /// The driver's answer to an export.
    static func exported(path: String, entries: Int, error: String?, _ model: inout Model) {
        if let error {
            commandError("export \(path)", error, &model)
        } else {
            say("wrote \(entries) entr\(entries == 1 ? "y" : "ies") to \(path)", &model)
        }
    }

    /// The copy command for an entry's JSON line, or a refusal when it is too large.
    static func copy(_ entry: LogEntry, _ model: inout Model) -> [Command] {
        let line = JSONLines.line(entry.event, at: entry.time)
        let bytes = line.utf8.count
        guard bytes <= Clipboard.maxBytes else {
            refuse(
                "copy: entry is \(bytes) bytes, more than the clipboard's \(Clipboard.maxBytes / 1024) KB (w writes it to a file)",
                &model)
            return []
        }
        say("copied \(bytes) bytes (entry \(entry.seq)) to the clipboard", &model)
        return [.copy(text: line)]
    }

    /// Whether `seq` matches the search (for the gutter).
    static func isSearchMatch(_ seq: Int, _ model: Model) -> Bool {
        guard let query = model.find.search else { return false }
        if model.find.searchHits.isCurrent(for: query, model.log) { return model.find.searchHits.contains(seq) }
        return model.log.entry(seq: seq).map(query.matches) ?? false
    }
}
