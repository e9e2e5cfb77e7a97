// The Events pane: the live log with lifecycle entries, pause marker and filter.

extension Inspector {
    static func drawEvents(_ model: Model, _ rect: Rect, _ grid: inout Grid) {
        let focused = model.focus == .events
        let seqs = visibleSeqs(model)
        grid.box(rect, title: Pane.events.rawValue, focused: focused, rightLabel: eventsLabel(model, shown: seqs))
        // A search or a mark adds a one-column gutter on the left (● marked, ▸ search match).
        let gutter = model.find.showsGutter ? 1 : 0
        var inner = rect.inner
        inner.x += gutter
        inner.width -= gutter
        guard inner.height > 0, inner.width > 0 else { return }
        let rows = eventRows(model, rect)
        if model.paused {
            let n = model.missedWhilePaused
            var marker = "⏸ paused · \(n) new event\(n == 1 ? "" : "s") since · G/End follows"
            // A selected entry whose names the columns shorten: the marker names them whole.
            if let names = shortenedNames(model, inner) { marker = "⏸ \(names) · \(n) new · G/End follows" }
            grid.fill(
                Rect(x: inner.x, y: inner.y + rows, width: inner.width, height: 1),
                style: CellStyle(.warn, reverse: true))
            grid.put(
                DisplayWidth.truncate(marker, to: inner.width), x: inner.x, y: inner.y + rows, maxWidth: inner.width,
                style: CellStyle(.warn, bold: true, reverse: true))
        }
        guard rows > 0 else { return }
        if seqs.isEmpty {
            let text =
                model.paused && model.log.lastSeq > 0 && model.pausedAtSeq < model.log.firstSeq
                ? "the paused entries have left the log (it keeps \(model.log.maxEntries)) — G/End follows"
                : model.filter.isEmpty
                    ? "waiting for events…"
                    : "no entry matches “\(model.filter)” (/ to change, Esc in the prompt reverts)"
            grid.put(
                DisplayWidth.truncate(text, to: inner.width), x: inner.x, y: inner.y, maxWidth: inner.width,
                style: CellStyle(.dim))
            return
        }

        // Which page of entries: the one holding the selection, pages counted from the newest.
        let (window, selectedIndex) = eventsPage(model, seqs: seqs, rows: rows)

        let entries = window.compactMap { model.log.entry(seq: $0) }
        let maxChannel = entries.map { DisplayWidth.of(LogText.channel($0.event)) }.max() ?? 0
        let maxName = entries.map { DisplayWidth.of(LogText.name($0.event)) }.max() ?? 0
        // Channel and event columns take what they need while the data keeps 8 columns; when
        // the row cannot hold them (80×24) both are shortened keeping their start and their last
        // part (two presence channels never both read "presenc…"); the selected row shows them whole.
        // Each row's text, made once per frame (entries keep none: most are never drawn).
        let summaries = entries.map { LogText.summary($0.event) }
        let maxData = summaries.map { DisplayWidth.of($0) }.max() ?? 0
        let (channelWidth, nameWidth) = eventColumns(
            channel: maxChannel, name: maxName, data: maxData, width: inner.width,
            rows: entries.map { (DisplayWidth.of(LogText.channel($0.event)), DisplayWidth.of(LogText.name($0.event))) })
        let showSelection = model.paused || model.selectedSeq != nil
        for (row, entry) in entries.enumerated() {
            let y = inner.y + row
            let selected = showSelection && entry.seq == seqs[selectedIndex]
            if gutter > 0 { drawGutter(model, entry.seq, x: inner.x - 1, y: y, &grid) }
            let match = model.find.search != nil && isSearchMatch(entry.seq, model)
            let rev = selected
            if selected {
                grid.fill(
                    Rect(x: inner.x, y: y, width: inner.width, height: 1), style: CellStyle(.selection, reverse: true))
            }
            let role = LogText.role(entry.event)
            var isEvent = false, isSent = false
            if case .event = entry.event { isEvent = true }
            if case .sent = entry.event { isSent = true }
            // A client event this inspector sent stands out: the whole row in the sent colour, bold.
            putLine(
                [
                    (
                        TimeText.clock(entry.time, utcOffsetSeconds: model.config.utcOffsetSeconds) + " ",
                        // A search match's time stands out too (the gutter flags it).
                        CellStyle(isSent ? .sent : match ? .info : .dim, bold: isSent || match, reverse: rev)
                    ),
                    (
                        column(LogText.channel(entry.event), channelWidth, whole: selected) + " ",
                        CellStyle(isSent ? .sent : .accent, bold: isSent, reverse: rev)
                    ),
                    (
                        column(LogText.name(entry.event), nameWidth, whole: selected) + " ",
                        CellStyle(isEvent ? .title : role, bold: true, reverse: rev)
                    ),
                    (summaries[row], CellStyle(role, bold: isSent, reverse: rev)),
                ], x: inner.x, y: y, width: inner.width, &grid)
        }
    }

    /// `name` in a column of `width`: shortened to fit (start + `…` + last part) and padded, or
    /// `whole` (the selected row) at its full width.
    static func column(_ name: String, _ width: Int, whole: Bool) -> String {
        DisplayWidth.pad(
            whole ? name : DisplayWidth.shorten(name, to: width), to: max(width, whole ? DisplayWidth.of(name) : 0))
    }

    /// The selected entry's channel and event name, whole, when the Events pane in `inner`
    /// shortens either (nil when nothing is selected or both show whole).
    static func shortenedNames(_ model: Model, _ inner: Rect) -> String? {
        guard model.paused || model.selectedSeq != nil, let selected = selectedEntry(model) else { return nil }
        let seqs = visibleSeqs(model)
        let (window, _) = eventsPage(model, seqs: seqs, rows: max(1, inner.height - (model.paused ? 1 : 0)))
        let entries = window.compactMap { model.log.entry(seq: $0) }
        let widths = eventColumns(
            channel: entries.map { DisplayWidth.of(LogText.channel($0.event)) }.max() ?? 0,
            name: entries.map { DisplayWidth.of(LogText.name($0.event)) }.max() ?? 0,
            data: entries.map { DisplayWidth.of(LogText.summary($0.event)) }.max() ?? 0, width: inner.width,
            rows: entries.map { (DisplayWidth.of(LogText.channel($0.event)), DisplayWidth.of(LogText.name($0.event))) })
        let channel = LogText.channel(selected.event), name = LogText.name(selected.event)
        guard DisplayWidth.of(channel) > widths.channel || DisplayWidth.of(name) > widths.name else { return nil }
        return channel.isEmpty ? name : "\(channel) \(name)"
    }
}
