// The mouse: a click focuses the pane under it and selects the channel or log entry drawn there;
// the wheel scrolls the pane under the pointer (or the open help / detail view). Pure: the
// coordinates are mapped with the same layout and row windows the view drew.

extension Inspector {
    /// Rows one wheel step scrolls.
    static let wheelStep = 3

    /// The pane drawn at cell (`x`, `y`) for the model's terminal size, or nil (footer, outside).
    public static func pane(at x: Int, _ y: Int, _ model: Model) -> Pane? {
        let layout = layout(model, size: model.size)
        guard !layout.tooSmall else { return nil }
        return Pane.allCases.first { pane in
            let r = layout.rect(pane)
            return x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height
        }
    }

    static func handleMouse(x: Int, y: Int, _ kind: MouseKind, _ model: inout Model) -> [Command] {
        switch model.mode {
        case .normal:
            break
        case .help, .detail:
            // The wheel scrolls an open overlay as ↑/↓ do; a click does nothing there.
            guard kind != .click else { return [] }
            for _ in 0..<wheelStep { _ = handleKey(kind == .wheelUp ? .up : .down, &model) }
            return []
        case .prompt, .closeMenu, .timeline:
            return []
        }
        guard let pane = pane(at: x, y, model) else { return [] }
        switch kind {
        case .click:
            model.focus = pane
            select(pane, row: y - layout(model, size: model.size).rect(pane).inner.y, &model)
        case .wheelUp, .wheelDown:
            let delta = kind == .wheelUp ? -wheelStep : wheelStep
            switch pane {
            case .members:
                let count = rosterChannel(model)?.members.count ?? 0
                model.membersScroll = min(max(0, model.membersScroll + delta), max(0, count - 1))
            case .channels, .events:
                let focus = model.focus
                model.focus = pane
                move(delta, &model)
                model.focus = focus
            case .connection:
                break
            }
        }
        return []
    }

    /// Selects what `pane` draws on inner row `row` (a channel, a log entry); rows with nothing
    /// selectable (borders, notes, empty space) only focus the pane.
    static func select(_ pane: Pane, row: Int, _ model: inout Model) {
        let rect = layout(model, size: model.size).rect(pane)
        guard row >= 0, row < rect.inner.height else { return }
        switch pane {
        case .channels:
            var rows = rect.inner.height
            if channelsNote(model, rows: rows) != nil { rows -= 1 }
            let index = channelsFirst(model, rows: rows) + row
            guard row < rows, model.channels.indices.contains(index) else { return }
            if index != model.selectedChannel { model.membersScroll = 0 }
            model.selectedChannel = index
        case .events:
            let seqs = visibleSeqs(model)
            let rows = eventRows(model, rect)
            let (window, _) = eventsPage(model, seqs: seqs, rows: rows)
            guard window.indices.contains(row) else { return }
            if !model.paused {
                pause(&model)
                // The paused marker takes the last row: on a full page, pausing just before the
                // newest entry keeps every other row where it was clicked (the newest counts as new).
                if window.count == rows, row < window.count - 1, let newest = window.last, newest > 0 {
                    model.pausedAtSeq = newest - 1
                    model.missedWhilePaused = max(0, model.log.lastSeq - model.pausedAtSeq)
                }
            }
            model.selectedSeq = window[row]
        case .connection, .members:
            break
        }
    }
}
