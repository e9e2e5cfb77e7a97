// `view`: the model drawn into a grid. Pure; the backend only copies the grid to the terminal.

import BirdRealtime
import Foundation

extension Inspector {
    /// Renders the model at `size`.
    public static func view(_ model: Model, size: Size) -> Grid {
        var grid = Grid(size: size)
        let layout = layout(model, size: size)
        if layout.tooSmall {
            let notice =
                "enlarge the window to at least \(Layout.minimum.width)×\(Layout.minimum.height) (now \(size.width)×\(size.height)) · q quits"
            grid.put(DisplayWidth.truncate(notice, to: size.width), x: 0, y: 0, style: CellStyle(.warn, bold: true))
            return grid
        }
        drawConnection(model, layout.connection, &grid)
        drawChannels(model, layout.channels, &grid)
        drawEvents(model, layout.events, &grid)
        drawRecording(model, layout.events, &grid)
        drawMembers(model, layout.members, &grid)
        drawFooter(model, layout.footer, &grid)
        switch model.mode {
        case .help(let scroll): drawHelp(model, scroll: scroll, &grid)
        case .detail(let seq, let scroll, let raw): drawDetail(model, seq: seq, scroll: scroll, raw: raw, &grid)
        case .closeMenu(let selected): drawCloseMenu(model, selected: selected, &grid)
        case .timeline(let window): drawTimeline(model, window, &grid)
        case .normal, .prompt: break
        }
        return grid
    }

    /// The panes for `size`, the Channels pane as wide as its rows need (when the Connection
    /// pane can spare it) and the top row as tall as the Connection pane's lines need (up to half
    /// the screen).
    static func layout(_ model: Model, size: Size) -> Layout {
        let wide = channelsWidthWanted(model)
        let first = Layout(size: size, channelsWant: wide)
        let rows = connectionLines(model, width: first.connection.inner.width).count + 2
        return Layout(size: size, channelsWant: wide, connectionWant: rows)
    }

    /// `● REC path (N)` on the Events pane's bottom border while `--record` writes a file; a long
    /// path keeps its end (the file name).
    static func drawRecording(_ model: Model, _ rect: Rect, _ grid: inout Grid) {
        guard let recording = model.recording, rect.width > 12, rect.height >= 2 else { return }
        let count = " (\(recording.lines)) "
        let room = rect.width - 4 - DisplayWidth.of(" ● REC ") - DisplayWidth.of(count)
        guard room >= 4 else { return }
        var path = recording.path
        if DisplayWidth.of(path) > room {
            while DisplayWidth.of(path) > room - 1, !path.isEmpty { path.removeFirst() }
            path = "…" + path
        }
        let y = rect.y + rect.height - 1
        var x = rect.x + 1
        x += grid.put(" ● REC ", x: x, y: y, style: CellStyle(.bad, bold: true))
        x += grid.put(path, x: x, y: y, style: CellStyle(.normal))
        grid.put(count, x: x, y: y, style: CellStyle(.dim))
    }

    /// Writes `segments` on one row from `x`, clipped at `width` columns.
    static func putLine(_ segments: [(String, CellStyle)], x: Int, y: Int, width: Int, _ grid: inout Grid) {
        var col = 0
        for (text, style) in segments where col < width {
            col += grid.put(text, x: x + col, y: y, maxWidth: width - col, style: style)
        }
    }

    static func stateRole(_ state: ConnectionState) -> ColorRole {
        switch state {
        case .connected: return .good
        case .connecting, .unavailable: return .warn
        case .failed: return .bad
        case .initialized, .disconnected: return .dim
        }
    }
}
