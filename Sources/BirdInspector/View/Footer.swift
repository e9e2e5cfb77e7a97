// The footer: a prompt, a status message, or the keys of the current scope.

extension Inspector {
    static func scope(of mode: Mode) -> KeyScope {
        switch mode {
        case .normal: return .main
        case .prompt: return .prompt
        case .help: return .help
        case .detail: return .detail
        case .closeMenu: return .closeMenu
        case .timeline: return .timeline
        }
    }

    static func drawFooter(_ model: Model, _ rect: Rect, _ grid: inout Grid) {
        let y = rect.y, w = rect.width
        if case .prompt(let prompt) = model.mode {
            let hint = promptHint(prompt, width: w)
            let hintWidth = DisplayWidth.of(hint)
            let room = max(1, w - hintWidth - DisplayWidth.of(prompt.label) - 1)
            // Show the tail of long input.
            var text = prompt.text
            while DisplayWidth.of(text) > room, !text.isEmpty { text.removeFirst() }
            putLine(
                [(prompt.label, CellStyle(.accent, bold: true)), (text, .plain), ("█", CellStyle(.accent))],
                x: 0, y: y, width: w - hintWidth, &grid)
            if let flash = model.flash, flash.isError {
                let msg = DisplayWidth.truncate(flash.text, to: max(0, w - hintWidth - 1))
                grid.put(msg, x: w - hintWidth - DisplayWidth.of(msg), y: y, style: CellStyle(.bad, bold: true))
            }
            grid.put(hint, x: w - hintWidth, y: y, style: CellStyle(.dim))
            return
        }
        if let flash = model.flash, model.mode == .normal {
            // Too long for the row: cut, saying the whole text is in the log when it is.
            let note = " (whole text in the log)"
            let text =
                flash.logged && DisplayWidth.of(flash.text) > w
                ? DisplayWidth.truncate(flash.text, to: max(1, w - DisplayWidth.of(note))) + note
                : DisplayWidth.truncate(flash.text, to: w)
            grid.put(text, x: 0, y: y, style: CellStyle(flash.isError ? .bad : .info, bold: true))
            return
        }
        var x = 0
        for item in footerItems(model, width: w) {
            x += grid.put(
                item.key, x: x, y: y, style: CellStyle(item.ok ? .accent : .dim, bold: item.ok, reverse: item.ok))
            if !item.label.isEmpty {
                x += grid.put(" " + item.label, x: x, y: y, style: CellStyle(item.ok ? .normal : .dim))
            }
            x += 1
        }
    }

    /// One key in the footer: its name, the label it got, and whether it can be used now.
    struct FooterItem: Equatable {
        var key: String
        var label: String
        var ok: Bool
    }

    /// The footer's keys for `width` columns: every footer key of the current scope, in table
    /// order, always — an unavailable key is dimmed, never left out (while replaying, the keys
    /// that would talk to an edge too). What does not fit is made to fit by shortening labels:
    /// first unavailable keys' labels, then the labels of keys whose symbol speaks for itself
    /// (`q : / Tab Enter`), then the letters' — each first to its abbreviation, then to the key
    /// alone; `?` keeps its label, `? more` while the screen has keys the footer never shows (`f`
    /// find, `w` write…: `?` lists them all), else `? help`. Keys are dropped (from the end, never
    /// `?`) only if even bare keys do not fit.
    static func footerItems(_ model: Model, width: Int) -> [FooterItem] {
        let all = KeyBindings.scope(scope(of: model.mode))
        var bindings = all.filter(\.inFooter)
        if model.playback != nil && model.mode == .normal {
            bindings = KeyBindings.scope(.replay).filter(\.inFooter) + bindings
        }
        let more = all.contains { !$0.inFooter }
        let labels: [[String]] = bindings.map { b in
            if b.action == .help && more { return ["more", "more", ""] }
            if b.action == .pause && model.paused { return ["follow", "live", ""] }
            if b.action == .playPause, model.playback?.paused == true { return ["resume replay", "play", ""] }
            return [b.label, b.short, ""]
        }
        var items = bindings.enumerated().map { i, b in
            FooterItem(key: b.keys[0].name, label: labels[i][0], ok: b.unavailable(model) == nil)
        }
        var level = Array(repeating: 0, count: items.count)
        func total() -> Int {
            items.reduce(0) { $0 + DisplayWidth.of($1.key) + ($1.label.isEmpty ? 0 : 1 + DisplayWidth.of($1.label)) }
                + max(0, items.count - 1)
        }
        /// Lower first: unavailable keys, then self-explanatory symbols, then letters from the end.
        let symbols: Set<Action> = [
            .quit, .help, .commandLine, .filter, .nextPane, .detail, .close, .cancel, .submit,
            .up, .down, .choose,
        ]
        func rank(_ i: Int) -> Int {
            if bindings[i].action == .help { return 4 }  // the way to everything else keeps its word
            return (items[i].ok ? 2 : 0) + (symbols.contains(bindings[i].action) ? 0 : 1)
        }
        let order = items.indices.sorted { a, b in rank(a) != rank(b) ? rank(a) < rank(b) : a > b }
        for target in 1...2 {
            for i in order where total() > width && level[i] < target {
                level[i] = target
                items[i].label = labels[i][target]
            }
        }
        while total() > width, let i = items.indices.last(where: { items[$0].key != "?" }) {
            items.remove(at: i)
        }
        return items
    }
}
