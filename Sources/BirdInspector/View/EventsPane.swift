// The Events pane: the live log with lifecycle entries, pause marker and filter.

extension Inspector {
    static func drawEvents(_ model: Model, _ rect: Rect, _ grid: inout Grid) {
        let focused = model.focus == .events
        let seqs = visibleSeqs(model)
        var label = model.paused ? "paused" : "live"
        if !model.filter.isEmpty {
            label = "filter “\(model.filter)” \(seqs.count)/\(model.log.count) · " + label
        } else {
            label = "\(model.log.count) · " + label
        }
        grid.box(rect, title: Pane.events.rawValue, focused: focused, rightLabel: label)
        let inner = rect.inner
        guard inner.height > 0, inner.width > 0 else { return }
        let rows = eventRows(model, rect)
        if model.paused {
            let n = model.missedWhilePaused
            let marker = "⏸ paused · \(n) new event\(n == 1 ? "" : "s") since · G/End follows"
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
        // Channel and event columns take what they need, leaving the data a third of the row
        // when there is room; when there is not (80×24), the channel's full name comes first
        // (two presence channels must not both read "presenc…"), then the event name, with
        // at least 8 columns each for the event name and the data.
        let maxData = entries.map { DisplayWidth.of(LogText.summary($0.event)) }.max() ?? 0
        var channelWidth = min(maxChannel, 28)
        var nameWidth = min(maxName, 30)
        let roomy = max(12, inner.width - 15 - min(maxData, max(12, inner.width / 3)))
        if channelWidth + nameWidth > roomy {
            let budget = max(12, inner.width - 15 - min(maxData, 8))
            channelWidth = min(channelWidth, max(6, budget - min(nameWidth, 8)))
            nameWidth = min(nameWidth, max(6, budget - channelWidth))
        }
        let showSelection = model.paused || model.selectedSeq != nil
        for (row, entry) in entries.enumerated() {
            let y = inner.y + row
            let selected = showSelection && entry.seq == seqs[selectedIndex]
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
                        CellStyle(isSent ? .sent : .dim, bold: isSent, reverse: rev)
                    ),
                    (
                        DisplayWidth.pad(LogText.channel(entry.event), to: channelWidth) + " ",
                        CellStyle(isSent ? .sent : .accent, bold: isSent, reverse: rev)
                    ),
                    (
                        DisplayWidth.pad(LogText.name(entry.event), to: nameWidth) + " ",
                        CellStyle(isEvent ? .title : role, bold: true, reverse: rev)
                    ),
                    (LogText.summary(entry.event), CellStyle(role, bold: isSent, reverse: rev)),
                ], x: inner.x, y: y, width: inner.width, &grid)
        }
    }
}
