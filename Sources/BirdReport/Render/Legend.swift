/// The key to the timeline: each state's colour and pattern, each mark's shape, in words.
enum Legend {
    static func render(_ s: SessionSummary) -> String {
        var out = "<ul class=\"legend\" aria-label=\"Legend\">\n"
        for state in SessionState.allCases where state != .unknown || s.spans.contains(where: { $0.state == .unknown })
        {
            let swatch =
                "<rect class=\"span\" x=\"1\" y=\"2\" width=\"24\" height=\"12\" fill=\"\(ReportStyle.fillURL(state))\" stroke=\"#90a4ae\"/>"
            out += item(swatch, state.rawValue)
        }
        let marks: [(SVGShapes.Shape, String, String)] = [
            (.triangleDown, "end end-close", "close (code beside it)"),
            (.triangleDown, "end end-close end-failed", "close into failed"),
            (.cross, "end end-drop", "drop (no close frame)"),
            (.square, "end end-refused", "refused (nothing listening)"),
            (.circle, "end end-network", "other network error"),
            (.circle, "auth-ok", "auth request answered 2xx"),
            (.square, "auth-failed", "auth request failed"),
            (.triangleUp, "error-mark", "error"),
        ]
        for (shape, className, text) in marks {
            out += item(
                SVGShapes.element(shape, x: 13, y: 8, size: 5, className: className) + SVGShapes.close(shape), text)
        }
        out += item(
            "<rect class=\"retry\" x=\"1\" y=\"4\" width=\"24\" height=\"8\"/><line class=\"retry-start\" x1=\"1\" y1=\"1\" x2=\"1\" y2=\"15\"/>",
            "retry wait (from scheduled to due)")
        for kind in Marker.Kind.allCases where s.markers.contains(where: { $0.kind == kind }) {
            let (shape, className) = TimelineSVG.markerShape(kind)
            let text: String
            switch kind {
            case .network: text = "network change"
            case .scenario: text = "scenario step"
            case .dropped: text = "entries dropped by the recorder"
            }
            out += item(
                SVGShapes.element(shape, x: 13, y: 8, size: 5.5, className: className) + SVGShapes.close(shape), text)
        }
        return out + "</ul>\n"
    }

    private static func item(_ svg: String, _ text: String) -> String {
        "<li><svg viewBox=\"0 0 26 16\" aria-hidden=\"true\" focusable=\"false\">\(svg)</svg>\(HTML.escape(text))</li>\n"
    }
}
