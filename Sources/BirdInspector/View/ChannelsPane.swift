// The Channels pane: each channel with kind (encrypted ones marked), status, events received,
// events that did not decrypt, member count, and the stream's last offset and continuity.

import BirdWire

extension Inspector {
    /// A channel row's status, saying what will happen given the connection: "waiting for
    /// reconnect" only while a retry is coming (unavailable, or connecting again); after
    /// `disconnect` or a refusal nothing reconnects, and the row says so.
    static func statusText(_ channel: ChannelInfo, _ model: Model, wide: Bool) -> (String, ColorRole) {
        let state = model.connection.state
        switch channel.status {
        case .subscribed: return (wide ? "✓ subscribed" : "✓", .good)
        case .failed(let f): return (wide ? "✗ " + f.type + (f.status.map { " \($0)" } ?? "") : "✗", .bad)
        case .subscribing, .waitingForReconnect:
            if state == .disconnected { return (wide ? "○ not reconnecting" : "○", .dim) }
            if state == .failed { return (wide ? "○ failed, no retry" : "○", .bad) }
            if channel.status == .waitingForReconnect && state != .connected {
                return (wide ? "⟳ waiting for reconnect" : "⟳", .warn)
            }
            return (wide ? "… subscribing" : "…", .warn)
        }
    }

    /// The Members pane's note about a roster that is not live, or nil when it is: what will
    /// happen next, never a promise nothing will keep.
    static func rosterNote(_ channel: ChannelInfo, _ model: Model) -> (text: String, showMembers: Bool)? {
        let c = model.connection
        switch c.state {
        case .disconnected:
            return ("not reconnecting: disconnected" + (model.playback == nil ? " — press c to connect" : ""), true)
        case .failed:
            let code = c.lastCause?.closeCode ?? c.lastClose?.code
            return (
                "failed\(code.map { " \($0)" } ?? ""): no retry"
                    + (model.playback == nil ? " — press c to connect" : ""), true
            )
        default:
            break
        }
        switch channel.status {
        case .subscribed: return nil
        case .failed(let f):
            let what = f.type == "AuthError" ? "auth failed" : f.type
            return ("\(what)\(f.status.map { " \($0)" } ?? ""): members unknown", false)
        case .waitingForReconnect:
            return ("(stale: waiting for reconnect)", true)
        case .subscribing:
            return ("(not subscribed yet)", true)
        }
    }

    /// The width (borders included) at which every channel row shows whole in its wide form.
    static func channelsWidthWanted(_ model: Model) -> Int {
        // Plus room for the event-rate sparkline (the Layout gives it only where the Connection
        // pane can spare it).
        (model.channels.map {
            DisplayWidth.of($0.name) + DisplayWidth.of(rightText($0, model, wide: true)) + 9 + sparklineWant + 1
        }.max() ?? 0)
    }

    /// A row's status and counts ("✓ subscribed 16 ev · 3 mem · 1 conn").
    static func rightText(_ ch: ChannelInfo, _ model: Model, wide: Bool) -> String {
        let (status, _) = statusText(ch, model, wide: wide)
        var counts = "\(ch.events) ev"
        if wide, ch.sent > 0 { counts += " (\(ch.sent) sent)" }
        if wide, ch.kind == .presence { counts += " · \(ch.members.count) mem" }
        if wide, let n = ch.connectionCount { counts += " · \(n) conn" }
        return "\(status) \(counts)"
    }

    static func drawChannels(_ model: Model, _ rect: Rect, _ grid: inout Grid) {
        let focused = model.focus == .channels
        grid.box(
            rect, title: Pane.channels.rawValue, focused: focused,
            rightLabel: model.channels.isEmpty ? nil : "\(model.channels.count)")
        let inner = rect.inner
        guard inner.height > 0 else { return }
        if model.channels.isEmpty {
            grid.put(
                "no channels — s subscribes", x: inner.x, y: inner.y, maxWidth: inner.width, style: CellStyle(.dim))
            return
        }
        let wide = inner.width >= 48
        var rows = inner.height
        // Reserve the last row for the selected channel's error, when it has one.
        let errorLine = channelsNote(model, rows: rows)
        if errorLine != nil { rows -= 1 }
        let first = channelsFirst(model, rows: rows)
        for (row, index) in (first..<min(model.channels.count, first + rows)).enumerated() {
            let ch = model.channels[index]
            let y = inner.y + row
            let selected = index == model.selectedChannel
            let stream = ContinuityText.stream(offset: ch.lastOffset, ch.continuity, wide: wide)
            // With a stream column the status is its symbol alone, so both fit the half row; a
            // name that would be cut keeps its room and the status becomes its symbol.
            var (status, role) = statusText(ch, model, wide: wide && stream == nil)
            if wide, stream == nil,
                DisplayWidth.of(ch.name) + 7 + DisplayWidth.of(rightText(ch, model, wide: true)) > inner.width
            {
                (status, role) = statusText(ch, model, wide: false)
            }
            var counts = inner.width >= 30 ? "\(ch.events) ev" : "\(ch.events)"
            if wide, ch.sent > 0 { counts += " (\(ch.sent) sent)" }
            // Events that did not decrypt (the selected channel's last row says why).
            if ch.decryptionFailures > 0 { counts += (wide ? " · " : " ") + "✗\(ch.decryptionFailures)" }
            // The stream before the counts that matter less, so a narrow half row keeps it.
            if let stream { counts += (wide ? " · " : " ") + stream }
            if wide, ch.kind == .presence { counts += " · \(ch.members.count) mem" }
            if wide, let n = ch.connectionCount { counts += " · \(n) conn" }
            let right = "\(status) \(counts)"
            // The status and counts take what they need while the name keeps its width (up to
            // 16 columns when both cannot fit): no column is cut while the row has room.
            let nameNeed = DisplayWidth.of(ch.name)
            let rightWidth = max(0, min(DisplayWidth.of(right), inner.width - 7 - min(nameNeed, 16)))
            let nameWidth = max(1, inner.width - rightWidth - 7)
            let base = CellStyle(.normal, reverse: selected && focused)
            grid.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1), style: base)
            let marker = selected ? "›" : " "
            putLine(
                [
                    (marker, CellStyle(.accent, bold: true, reverse: selected && focused)),
                    (
                        DisplayWidth.pad(ch.isEncrypted ? "enc" : ch.kind.short, to: 4) + " ",
                        CellStyle(ch.isEncrypted ? .info : .dim, reverse: selected && focused)
                    ),
                    (
                        DisplayWidth.shorten(ch.name, to: nameWidth),
                        CellStyle(.normal, bold: selected, reverse: selected && focused)
                    ),
                ],
                x: inner.x, y: y, width: inner.width, &grid)
            let shown = DisplayWidth.truncate(right, to: rightWidth)
            let statusPart = DisplayWidth.truncate(status, to: rightWidth)
            let x = inner.x + inner.width - DisplayWidth.of(shown)
            // The event-rate sparkline, in the room the name and the counts leave (only once the
            // status and counts have their words).
            let sparkRoom = inner.width - 7 - nameNeed - DisplayWidth.of(shown) - 1
            if wide, shown == right, sparkRoom >= sparklineMinimum {
                let n = min(sparklineWant, sparkRoom)
                grid.put(
                    sparkline(ch.rate.last(n, now: model.now), Glyphs.of(model)), x: x - 1 - n, y: y,
                    style: CellStyle(.info, reverse: selected && focused))
            }
            grid.put(shown, x: x, y: y, maxWidth: rightWidth, style: CellStyle(.dim, reverse: selected && focused))
            grid.put(statusPart, x: x, y: y, maxWidth: rightWidth, style: CellStyle(role, reverse: selected && focused))
        }
        if let errorLine {
            grid.put(
                DisplayWidth.truncate(errorLine, to: inner.width), x: inner.x, y: inner.y + inner.height - 1,
                maxWidth: inner.width, style: CellStyle(.bad))
        }
    }
}
