/// The report's look: one stylesheet and the SVG fill patterns, inline (nothing is fetched).
/// Every state has a colour *and* a pattern, so spans stay apart in grey print and for readers
/// who do not tell the colours apart.
enum ReportStyle {
    /// A state's fill: base colour, pattern ink and how the pattern is drawn.
    struct Fill {
        var id: String
        var base: String
        var ink: String
        var kind: Kind

        enum Kind { case plain, dots, forward, backward, horizontal, vertical, cross }
    }

    static let stateFills: [SessionState: Fill] = [
        SessionState(.initialized): Fill(id: "p-initialized", base: "#eceff1", ink: "#78909c", kind: .dots),
        SessionState(.connecting): Fill(id: "p-connecting", base: "#ffe082", ink: "#a67c00", kind: .forward),
        SessionState(.connected): Fill(id: "p-connected", base: "#66bb6a", ink: "#66bb6a", kind: .plain),
        SessionState(.unavailable): Fill(id: "p-unavailable", base: "#ffab91", ink: "#bf360c", kind: .backward),
        SessionState(.disconnected): Fill(id: "p-disconnected", base: "#cfd8dc", ink: "#455a64", kind: .horizontal),
        SessionState(.failed): Fill(id: "p-failed", base: "#e53935", ink: "#5d0000", kind: .cross),
        SessionState.unknown: Fill(id: "p-unknown", base: "#ffffff", ink: "#9e9e9e", kind: .dots),
    ]

    static let retryFill = Fill(id: "p-retry", base: "#fff3e0", ink: "#e65100", kind: .forward)
    static let gapFill = Fill(id: "p-gap", base: "#f5f5f5", ink: "#9e9e9e", kind: .backward)

    /// The fill reference for a state.
    static func fillURL(_ state: SessionState) -> String { "url(#\(stateFills[state]?.id ?? "p-unknown"))" }

    /// One hidden SVG whose `<defs>` every other SVG on the page refers to.
    static var patternDefinitions: String {
        let fills = SessionState.allCases.compactMap { stateFills[$0] } + [retryFill, gapFill]
        var out = "<svg class=\"defs\" width=\"0\" height=\"0\" aria-hidden=\"true\" focusable=\"false\"><defs>\n"
        for fill in fills { out += pattern(fill) + "\n" }
        out += "</defs></svg>\n"
        return out
    }

    private static func pattern(_ f: Fill) -> String {
        let head = "<pattern id=\"\(f.id)\" patternUnits=\"userSpaceOnUse\" width=\"8\" height=\"8\">"
        let base = "<rect width=\"8\" height=\"8\" fill=\"\(f.base)\"/>"
        let ink: String
        switch f.kind {
        case .plain: ink = ""
        case .dots: ink = "<circle cx=\"4\" cy=\"4\" r=\"1.3\" fill=\"\(f.ink)\"/>"
        case .forward: ink = "<path d=\"M-2 2L2 -2M0 8L8 0M6 10L10 6\" stroke=\"\(f.ink)\" stroke-width=\"1.6\"/>"
        case .backward: ink = "<path d=\"M-2 6L2 10M0 0L8 8M6 -2L10 2\" stroke=\"\(f.ink)\" stroke-width=\"1.6\"/>"
        case .horizontal: ink = "<path d=\"M0 2H8M0 6H8\" stroke=\"\(f.ink)\" stroke-width=\"1.2\"/>"
        case .vertical: ink = "<path d=\"M2 0V8M6 0V8\" stroke=\"\(f.ink)\" stroke-width=\"1.2\"/>"
        case .cross:
            ink = "<path d=\"M0 0L8 8M8 0L0 8\" stroke=\"\(f.ink)\" stroke-width=\"1.4\"/>"
        }
        return head + base + ink + "</pattern>"
    }

    static let css = """
        :root { color-scheme: light; }
        * { box-sizing: border-box; }
        body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", Roboto, sans-serif;
               color: #1b1b1b; background: #fff; max-width: 1120px; margin: 0 auto; padding: 16px 24px 40px; }
        h1 { font-size: 1.6em; margin: 0.2em 0 0.1em; }
        h2 { font-size: 1.25em; margin: 1.6em 0 0.5em; padding-bottom: 0.2em; border-bottom: 1px solid #cfd8dc; }
        h3 { font-size: 1.05em; margin: 1.2em 0 0.3em; }
        .source { color: #455a64; margin: 0 0 0.6em; }
        nav ul { list-style: none; padding: 0; margin: 0.4em 0; display: flex; flex-wrap: wrap; gap: 4px 14px; }
        nav a { color: #1f4e79; }
        .headline { font-size: 1.2em; font-weight: 600; background: #f3f6f9; border-left: 5px solid #1f4e79;
                    padding: 0.55em 0.9em; margin: 0.4em 0 0.8em; }
        dl.figures { display: grid; grid-template-columns: max-content 1fr; gap: 2px 18px; margin: 0; }
        dl.figures dt { color: #455a64; }
        dl.figures dd { margin: 0; font-variant-numeric: tabular-nums; }
        .matches { margin: 0.8em 0 0; }
        figure { margin: 0.6em 0; }
        figcaption { color: #455a64; font-size: 0.92em; }
        svg.chart { width: 100%; height: auto; display: block; }
        svg.defs { position: absolute; width: 0; height: 0; overflow: hidden; }
        svg text { font-family: inherit; font-size: 11px; fill: #263238; }
        .lane-bg { fill: #fafbfc; stroke: #eceff1; }
        .lane-label { font-size: 11px; fill: #455a64; }
        .span { stroke: #ffffff; stroke-width: 0.6; }
        .span-label { font-size: 11px; fill: #102027; paint-order: stroke; stroke: #ffffff; stroke-width: 3px;
                      stroke-linejoin: round; pointer-events: none; }
        .axis line, .tick { stroke: #90a4ae; stroke-width: 1; }
        .tick-label { font-size: 10px; fill: #455a64; }
        .guide { stroke: #37474f; stroke-width: 0.8; stroke-dasharray: 2 2; }
        .end-close { fill: #6a1b9a; stroke: #38006b; }
        .end-failed { fill: #b71c1c; stroke: #5d0000; }
        .end-drop { fill: none; stroke: #bf360c; stroke-width: 2.2; }
        .end-refused { fill: #ffffff; stroke: #bf360c; stroke-width: 1.6; }
        .end-network { fill: #ffffff; stroke: #e65100; stroke-width: 1.6; }
        .end-disconnect, .end-other { fill: #546e7a; stroke: #263238; }
        .mark-label { font-size: 10px; fill: #263238; }
        .retry { fill: url(#p-retry); stroke: #e65100; stroke-width: 0.8; }
        .retry-start { stroke: #e65100; stroke-width: 1.5; }
        .auth-ok { fill: #2e7d32; stroke: #1b5e20; }
        .auth-failed { fill: #c62828; stroke: #5d0000; }
        .error-mark { fill: #ffca28; stroke: #b71c1c; stroke-width: 1.4; }
        .marker-network { fill: #1565c0; stroke: #0d47a1; }
        .marker-scenario { fill: #8e24aa; stroke: #4a148c; }
        .marker-dropped { fill: #757575; stroke: #212121; }
        .bar { fill: #1f77b4; }
        .gap { fill: url(#p-gap); stroke: #9e9e9e; stroke-width: 0.6; }
        .sub-mark { fill: #2e7d32; }
        .chan-error { fill: #c62828; }
        .baseline { stroke: #90a4ae; stroke-width: 1; }
        ul.legend { list-style: none; padding: 0; margin: 0.4em 0 0.8em; display: flex; flex-wrap: wrap; gap: 4px 16px;
                    font-size: 12.5px; }
        ul.legend li { display: flex; align-items: center; gap: 5px; }
        ul.legend svg { width: 26px; height: 16px; flex: none; }
        table { border-collapse: collapse; width: 100%; font-size: 13px; margin: 0.4em 0 1em; }
        caption { text-align: left; font-weight: 600; padding: 0.3em 0; }
        th, td { border-bottom: 1px solid #e0e0e0; padding: 3px 8px; text-align: left; vertical-align: top; }
        th { background: #f3f6f9; font-weight: 600; }
        td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        td.clock { color: #546e7a; font-variant-numeric: tabular-nums; white-space: nowrap; }
        tr.failed td { background: #fdecea; }
        tr.failed td:first-child { box-shadow: inset 4px 0 0 #c62828; }
        .channel { border: 1px solid #e0e0e0; border-radius: 4px; padding: 0.3em 0.9em 0.6em; margin: 0.8em 0; }
        .channel h3 { margin-top: 0.5em; }
        .kind { font-weight: normal; color: #546e7a; font-size: 0.9em; }
        .facts { margin: 0.2em 0; }
        .none { color: #546e7a; font-style: italic; }
        pre { background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 4px; padding: 8px 10px;
              white-space: pre-wrap; word-break: break-all; font-size: 12.5px; }
        code { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; }
        footer { margin-top: 2em; color: #546e7a; font-size: 0.9em; border-top: 1px solid #cfd8dc; padding-top: 0.5em; }
        @media print {
          body { max-width: none; padding: 0; font-size: 11px; }
          table, ul.legend, pre { font-size: 10px; }
          nav { display: none; }
          * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
          h2 { break-after: avoid; }
          figure, tr, .channel, .headline { break-inside: avoid; }
          a { color: inherit; text-decoration: none; }
          pre { white-space: pre-wrap; }
        }
        """
}
