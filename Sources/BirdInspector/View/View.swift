// `view`: the model drawn into a grid. Pure; the backend only copies the grid to the terminal.

import BirdRealtime
import Foundation

extension Inspector {
    /// Renders the model at `size`.
    public static func view(_ model: Model, size: Size) -> Grid {
        var grid = Grid(size: size)
        let layout = Layout(size: size)
        if layout.tooSmall {
            let notice = "enlarge the window to at least \(Layout.minimum.width)×\(Layout.minimum.height) (now \(size.width)×\(size.height)) · q quits"
            grid.put(DisplayWidth.truncate(notice, to: size.width), x: 0, y: 0, style: CellStyle(.warn, bold: true))
            return grid
        }
        drawConnection(model, layout.connection, &grid)
        drawChannels(model, layout.channels, &grid)
        drawEvents(model, layout.events, &grid)
        drawMembers(model, layout.members, &grid)
        drawFooter(model, layout.footer, &grid)
        switch model.mode {
        case .help(let scroll): drawHelp(model, scroll: scroll, &grid)
        case .detail(let seq, let scroll, let raw): drawDetail(model, seq: seq, scroll: scroll, raw: raw, &grid)
        case .closeMenu(let selected): drawCloseMenu(model, selected: selected, &grid)
        case .normal, .prompt: break
        }
        return grid
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
