// The Channels pane: each channel with kind, status, events received and member count.

extension Inspector {
    static func statusText(_ status: ChannelStatus, wide: Bool) -> (String, ColorRole) {
        switch status {
        case .subscribed: return (wide ? "✓ subscribed" : "✓", .good)
        case .subscribing: return (wide ? "… subscribing" : "…", .warn)
        case .waitingForReconnect: return (wide ? "⟳ waiting for reconnect" : "⟳", .warn)
        case .failed(let f): return (wide ? "✗ " + f.type + (f.status.map { " \($0)" } ?? "") : "✗", .bad)
        }
    }

    static func drawChannels(_ model: Model, _ rect: Rect, _ grid: inout Grid) {
        let focused = model.focus == .channels
        grid.box(rect, title: Pane.channels.rawValue, focused: focused,
                 rightLabel: model.channels.isEmpty ? nil : "\(model.channels.count)")
        let inner = rect.inner
        guard inner.height > 0 else { return }
        if model.channels.isEmpty {
            grid.put("no channels — s subscribes", x: inner.x, y: inner.y, maxWidth: inner.width, style: CellStyle(.dim))
            return
        }
        let wide = inner.width >= 48
        var rows = inner.height
        // Reserve the last row for the selected channel's error, when it has one.
        var errorLine: String?
        if let ch = model.currentChannel, case .failed(let f) = ch.status, rows >= 3 {
            errorLine = "✗ \(f.type)\(f.status.map { " \($0)" } ?? ""): \(Redaction.scrub(f.message))"
            rows -= 1
        }
        let first = max(0, min(model.selectedChannel - rows + 1, model.channels.count - rows))
        for (row, index) in (first..<min(model.channels.count, first + rows)).enumerated() {
            let ch = model.channels[index]
            let y = inner.y + row
            let selected = index == model.selectedChannel
            var (status, role) = statusText(ch.status, wide: wide)
            let state = model.connection.state
            if ch.status == .waitingForReconnect, state == .disconnected || state == .failed {
                (status, role) = (wide ? "○ idle until connect" : "○", .dim)
            }
            var counts = inner.width >= 30 ? "\(ch.events) ev" : "\(ch.events)"
            if wide, ch.kind == .presence { counts += " · \(ch.members.count) mem" }
            if wide, let n = ch.connectionCount { counts += " · \(n) conn" }
            let right = "\(status) \(counts)"
            let rightWidth = min(DisplayWidth.of(right), inner.width / 2)
            let nameWidth = max(1, inner.width - rightWidth - 7)
            let base = CellStyle(.normal, reverse: selected && focused)
            grid.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1), style: base)
            let marker = selected ? "›" : " "
            putLine([(marker, CellStyle(.accent, bold: true, reverse: selected && focused)),
                      (DisplayWidth.pad(ch.kind.short, to: 4) + " ", CellStyle(.dim, reverse: selected && focused)),
                      (DisplayWidth.truncate(ch.name, to: nameWidth), CellStyle(.normal, bold: selected, reverse: selected && focused))],
                     x: inner.x, y: y, width: inner.width, &grid)
            let shown = DisplayWidth.truncate(right, to: rightWidth)
            let statusPart = DisplayWidth.truncate(status, to: rightWidth)
            let x = inner.x + inner.width - DisplayWidth.of(shown)
            grid.put(shown, x: x, y: y, maxWidth: rightWidth, style: CellStyle(.dim, reverse: selected && focused))
            grid.put(statusPart, x: x, y: y, maxWidth: rightWidth, style: CellStyle(role, reverse: selected && focused))
        }
        if let errorLine {
            grid.put(DisplayWidth.truncate(errorLine, to: inner.width), x: inner.x, y: inner.y + inner.height - 1,
                     maxWidth: inner.width, style: CellStyle(.bad))
        }
    }
}
