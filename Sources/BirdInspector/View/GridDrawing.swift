// Boxes and labelled borders drawn into a Grid.

extension Grid {
    /// Draws a single-line box around `rect` with `title` at the top left and an optional label
    /// at the top right; a focused box gets a bold, accented border.
    public mutating func box(_ rect: Rect, title: String, focused: Bool = false, rightLabel: String? = nil) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        let style = focused ? CellStyle(.accent, bold: true) : CellStyle(.border)
        let right = rect.x + rect.width - 1
        let bottom = rect.y + rect.height - 1
        put("┌" + String(repeating: "─", count: rect.width - 2) + "┐", x: rect.x, y: rect.y, style: style)
        put("└" + String(repeating: "─", count: rect.width - 2) + "┘", x: rect.x, y: bottom, style: style)
        if rect.height > 2 {
            for row in (rect.y + 1)..<bottom {
                put("│", x: rect.x, y: row, style: style)
                put("│", x: right, y: row, style: style)
            }
        }
        let titleText = " \(title) "
        let titleWidth = put(
            titleText, x: rect.x + 1, y: rect.y, maxWidth: rect.width - 2,
            style: CellStyle(focused ? .accent : .title, bold: true, reverse: focused))
        if let label = rightLabel, !label.isEmpty {
            let room = rect.width - 2 - titleWidth - 2
            if room > 3 {
                let text = DisplayWidth.truncate(" \(label) ", to: room)
                let w = DisplayWidth.of(text)
                put(text, x: right - w, y: rect.y, style: CellStyle(.dim))
            }
        }
    }
}
