// What the Events pane shows of the filter, the search and the marks: its title label and the
// gutter.

extension Inspector {
    /// The Events pane's right label: the filter and how many entries match it, the search and
    /// its matches, the marks, then live / paused.
    static func eventsLabel(_ model: Model, shown seqs: [Int]) -> String {
        var parts: [String] = []
        if model.filterQuery.isEmpty {
            parts.append("\(model.log.count)")
        } else {
            parts.append("filter “\(model.filter)” \(seqs.count)/\(model.log.count)")
        }
        if let search = model.find.search {
            let hits = seqs.reduce(0) { n, seq in n + (isSearchMatch(seq, model) ? 1 : 0) }
            parts.append("search “\(search.text)” \(hits) · n/N")
        }
        let marks = model.find.marks.filter { $0 >= model.log.firstSeq }.count
        if marks > 0 { parts.append("\(marks) marked · ]/[") }
        parts.append(model.paused ? "paused" : "live")
        return parts.joined(separator: " · ")
    }

    /// The gutter cell of entry `seq`: ● (ASCII `*`) when marked, else ▸ (`>`) when it matches
    /// the search.
    static func drawGutter(_ model: Model, _ seq: Int, x: Int, y: Int, _ grid: inout Grid) {
        let unicode = model.config.unicode
        if model.find.marks.contains(seq) {
            grid.put(unicode ? "●" : "*", x: x, y: y, style: CellStyle(.warn, bold: true))
        } else if isSearchMatch(seq, model) {
            grid.put(unicode ? "▸" : ">", x: x, y: y, style: CellStyle(.info, bold: true))
        }
    }

    /// The keys a prompt's footer names on the right; the filter and search prompts also name
    /// the query's fields when the row has room.
    static func promptHint(_ prompt: Prompt, width: Int) -> String {
        switch prompt.purpose {
        case .command: return "  Tab complete · ↑↓ history · Enter · Esc"
        case .filter, .search:
            return width >= 100 ? "  ch: ev: dir:in|out kind: /re/ !not · Enter · Esc" : "  Enter submit · Esc cancel"
        default: return "  Enter submit · Esc cancel"
        }
    }
}
