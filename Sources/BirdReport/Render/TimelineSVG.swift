import BirdWire

/// The timeline: one SVG with lanes along a shared time axis — connection states as spans, then
/// closes and drops, retry waits, auth requests, errors, and (when the recording has them)
/// network changes, scenario steps and dropped entries. Every mark has a `<title>` in words.
enum TimelineSVG {
    /// A lane: its label and top.
    private struct Lane {
        var label: String
        var top: Double
        var height: Double
        var mid: Double { top + height / 2 }
    }

    static func render(_ s: SessionSummary) -> String {
        let axis = TimeAxis(endMs: s.endMs)
        let c = ReportFormat.coordinate
        var lanes: [Lane] = []
        var top = 8.0
        func lane(_ label: String, _ height: Double) -> Lane {
            let l = Lane(label: label, top: top, height: height)
            top += height + 6
            lanes.append(l)
            return l
        }
        let states = lane("connection", 34)
        let ends = lane("closes, drops", 32)
        let retries = lane("retry waits", 18)
        let auth = lane("auth requests", 18)
        let errors = lane("errors", 18)
        let others = s.markers.isEmpty ? nil : lane("network, scenario", 18)
        let axisY = top + 2
        let height = axisY + 22

        let description =
            "Connection states over \(ReportFormat.duration(s.endMs)): " + ReportFormat.count(s.spans.count, "span")
            + ", " + ReportFormat.count(s.ends.count, "close or failure", "closes and failures") + ", "
            + ReportFormat.count(s.retries.count, "retry wait") + ", "
            + ReportFormat.count(s.auth.count, "auth request")
            + ", " + ReportFormat.count(s.errors.count, "error") + "."
        var out = """
            <svg class="chart timeline" viewBox="0 0 \(c(TimeAxis.width)) \(c(height))" role="img" \
            aria-labelledby="timeline-title timeline-desc" preserveAspectRatio="xMinYMin meet">
            <title id="timeline-title">Timeline of the connection</title>
            <desc id="timeline-desc">\(HTML.escape(description))</desc>

            """
        for l in lanes {
            out +=
                "<rect class=\"lane-bg\" x=\"\(c(TimeAxis.left))\" y=\"\(c(l.top))\" width=\"\(c(TimeAxis.right - TimeAxis.left))\" height=\"\(c(l.height))\"/>"
            out +=
                "<text class=\"lane-label\" x=\"\(c(TimeAxis.left - 8))\" y=\"\(c(l.mid + 4))\" text-anchor=\"end\">\(l.label)</text>\n"
        }
        out += spans(s, axis: axis, lane: states)
        out += guides(s, axis: axis, from: states.top, to: ends.top + ends.height)
        out += endMarks(s, axis: axis, lane: ends)
        out += retryBars(s, axis: axis, lane: retries)
        out += authMarks(s, axis: axis, lane: auth)
        out += errorMarks(s, axis: axis, lane: errors)
        if let others { out += otherMarks(s, axis: axis, lane: others) }
        out += axis.draw(y: axisY) + "\n</svg>\n"
        return out
    }

    private static func spans(_ s: SessionSummary, axis: TimeAxis, lane: Lane) -> String {
        let c = ReportFormat.coordinate
        var out = "<g class=\"spans\">\n"
        for span in s.spans {
            let x0 = axis.x(span.startMs)
            let width = max(axis.x(span.endMs) - x0, 0.6)
            var title =
                "\(span.state.rawValue) from \(ReportFormat.offset(span.startMs)) to \(ReportFormat.offset(span.endMs))"
            title += " (\(ReportFormat.duration(span.durationMs)))"
            if let id = span.connectionId { title += ", connection \(id)" }
            if span.isLast { title += ", when the recording ended" }
            out += "<rect class=\"span state-\(span.state.rawValue)\" data-state=\"\(span.state.rawValue)\""
            out +=
                " data-start-ms=\"\(ReportFormat.whole(span.startMs))\" data-end-ms=\"\(ReportFormat.whole(span.endMs))\""
            out += " x=\"\(c(x0))\" y=\"\(c(lane.top))\" width=\"\(c(width))\" height=\"\(c(lane.height))\""
            out += " fill=\"\(ReportStyle.fillURL(span.state))\"><title>\(HTML.recorded(title))</title></rect>\n"
            let label = span.state.rawValue
            if width >= Double(label.count) * 6.2 + 6 {
                out += "<text class=\"span-label\" x=\"\(c(x0 + 4))\" y=\"\(c(lane.mid + 4))\">\(label)</text>\n"
            }
        }
        return out + "</g>\n"
    }

    /// Dashed lines from each lost connection down to its mark.
    private static func guides(_ s: SessionSummary, axis: TimeAxis, from: Double, to: Double) -> String {
        let c = ReportFormat.coordinate
        var out = "<g class=\"guides\" aria-hidden=\"true\">"
        for end in s.losses {
            let x = axis.x(end.atMs)
            out += "<line class=\"guide\" x1=\"\(c(x))\" y1=\"\(c(from))\" x2=\"\(c(x))\" y2=\"\(c(to))\"/>"
        }
        return out + "</g>\n"
    }

    /// The shape and class of an end's mark.
    static func endShape(_ end: ConnectionEnd) -> (SVGShapes.Shape, String) {
        switch end.reason {
        case .close: return (.triangleDown, end.to.known == .failed ? "end end-close end-failed" : "end end-close")
        case .drop: return (.cross, "end end-drop")
        case .refused: return (.square, "end end-refused")
        case .networkError: return (.circle, "end end-network")
        case .disconnect: return (.bar, "end end-disconnect")
        case .other: return (.diamond, "end end-other")
        }
    }

    private static func endMarks(_ s: SessionSummary, axis: TimeAxis, lane: Lane) -> String {
        let c = ReportFormat.coordinate
        var out = "<g class=\"ends\">\n"
        // Lost connections on the upper row, failed attempts on the lower one, each row
        // labelled where there is room.
        let xs = s.ends.map { axis.x($0.atMs) }
        // The x of the next mark in the same row: a label goes only where it does not reach it.
        var nextInRow = Array(repeating: Double.infinity, count: s.ends.count)
        var seen: [Bool: Double] = [:]
        for i in s.ends.indices.reversed() {
            nextInRow[i] = seen[s.ends[i].isLoss] ?? .infinity
            seen[s.ends[i].isLoss] = xs[i]
        }
        var labelEnd: [Bool: Double] = [:]
        for (i, end) in s.ends.enumerated() {
            let x = xs[i]
            let y = end.isLoss ? lane.top + 9 : lane.top + lane.height - 9
            let (shape, className) = endShape(end)
            var title = end.isLoss ? "connection lost" : "attempt failed"
            title += " at \(ReportFormat.offset(end.atMs)): "
            if let code = end.reason.closeCode {
                title += "close \(code) \(CloseCode.meaning(code))"
                if let reason = Headline.closeReason(end.cause) { title += " (\(reason))" }
            } else {
                title += end.cause ?? end.reason.label
            }
            title += " → \(end.to.rawValue)"
            if let wait = end.retryWaitMs { title += "; next attempt in \(ReportFormat.duration(wait))" }
            var data =
                " data-reason=\"\(HTML.escape(end.reason.label))\" data-at-ms=\"\(ReportFormat.whole(end.atMs))\""
            if let code = end.reason.closeCode { data += " data-code=\"\(code)\"" }
            out += SVGShapes.marker(
                shape, x: x, y: y, size: 4.5, className: className, title: HTML.recorded(title), data: data)
            let label = end.reason.label
            let width = Double(label.count) * 6 + 8
            if x >= labelEnd[end.isLoss] ?? -1000, nextInRow[i] - x >= width + 6, x + width <= TimeAxis.width {
                out += "<text class=\"mark-label\" x=\"\(c(x + 7))\" y=\"\(c(y + 3.5))\">\(HTML.escape(label))</text>"
                labelEnd[end.isLoss] = x + 7 + width
            }
            out += "\n"
        }
        return out + "</g>\n"
    }

    private static func retryBars(_ s: SessionSummary, axis: TimeAxis, lane: Lane) -> String {
        let c = ReportFormat.coordinate
        var out = "<g class=\"retries\">\n"
        for retry in s.retries {
            let x0 = axis.x(retry.atMs)
            let width = max(axis.x(retry.atMs + retry.waitMs) - x0, 1.5)
            var title = "retry"
            if let attempt = retry.attempt { title += " attempt \(attempt)" }
            title += " scheduled at \(ReportFormat.offset(retry.atMs)): waited \(ReportFormat.duration(retry.waitMs))"
            if let cause = retry.cause { title += " after \(cause)" }
            out += "<rect class=\"retry\" data-wait-ms=\"\(ReportFormat.whole(retry.waitMs))\" x=\"\(c(x0))\""
            out += " y=\"\(c(lane.top + 3))\" width=\"\(c(width))\" height=\"\(c(lane.height - 6))\">"
            out += "<title>\(HTML.recorded(title))</title></rect>"
            out +=
                "<line class=\"retry-start\" aria-hidden=\"true\" x1=\"\(c(x0))\" y1=\"\(c(lane.top))\" x2=\"\(c(x0))\" y2=\"\(c(lane.top + lane.height))\"/>\n"
        }
        return out + "</g>\n"
    }

    private static func authMarks(_ s: SessionSummary, axis: TimeAxis, lane: Lane) -> String {
        var out = "<g class=\"auth\">\n"
        // Failures last, so a success at the same moment does not hide one.
        for request in s.auth.filter({ !$0.failed }) + s.auth.filter(\.failed) {
            var title = "\(request.kind) auth"
            if let channel = request.channel { title += " for \(channel)" }
            title += " at \(ReportFormat.offset(request.atMs)): "
            title += request.status.map { "HTTP \($0)" } ?? "no answer (\(request.error ?? "error"))"
            if let ms = request.durationMs { title += " in \(ReportFormat.duration(ms))" }
            let failed = request.failed
            out +=
                SVGShapes.marker(
                    failed ? .square : .circle, x: axis.x(request.atMs), y: lane.mid, size: failed ? 4.5 : 4,
                    className: failed ? "auth-failed" : "auth-ok", title: HTML.recorded(title),
                    data: " data-status=\"\(HTML.escape(request.resultLabel))\"") + "\n"
        }
        return out + "</g>\n"
    }

    private static func errorMarks(_ s: SessionSummary, axis: TimeAxis, lane: Lane) -> String {
        var out = "<g class=\"errors\">\n"
        for error in s.errors {
            var title = "\(error.kind.replacingAll("_", with: " "))"
            if let code = error.code { title += " \(code)" }
            if let channel = error.channel { title += " on \(channel)" }
            title += " at \(ReportFormat.offset(error.atMs)): \(error.message)"
            if let detail = error.detail { title += " (\(detail))" }
            out +=
                SVGShapes.marker(
                    .triangleUp, x: axis.x(error.atMs), y: lane.mid, size: 5, className: "error-mark",
                    title: HTML.recorded(title), data: " data-kind=\"\(HTML.escape(error.kind))\"") + "\n"
        }
        return out + "</g>\n"
    }

    /// The shape and class of a marker.
    static func markerShape(_ kind: Marker.Kind) -> (SVGShapes.Shape, String) {
        switch kind {
        case .network: return (.diamond, "marker-network")
        case .scenario: return (.star, "marker-scenario")
        case .dropped: return (.bar, "marker-dropped")
        }
    }

    private static func otherMarks(_ s: SessionSummary, axis: TimeAxis, lane: Lane) -> String {
        var out = "<g class=\"markers\">\n"
        for marker in s.markers {
            let (shape, className) = markerShape(marker.kind)
            let title = "\(marker.kind.rawValue) at \(ReportFormat.offset(marker.atMs)): \(marker.label)"
            out +=
                SVGShapes.marker(
                    shape, x: axis.x(marker.atMs), y: lane.mid, size: 5.5, className: "marker \(className)",
                    title: HTML.recorded(title), data: " data-kind=\"\(marker.kind.rawValue)\"") + "\n"
        }
        return out + "</g>\n"
    }
}
