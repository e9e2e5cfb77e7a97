// The footer: a prompt, a status message, or the keys of the current scope.

extension Inspector {
    static func scope(of mode: Mode) -> KeyScope {
        switch mode {
        case .normal: return .main
        case .prompt: return .prompt
        case .help: return .help
        case .detail: return .detail
        case .closeMenu: return .closeMenu
        }
    }

    static func drawFooter(_ model: Model, _ rect: Rect, _ grid: inout Grid) {
        let y = rect.y, w = rect.width
        if case .prompt(let prompt) = model.mode {
            let hint = "  Enter submit · Esc cancel"
            let hintWidth = DisplayWidth.of(hint)
            let room = max(1, w - hintWidth - DisplayWidth.of(prompt.label) - 1)
            // Show the tail of long input.
            var text = prompt.text
            while DisplayWidth.of(text) > room, !text.isEmpty { text.removeFirst() }
            putLine([(prompt.label, CellStyle(.accent, bold: true)), (text, .plain), ("█", CellStyle(.accent))],
                    x: 0, y: y, width: w - hintWidth, &grid)
            if let flash = model.flash, flash.isError {
                let msg = DisplayWidth.truncate(flash.text, to: max(0, w - hintWidth - 1))
                grid.put(msg, x: w - hintWidth - DisplayWidth.of(msg), y: y, style: CellStyle(.bad, bold: true))
            }
            grid.put(hint, x: w - hintWidth, y: y, style: CellStyle(.dim))
            return
        }
        if let flash = model.flash, model.mode == .normal {
            grid.put(DisplayWidth.truncate(flash.text, to: w), x: 0, y: y, style: CellStyle(flash.isError ? .bad : .info, bold: true))
            return
        }
        var bindings = KeyBindings.scope(scope(of: model.mode)).filter(\.inFooter)
        if model.playback != nil && model.mode == .normal {
            // Replaying: the playback keys first; keys that would talk to an edge are left out.
            bindings = KeyBindings.scope(.replay).filter(\.inFooter) + bindings.filter { !$0.liveOnly }
        }
        let essential: Set<Action> = [.subscribe, .trigger, .filter, .pause, .detail, .commandLine, .help, .quit,
                                      .playPause, .step, .nextState]
        var items: [(key: String, label: String, ok: Bool, pinned: Bool)] = bindings.map { b in
            var label = b.action == .pause && model.paused ? "follow" : b.label
            if b.action == .playPause, model.playback?.paused == true { label = "resume replay" }
            return (b.keys[0].name, label, b.unavailable(model) == nil, b.action == .help || b.action == .quit)
        }
        var keep = bindings.map { essential.contains($0.action) }
        func width(_ list: [(key: String, label: String, ok: Bool, pinned: Bool)]) -> Int {
            list.reduce(0) { $0 + DisplayWidth.of($1.key) + DisplayWidth.of($1.label) + 3 }
        }
        // Drop unavailable keys first, then others from the end, until the rest fits; `?` and `q` stay.
        func drop(_ i: Int) {
            items.remove(at: i)
            keep.remove(at: i)
        }
        while width(items) > w, let i = items.indices.last(where: { !items[$0].pinned && !items[$0].ok }) { drop(i) }
        while width(items) > w, let i = items.indices.last(where: { !items[$0].pinned && !keep[$0] }) { drop(i) }
        while width(items) > w, let i = items.indices.last(where: { !items[$0].pinned }) { drop(i) }
        var x = 0
        for item in items {
            x += grid.put(" \(item.key) ", x: x, y: y, style: CellStyle(item.ok ? .accent : .dim, bold: item.ok, reverse: item.ok))
            x += grid.put(item.label + " ", x: x, y: y, style: CellStyle(item.ok ? .normal : .dim))
        }
    }
}
