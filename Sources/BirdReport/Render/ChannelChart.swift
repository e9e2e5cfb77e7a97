/// A channel's event rate over time: one bar per time bucket on the timeline's axis, the
/// stretches when it was not subscribed hatched behind, subscriptions and errors marked.
enum ChannelChart {
    static let height = 74.0
    static let baseline = 44.0
    static let barTop = 8.0

    static func render(_ channel: ChannelSummary, index: Int, summary s: SessionSummary) -> String {
        let axis = TimeAxis(endMs: s.endMs)
        let c = ReportFormat.coordinate
        let peak = channel.buckets.max() ?? 0
        let perSecond = s.bucketMs > 0 ? Double(peak) / (s.bucketMs / 1000) : 0
        let id = "chart-\(index)"
        let description =
            "\(channel.eventCount) events in buckets of \(ReportFormat.duration(s.bucketMs)); busiest bucket \(peak) "
            + "(\(rate(perSecond)) per second); " + ReportFormat.count(channel.gaps.count, "gap")
            + " in the subscription."
        var out = """
            <svg class="chart rate" viewBox="0 0 \(c(TimeAxis.width)) \(c(height))" role="img" \
            aria-labelledby="\(id)-title \(id)-desc" preserveAspectRatio="xMinYMin meet">
            <title id="\(id)-title">Events per \(HTML.escape(ReportFormat.duration(s.bucketMs))) on \(HTML.recorded(channel.name))</title>
            <desc id="\(id)-desc">\(HTML.recorded(description))</desc>

            """
        out +=
            "<text class=\"lane-label\" x=\"\(c(TimeAxis.left - 8))\" y=\"\(c(barTop + 8))\" text-anchor=\"end\">peak \(HTML.escape(rate(perSecond)))/s</text>"
        out +=
            "<text class=\"lane-label\" x=\"\(c(TimeAxis.left - 8))\" y=\"\(c(baseline))\" text-anchor=\"end\">0</text>\n"
        for gap in channel.gaps {
            let x0 = axis.x(gap.startMs)
            let width = max(axis.x(gap.endMs) - x0, 1)
            var title =
                "not subscribed from \(ReportFormat.offset(gap.startMs)) to \(ReportFormat.offset(gap.endMs))"
                + " (\(ReportFormat.duration(gap.durationMs)))"
            title +=
                gap.open
                ? ", still when the recording ended"
                : ": " + (gap.lossText ?? "events published then were not received")
            out +=
                "<rect class=\"gap\" data-start-ms=\"\(ReportFormat.whole(gap.startMs))\" data-end-ms=\"\(ReportFormat.whole(gap.endMs))\""
            out +=
                " x=\"\(c(x0))\" y=\"\(c(barTop - 4))\" width=\"\(c(width))\" height=\"\(c(baseline - barTop + 4))\">"
            out += "<title>\(HTML.escape(title))</title></rect>\n"
        }
        if peak > 0 {
            for (i, count) in channel.buckets.enumerated() where count > 0 {
                let start = Double(i) * s.bucketMs
                let end = min(start + s.bucketMs, max(s.endMs, 1))
                let x0 = axis.x(start)
                let width = max(axis.x(end) - x0 - 0.8, 0.8)
                let h = max((baseline - barTop) * Double(count) / Double(peak), 1)
                let title =
                    "\(ReportFormat.count(count, "event")) from \(ReportFormat.offset(start)) to \(ReportFormat.offset(end))"
                out += "<rect class=\"bar\" data-count=\"\(count)\" x=\"\(c(x0 + 0.4))\" y=\"\(c(baseline - h))\""
                out += " width=\"\(c(width))\" height=\"\(c(h))\"><title>\(HTML.escape(title))</title></rect>\n"
            }
        }
        out +=
            "<line class=\"baseline\" x1=\"\(c(TimeAxis.left))\" y1=\"\(c(baseline))\" x2=\"\(c(TimeAxis.right))\" y2=\"\(c(baseline))\"/>\n"
        for at in channel.subscribedAtMs {
            out +=
                SVGShapes.marker(
                    .triangleUp, x: axis.x(at), y: baseline + 6, size: 4, className: "sub-mark",
                    title: HTML.escape("subscribed at \(ReportFormat.offset(at))")) + "\n"
        }
        for error in channel.errors {
            var title = "subscription error at \(ReportFormat.offset(error.atMs))"
            if let type = error.type { title += ": \(type)" }
            if let status = error.status { title += " \(status)" }
            out +=
                SVGShapes.marker(
                    .square, x: axis.x(error.atMs), y: baseline + 7, size: 3.5, className: "chan-error",
                    title: HTML.recorded(title)) + "\n"
        }
        out += axis.draw(y: baseline + 12)
        return out + "</svg>\n"
    }

    /// Events per second with one decimal below 10.
    static func rate(_ perSecond: Double) -> String {
        if perSecond >= 10 { return String(ReportFormat.whole(perSecond)) }
        let tenths = ReportFormat.whole(perSecond * 10)
        return "\(tenths / 10).\(tenths % 10)"
    }
}
