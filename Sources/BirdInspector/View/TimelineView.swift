// The Timeline view (`T`): one lane per connection state along a time axis, a row of marks
// (closes, retries, network, sign-ins), the axis with clock labels, a cursor, what was going on at
// the cursor and the marks up to it. Unicode block characters, or ASCII when the terminal's
// locale is not UTF-8.

import BirdRealtime
import BirdWire
import Foundation

/// The characters the timeline and sparklines draw with.
struct Glyphs {
    /// A column spent (mostly) in the lane's state.
    let full: String
    /// A column spent partly in it.
    let part: String
    /// A column of history in another state.
    let empty: String
    /// The axis and its ticks.
    let axis: String, tick: String
    /// The cursor's marker under the axis.
    let cursor: String
    /// Sparkline levels, lowest first (a second without events is blank).
    let levels: [String]
    /// The mark glyphs.
    let close: String, retry: String, networkLost: String, networkBack: String, signin: String, signout: String,
        failed: String

    static let unicode = Glyphs(
        full: "█", part: "▒", empty: "·", axis: "─", tick: "┬", cursor: "▲",
        levels: ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"],
        close: "✕", retry: "↻", networkLost: "↓", networkBack: "↑", signin: "★", signout: "☆", failed: "✗")
    static let ascii = Glyphs(
        full: "#", part: ":", empty: ".", axis: "-", tick: "+", cursor: "^",
        levels: [".", "_", "-", "=", "#"],
        close: "X", retry: "r", networkLost: "v", networkBack: "^", signin: "*", signout: "o", failed: "!")

    static func of(_ model: Model) -> Glyphs { model.config.unicode ? .unicode : .ascii }

    func mark(_ kind: Timeline.MarkKind) -> String {
        switch kind {
        case .close: return close
        case .retry: return retry
        case .networkLost: return networkLost
        case .networkBack: return networkBack
        case .signin: return signin
        case .signout: return signout
        case .signinFailed, .endpointFailed: return failed
        }
    }
}

extension Inspector {
    /// The lanes, top to bottom.
    static let timelineLanes: [ConnectionState] = [.connected, .connecting, .unavailable, .failed, .disconnected]
    /// Columns before the lanes (the lane names).
    static let timelineLabelWidth = 14

    /// How many time columns the Timeline view has at `size` (update scrolls by the same count).
    static func timelineColumns(_ size: Size) -> Int {
        max(1, size.width - 2 - 1 - timelineLabelWidth - 1)
    }

    /// "1 s", "0.25 s", "5 min", "1 h".
    static func scaleText(_ seconds: Double) -> String {
        if seconds >= 3600 { return "\(Checked.int(seconds / 3600)) h" }
        if seconds >= 60 { return "\(Checked.int(seconds / 60)) min" }
        if seconds == seconds.rounded() { return "\(Checked.int(seconds)) s" }
        return "\(seconds) s"
    }

    /// How much of each column each lane's state fills (0…1), lanes in `timelineLanes` order.
    static func laneFill(_ timeline: Timeline, _ window: TimelineWindow, columns: Int, now: Date) -> [[Double]] {
        var fill = [[Double]](repeating: [Double](repeating: 0, count: columns), count: timelineLanes.count)
        let scale = window.scale
        let start = window.start(columns: columns, now: now)
        let windowEnd = start.addingTimeInterval(Double(columns) * scale)
        var i = timeline.spanIndex(at: start) ?? 0
        while i < timeline.spans.count {
            let span = timeline.spans[i]
            if span.start >= windowEnd || span.start >= now { break }
            defer { i += 1 }
            guard let lane = timelineLanes.firstIndex(of: span.state) else { continue }
            let from = max(span.start, start), to = min(timeline.end(ofSpan: i) ?? now, windowEnd, now)
            guard to > from else { continue }
            let a = from.timeIntervalSince(start) / scale, b = to.timeIntervalSince(start) / scale
            var c = max(0, Checked.int(a, .down))
            while c < columns, Double(c) < b {
                let overlap = min(b, Double(c + 1)) - max(a, Double(c))
                if overlap > 0 { fill[lane][c] += overlap }
                c += 1
            }
        }
        return fill
    }

    /// The mark shown in each column (the highest-priority one of those in it).
    static func markColumns(_ timeline: Timeline, _ window: TimelineWindow, columns: Int, now: Date) -> [Timeline.Mark?]
    {
        var shown = [Timeline.Mark?](repeating: nil, count: columns)
        let start = window.start(columns: columns, now: now)
        var i = timeline.firstMark(atOrAfter: start)
        while i < timeline.marks.count {
            let mark = timeline.marks[i]
            i += 1
            guard let c = window.column(of: mark.at, columns: columns, now: now) else { break }
            if shown[c].map({ $0.kind.priority <= mark.kind.priority }) ?? true { shown[c] = mark }
        }
        return shown
    }

    static func markRole(_ kind: Timeline.MarkKind) -> ColorRole {
        switch kind {
        case .close(let code): return closeRole(code)
        case .retry: return .warn
        case .networkLost, .signinFailed, .endpointFailed: return .bad
        case .networkBack: return .good
        case .signin: return .info
        case .signout: return .dim
        }
    }

    static func drawTimeline(_ model: Model, _ window: TimelineWindow, _ grid: inout Grid) {
        let g = Glyphs.of(model)
        let now = model.now
        let offset = model.config.utcOffsetSeconds
        let cursorTime = window.cursorTime(now: now)
        let where_ =
            window.following ? "following now" : "cursor " + TimeText.clock(cursorTime, utcOffsetSeconds: offset)
        let rect = overlay(
            &grid, width: grid.size.width, height: grid.size.height - 1, title: "Timeline",
            label: "\(scaleText(window.scale)) per column · \(where_)")
        let inner = rect.inner
        let columns = timelineColumns(grid.size)
        let x0 = inner.x + 1, lanesX = x0 + timelineLabelWidth
        let timeline = model.timeline
        let cursorColumn = window.cursorColumn(columns: columns, now: now)
        let start = window.start(columns: columns, now: now)
        let origin = timeline.origin
        var y = inner.y
        let bottom = inner.y + inner.height

        // The lanes: each column full, part or (within the history) empty.
        let fill = laneFill(timeline, window, columns: columns, now: now)
        for (lane, state) in timelineLanes.enumerated() where y < bottom {
            grid.put(
                state.rawValue, x: x0, y: y, style: CellStyle(stateRole(state), bold: model.connection.state == state))
            for c in 0..<columns {
                let t0 = start.addingTimeInterval(Double(c) * window.scale)
                let inHistory = (origin.map { t0.addingTimeInterval(window.scale) > $0 } ?? false) && t0 <= now
                let f = fill[lane][c]
                let text = f >= 0.5 ? g.full : f > 0 ? g.part : (inHistory ? g.empty : " ")
                let role: ColorRole = f > 0 ? stateRole(state) : .dim
                grid.put(text, x: lanesX + c, y: y, style: CellStyle(role, reverse: c == cursorColumn && f == 0))
            }
            y += 1
        }

        // The marks row.
        if y < bottom {
            grid.put("marks", x: x0, y: y, style: CellStyle(.dim))
            for (c, mark) in markColumns(timeline, window, columns: columns, now: now).enumerated() {
                guard let mark else { continue }
                grid.put(
                    g.mark(mark.kind), x: lanesX + c, y: y,
                    style: CellStyle(markRole(mark.kind), bold: true, reverse: c == cursorColumn))
            }
            y += 1
        }

        // The axis, its clock labels, and the cursor.
        if y + 2 < bottom {
            let step = tickStep(window.scale)
            var labels: [(Int, String)] = []
            let firstTick =
                (Double(Checked.int((start.timeIntervalSince1970 + Double(offset)) / step, .up)) * step)
                - Double(offset)
            let windowEnd = start.timeIntervalSince1970 + Double(columns) * window.scale
            var t = firstTick
            var lastEnd = -1
            while t < windowEnd {
                if let c = window.column(of: Date(timeIntervalSince1970: t), columns: columns, now: now) {
                    let text = TimeText.clockSeconds(Date(timeIntervalSince1970: t), utcOffsetSeconds: offset)
                    if c > lastEnd && c + DisplayWidth.of(text) <= columns {
                        labels.append((c, text))
                        lastEnd = c + DisplayWidth.of(text)
                    }
                }
                t += step
            }
            grid.put(String(repeating: g.axis, count: columns), x: lanesX, y: y, style: CellStyle(.border))
            grid.put("time", x: x0, y: y + 1, style: CellStyle(.dim))
            for (c, text) in labels {
                grid.put(g.tick, x: lanesX + c, y: y, style: CellStyle(.border))
                grid.put(text, x: lanesX + c, y: y + 1, style: CellStyle(.dim))
            }
            grid.put("cursor", x: x0, y: y + 2, style: CellStyle(.dim))
            grid.put(g.cursor, x: lanesX + cursorColumn, y: y + 2, style: CellStyle(.accent, bold: true))
            y += 3
        }

        // What was going on at the cursor.
        if y < bottom {
            var line: [(String, CellStyle)] = [
                (TimeText.clock(cursorTime, utcOffsetSeconds: offset) + "  ", CellStyle(.accent, bold: true))
            ]
            if let i = timeline.spanIndex(at: cursorTime) {
                let span = timeline.spans[i]
                let end = timeline.end(ofSpan: i)
                let length = (end ?? now).timeIntervalSince(span.start)
                line.append((span.state.rawValue, CellStyle(stateRole(span.state), bold: true)))
                line.append(
                    (
                        " since " + TimeText.clock(span.start, utcOffsetSeconds: offset)
                            + " (" + TimeText.duration(length) + (end == nil ? " so far)" : ")"), .plain
                    ))
                if let cause = span.cause {
                    let text = "— " + Redaction.scrub(cause.text)
                    grid.put(
                        DisplayWidth.truncate(text, to: inner.width - 15), x: x0 + 14, y: y + 1, style: CellStyle(.dim))
                }
            } else if let cut = timeline.trimmedBefore, cursorTime < cut {
                line.append(
                    (
                        "history before \(TimeText.clock(cut, utcOffsetSeconds: offset)) was dropped (the timeline is bounded)",
                        CellStyle(.dim)
                    ))
            } else {
                line.append(("no state reported yet at this time", CellStyle(.dim)))
            }
            putLine(line, x: x0, y: y, width: inner.width - 1, &grid)
            y += 2
        }

        // The marks up to the cursor, newest last; those in the cursor's column stand out. The
        // last row is the legend.
        let legendRow = bottom - 1
        if y < legendRow {
            let cursorColumnEnd = start.addingTimeInterval(Double(cursorColumn + 1) * window.scale)
            let upTo = timeline.firstMark(atOrAfter: window.following ? now.addingTimeInterval(1) : cursorColumnEnd)
            let rows = legendRow - y - 1
            let total = timeline.marks.count
            grid.put(
                total == 0 ? "no marks yet" : "marks up to the cursor (\(upTo) of \(total))", x: x0, y: y,
                maxWidth: inner.width - 1,
                style: CellStyle(.title, bold: true))
            y += 1
            for mark in timeline.marks[max(0, upTo - rows)..<upTo] {
                let here = window.column(of: mark.at, columns: columns, now: now) == cursorColumn
                putLine(
                    [
                        (
                            TimeText.clock(mark.at, utcOffsetSeconds: offset) + " ",
                            CellStyle(here ? .accent : .dim, bold: here)
                        ),
                        (g.mark(mark.kind) + " ", CellStyle(markRole(mark.kind), bold: true)),
                        (Redaction.scrub(mark.text), CellStyle(here ? .normal : .dim, bold: here)),
                    ],
                    x: x0, y: y, width: inner.width - 1, &grid)
                y += 1
            }
        }
        if legendRow > inner.y + 8 {
            // As many entries as fit, whole.
            let entries = [
                "\(g.close) close", "\(g.retry) retry", "\(g.networkLost)\(g.networkBack) network lost/back",
                "\(g.signin)\(g.signout) sign-in/out", "\(g.failed) refused", "\(g.full) most of a column",
                "\(g.part) part of it",
            ]
            var legend = ""
            for entry in entries {
                let next = legend.isEmpty ? entry : legend + "  " + entry
                if DisplayWidth.of(next) > inner.width - 1 { break }
                legend = next
            }
            grid.put(legend, x: x0, y: legendRow, style: CellStyle(.dim))
        }
    }

    /// Seconds between labelled ticks: the first "round" step at least 10 columns wide.
    static func tickStep(_ scale: Double) -> Double {
        let steps: [Double] = [
            1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400,
        ]
        return steps.first { $0 / scale >= 10 } ?? 86400 * 7
    }
}
