// Overlays drawn over the panes: help, the detail view, the close-code menu.

import BirdRecording
import Foundation

extension Inspector {
    /// A centred box of at most `width` × `height`; returns its rectangle after clearing it.
    static func overlay(_ grid: inout Grid, width: Int, height: Int, title: String, label: String? = nil) -> Rect {
        let w = min(width, grid.size.width), h = min(height, grid.size.height - 1)
        let rect = Rect(x: (grid.size.width - w) / 2, y: max(0, (grid.size.height - 1 - h) / 2), width: w, height: h)
        grid.fill(rect)
        grid.box(rect, title: title, focused: true, rightLabel: label)
        return rect
    }

    /// Lines of the help overlay (also used for docs captures).
    static func helpLines(_ model: Model, width: Int) -> [[(String, CellStyle)]] {
        var lines: [[(String, CellStyle)]] = []
        let keyColumn = 18
        let pad = String(repeating: " ", count: keyColumn)
        for scope in KeyScope.allCases {
            if !lines.isEmpty { lines.append([]) }
            lines.append([(scope.rawValue, CellStyle(.title, bold: true))])
            for b in KeyBindings.scope(scope) {
                let parts = DisplayWidth.wrap(b.help, width: max(10, width - keyColumn))
                for (i, part) in parts.enumerated() {
                    lines.append([
                        (
                            i == 0 ? "  " + DisplayWidth.pad(b.keyNames, to: keyColumn - 2) : pad,
                            CellStyle(.accent, bold: true)
                        ),
                        (part, .plain),
                    ])
                }
                if scope == .main || (scope == .replay && model.playback != nil), let why = b.unavailable(model) {
                    for part in DisplayWidth.wrap("unavailable: \(why)", width: max(10, width - keyColumn - 2)) {
                        lines.append([(pad + "  ", .plain), (part, CellStyle(.bad))])
                    }
                }
            }
        }
        return lines
    }

    static func drawHelp(_ model: Model, scroll: Int, _ grid: inout Grid) {
        let rect = overlay(&grid, width: 120, height: grid.size.height - 1, title: "Help — keys", label: "Esc closes")
        let inner = rect.inner
        let lines = helpLines(model, width: inner.width - 1)
        let first = max(0, min(scroll, lines.count - inner.height))
        for (row, line) in lines.dropFirst(first).prefix(inner.height).enumerated() {
            putLine(line, x: inner.x + 1, y: inner.y + row, width: inner.width - 1, &grid)
        }
    }

    static func drawDetail(_ model: Model, seq: Int, scroll: Int, raw: Bool, _ grid: inout Grid) {
        let cipher = model.detailCiphertext
        let rect = overlay(
            &grid, width: grid.size.width, height: grid.size.height - 1,
            title: (raw ? "Detail — raw" : "Detail") + (cipher ? " — ciphertext" : ""),
            label: "seq \(seq) · r \(raw ? "pretty" : "raw") · Esc closes")
        let inner = rect.inner
        let width = inner.width - 1
        guard let entry = model.log.entry(seq: seq) else {
            grid.put(
                "this entry has left the log (evicted by newer ones)", x: inner.x + 1, y: inner.y, maxWidth: width,
                style: CellStyle(.warn))
            return
        }
        var lines: [[(String, CellStyle)]] = []
        let label = CellStyle(.dim)
        lines.append([
            ("time     ", label), (TimeText.clock(entry.time, utcOffsetSeconds: model.config.utcOffsetSeconds), .plain),
            ("  (\(RecordingTime.iso(entry.time)))", label),
        ])
        if let ch = entry.event.channel { lines.append([("channel  ", label), (ch, CellStyle(.accent))]) }
        lines.append([
            ("event    ", label), (LogText.name(entry.event), CellStyle(LogText.role(entry.event), bold: true)),
        ])
        if case .event(let e) = entry.event, let m = e.memberId { lines.append([("from     ", label), (m, .plain)]) }
        let (body, valid) = LogText.detailLines(entry, raw: raw, ciphertext: cipher)
        if case .event(let e) = entry.event, e.decrypted {
            lines.append([
                ("e2e      ", label),
                (
                    cipher
                        ? "end-to-end encrypted: the data as it travelled (c: decrypted)"
                        : "end-to-end encrypted: decrypted on arrival (c: as it travelled)",
                    CellStyle(.info)
                ),
            ])
        }
        if LogText.rawData(entry.event) != nil {
            let what =
                raw
                ? (valid ? "JSON, exactly as received" : "not valid JSON — exactly as received")
                : (valid ? "JSON, pretty-printed (numbers and key order as received)" : "not valid JSON — shown raw")
            lines.append([("data     ", label), (what, CellStyle(valid ? .dim : .warn))])
        }
        lines.append([])
        for line in body {
            for part in DisplayWidth.wrap(line, width: max(1, width)) {
                lines.append([(part, CellStyle(valid ? .normal : .warn))])
            }
        }
        let first = max(0, min(scroll, lines.count - inner.height))
        for (row, line) in lines.dropFirst(first).prefix(inner.height).enumerated() {
            putLine(line, x: inner.x + 1, y: inner.y + row, width: width, &grid)
        }
    }

    static func drawCloseMenu(_ model: Model, selected: Int, _ grid: inout Grid) {
        let codes = CloseCodeText.menuCodes
        let rect = overlay(
            &grid, width: 76, height: codes.count + 7, title: "Close this connection with…", label: "Enter · Esc")
        let inner = rect.inner
        grid.put(
            "the sandbox closes \(model.connection.connectionId ?? "—") with the chosen code:", x: inner.x + 1,
            y: inner.y,
            maxWidth: inner.width - 1, style: CellStyle(.dim))
        for (i, code) in codes.enumerated() where i + 1 < inner.height {
            let y = inner.y + 1 + i
            let sel = i == selected
            if sel {
                grid.fill(
                    Rect(x: inner.x, y: y, width: inner.width, height: 1), style: CellStyle(.selection, reverse: true))
            }
            // The same text the Connection pane shows after the close (never cut: the overlay
            // is wider than the longest).
            let text = CloseCodeText.describe(code: code, reason: nil)
            let number = "\(code)"
            putLine(
                [
                    (sel ? "› " : "  ", CellStyle(.accent, bold: true, reverse: sel)),
                    (number, CellStyle(closeRole(code), bold: true, reverse: sel)),
                    (String(text.dropFirst(number.count)), CellStyle(closeRole(code), reverse: sel)),
                ],
                x: inner.x + 1, y: y, width: inner.width - 1, &grid)
        }
        let legend = "4000–4099 refused (failed) · 4100–4199 backoff · 4200–4299 reconnect immediately · others backoff"
        for (i, part) in DisplayWidth.wrap(legend, width: inner.width - 2).prefix(2).enumerated() {
            grid.put(
                part, x: inner.x + 1, y: inner.y + inner.height - 2 + i, maxWidth: inner.width - 1,
                style: CellStyle(.dim))
        }
    }
}
