// The Members pane: the roster of the selected presence channel.

extension Inspector {
    /// The channel whose roster is shown: the selected channel when it is a presence channel,
    /// else the first presence channel.
    public static func rosterChannel(_ model: Model) -> ChannelInfo? {
        if let ch = model.currentChannel, ch.kind == .presence { return ch }
        return model.channels.first { $0.kind == .presence }
    }

    static func drawMembers(_ model: Model, _ rect: Rect, _ grid: inout Grid) {
        let presence = rosterChannel(model)
        grid.box(
            rect, title: Pane.members.rawValue, focused: model.focus == .members,
            rightLabel: presence.map { "\($0.members.count)" })
        let inner = rect.inner
        guard inner.height > 0 else { return }
        guard let channel = presence else {
            grid.put(
                DisplayWidth.truncate("no presence- channel (s subscribes one)", to: inner.width),
                x: inner.x, y: inner.y, maxWidth: inner.width, style: CellStyle(.dim))
            return
        }
        grid.put(
            DisplayWidth.truncate(channel.name, to: inner.width), x: inner.x, y: inner.y, maxWidth: inner.width,
            style: CellStyle(.accent, bold: true))
        var rows = inner.height - 1
        var y = inner.y + 1
        if let note = rosterNote(channel, model) {
            for part in DisplayWidth.wrap(note.text, width: max(1, inner.width)).prefix(max(0, rows)) {
                grid.put(part, x: inner.x, y: y, maxWidth: inner.width, style: CellStyle(.warn))
                y += 1
                rows -= 1
            }
            if !note.showMembers { return }
        }
        guard rows > 0 else { return }
        if channel.members.isEmpty {
            if rows > 0 { grid.put("no members", x: inner.x, y: y, maxWidth: inner.width, style: CellStyle(.dim)) }
            return
        }
        let first = max(0, min(model.membersScroll, channel.members.count - rows))
        for (row, member) in channel.members.dropFirst(first).prefix(rows).enumerated() {
            let me = member.id == channel.myId
            var segments: [(String, CellStyle)] = [
                (me ? "★ " : "• ", CellStyle(me ? .accent : .dim, bold: me)),
                (member.id, CellStyle(me ? .accent : .normal, bold: me)),
            ]
            if me { segments.append((" (you)", CellStyle(.accent))) }
            if let info = member.info { segments.append(("  " + PayloadText.oneLine(info), CellStyle(.dim))) }
            putLine(segments, x: inner.x, y: y + row, width: inner.width, &grid)
        }
    }
}
