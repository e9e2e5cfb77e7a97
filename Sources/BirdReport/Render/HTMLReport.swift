import BirdRecording
import BirdWire

/// The session report as one self-contained HTML page: inline CSS and SVG, no script, nothing
/// fetched, the same bytes for the same recording. Sections: summary, timeline (with legend and
/// the state changes as a table), channels, auth requests, errors, other moments, notes, and
/// how to reproduce the session.
public enum HTMLReport {
    /// Renders the page for `summary`; `source` is the recording's path as the user gave it
    /// (shown, and used in the replay command).
    public static func render(_ summary: SessionSummary, source: String) -> String {
        let matches = ScenarioMatcher.matches(summary)
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="bird-inspect report">
            <title>Session report: \(HTML.recorded(source))</title>
            <style>
            \(ReportStyle.css)
            </style>
            </head>
            <body>

            """
        html += ReportStyle.patternDefinitions
        html += header(summary, source: source)
        html += "<main>\n"
        html += summarySection(summary, matches: matches)
        html += timelineSection(summary)
        html += channelsSection(summary)
        html += authSection(summary)
        html += errorsSection(summary)
        if !summary.markers.isEmpty { html += markersSection(summary) }
        html += notesSection(summary)
        html += reproduceSection(summary, matches: matches, source: source)
        html += "</main>\n"
        html += """
            <footer>
            <p>Made by <code>bird-inspect report</code> from <code>\(HTML.recorded(source))</code>. Secrets stay out: \
            the recording was redacted when it was written, and this page shows no header values, auth strings, \
            query strings or event data.</p>
            </footer>
            </body>
            </html>

            """
        return html
    }

    // MARK: - Header and summary

    private static func header(_ s: SessionSummary, source: String) -> String {
        let h = s.header
        var facts: [String] = []
        if let tool = h.tool { facts.append("recorded by \(HTML.recorded(tool))") }
        if let ts = h.timestamp {
            facts.append("started <time datetime=\"\(HTML.escape(ts))\">\(HTML.recorded(ts))</time>")
        }
        if let host = h.host {
            var edge = "edge " + HTML.recorded(host) + (h.port.map { ":\($0)" } ?? "")
            var how: [String] = []
            if let tls = h.tls { how.append(tls ? "TLS" : "plain") }
            if let dialect = h.dialect { how.append("\(HTML.recorded(dialect)) dialect") }
            if !how.isEmpty { edge += " (" + how.joined(separator: ", ") + ")" }
            facts.append(edge)
        }
        facts.append("format version \(h.version)")
        return """
            <header>
            <h1>Session report</h1>
            <p class="source"><code>\(HTML.recorded(source))</code> · \(facts.joined(separator: " · "))</p>
            <nav aria-label="Sections"><ul>
            <li><a href="#summary">Summary</a></li><li><a href="#timeline">Timeline</a></li>\
            <li><a href="#channels">Channels</a></li><li><a href="#auth">Auth requests</a></li>\
            <li><a href="#errors">Errors</a></li><li><a href="#reproduce">Reproduce</a></li>
            </ul></nav>
            </header>

            """
    }

    private static func summarySection(_ s: SessionSummary, matches: [ScenarioMatch]) -> String {
        var out = "<section id=\"summary\" aria-labelledby=\"summary-h\">\n<h2 id=\"summary-h\">Summary</h2>\n"
        out += "<p class=\"headline\" id=\"headline\">\(HTML.recorded(Headline.sentence(s), limit: 2000))</p>\n"
        out += "<dl class=\"figures\">\n"
        for figure in Headline.figures(s) {
            out += "<dt>\(HTML.escape(figure.label))</dt><dd>\(HTML.escape(figure.value))</dd>\n"
        }
        out += "</dl>\n"
        if !matches.isEmpty {
            let names = matches.map { "<code>\(HTML.escape($0.name))</code>" }.joined(separator: ", ")
            out += "<p class=\"matches\">Looks like the built-in scenario\(matches.count == 1 ? "" : "s") \(names): "
            out += "see <a href=\"#reproduce\">Reproduce</a>.</p>\n"
        }
        return out + "</section>\n"
    }

    // MARK: - Timeline

    private static func timelineSection(_ s: SessionSummary) -> String {
        var out = "<section id=\"timeline\" aria-labelledby=\"timeline-h\">\n<h2 id=\"timeline-h\">Timeline</h2>\n"
        out += "<figure>\n" + TimelineSVG.render(s)
        out += "<figcaption>Time since the recording started. Hover a mark for its details; the tables below "
        out += "hold the same facts as text.</figcaption>\n</figure>\n"
        out += Legend.render(s)
        out += ReportTables.ends(s)
        out += ReportTables.outages(s)
        out += ReportTables.changes(s)
        return out + "</section>\n"
    }

    // MARK: - Channels

    private static func channelsSection(_ s: SessionSummary) -> String {
        var out = "<section id=\"channels\" aria-labelledby=\"channels-h\">\n<h2 id=\"channels-h\">Channels</h2>\n"
        if s.channels.isEmpty { return out + "<p class=\"none\">No channels in this recording.</p>\n</section>\n" }
        for (i, channel) in s.channels.enumerated() {
            out += "<div class=\"channel\" data-channel=\"\(HTML.recorded(channel.name))\">\n"
            out += "<h3>\(HTML.recorded(channel.name)) <span class=\"kind\">\(channel.kind.rawValue)</span></h3>\n"
            out +=
                "<p class=\"facts\">" + channelFacts(channel).map { HTML.recorded($0) }.joined(separator: " · ")
                + "</p>\n"
            out += ChannelChart.render(channel, index: i, summary: s)
            if !channel.gaps.isEmpty {
                out += "<p class=\"facts\">Not subscribed: "
                let shown = channel.gaps.prefix(20).map { gap in
                    "\(ReportFormat.offset(gap.startMs)) – \(ReportFormat.offset(gap.endMs)) (\(ReportFormat.duration(gap.durationMs))\(gap.open ? ", until the end" : "")\(gap.lossText.map { ", " + $0 } ?? ""))"
                }
                out += HTML.escape(shown.joined(separator: "; "))
                if channel.gaps.count > 20 { out += " … and \(channel.gaps.count - 20) more" }
                out += "</p>\n"
            }
            if !channel.errors.isEmpty {
                out += "<p class=\"facts\">Subscription errors: "
                let shown = channel.errors.prefix(20).map { e in
                    var text = ReportFormat.offset(e.atMs) + " " + (e.type ?? "error")
                    if let status = e.status { text += " \(status)" }
                    if let message = e.message { text += " — \(message)" }
                    return HTML.recorded(text)
                }
                out += shown.joined(separator: "; ")
                if channel.errors.count > 20 { out += " … and \(channel.errors.count - 20) more" }
                out += "</p>\n"
            }
            out += "</div>\n"
        }
        return out + "</section>\n"
    }

    private static func channelFacts(_ c: ChannelSummary) -> [String] {
        var facts: [String] = []
        if let first = c.subscribedAtMs.first {
            facts.append(
                "subscribed " + ReportFormat.count(c.subscribedAtMs.count, "time") + ", first at "
                    + ReportFormat.offset(first))
        } else {
            facts.append("never subscribed")
        }
        facts.append(ReportFormat.count(c.eventCount, "event") + " received")
        if c.sentCount > 0 { facts.append(ReportFormat.count(c.sentCount, "client event") + " sent") }
        if !c.eventNames.isEmpty {
            facts.append(c.eventNames.prefix(5).map { "\($0.name) ×\($0.count)" }.joined(separator: ", "))
        }
        if let quiet = c.longestQuietMs {
            facts.append("longest quiet while subscribed \(ReportFormat.duration(quiet))")
        }
        if !c.errors.isEmpty { facts.append(ReportFormat.count(c.errors.count, "subscription error")) }
        return facts
    }

    // MARK: - Auth, errors, markers, notes

    private static func authSection(_ s: SessionSummary) -> String {
        var out = "<section id=\"auth\" aria-labelledby=\"auth-h\">\n<h2 id=\"auth-h\">Auth requests</h2>\n"
        if s.auth.isEmpty { return out + "<p class=\"none\">No authorization requests.</p>\n</section>\n" }
        out += ReportTables.auth(s)
        return out + "</section>\n"
    }

    private static func errorsSection(_ s: SessionSummary) -> String {
        var out = "<section id=\"errors\" aria-labelledby=\"errors-h\">\n<h2 id=\"errors-h\">Errors</h2>\n"
        if s.errors.isEmpty { return out + "<p class=\"none\">No errors reported.</p>\n</section>\n" }
        out += ReportTables.errors(s)
        return out + "</section>\n"
    }

    private static func markersSection(_ s: SessionSummary) -> String {
        "<section id=\"moments\" aria-labelledby=\"moments-h\">\n<h2 id=\"moments-h\">Network changes and scenario steps</h2>\n"
            + ReportTables.markers(s) + "</section>\n"
    }

    private static func notesSection(_ s: SessionSummary) -> String {
        var notes: [String] = []
        if !s.skipped.isEmpty {
            let shown = s.skipped.prefix(10).map { $0.description }.joined(separator: "; ")
            notes.append(
                ReportFormat.count(s.skipped.count, "line") + " could not be read and "
                    + (s.skipped.count == 1 ? "was" : "were") + " skipped (\(shown)"
                    + (s.skipped.count > 10 ? "; …" : "") + ").")
        }
        for unknown in s.unknownTypes {
            notes.append(
                ReportFormat.count(unknown.count, "line") + " of type “\(unknown.name)” "
                    + (unknown.count == 1 ? "is" : "are") + " not known to this report and "
                    + (unknown.count == 1 ? "was" : "were") + " left out.")
        }
        if s.wireCount == 0 {
            notes.append("The recording has no wire entries, so pings and unsubscribes are not shown.")
        }
        guard !notes.isEmpty else { return "" }
        var out =
            "<section id=\"notes\" aria-labelledby=\"notes-h\">\n<h2 id=\"notes-h\">Notes on the recording</h2>\n<ul>\n"
        for note in notes { out += "<li>\(HTML.recorded(note, limit: 2000))</li>\n" }
        return out + "</ul>\n</section>\n"
    }

    // MARK: - Reproduce

    private static func reproduceSection(_ s: SessionSummary, matches: [ScenarioMatch], source: String) -> String {
        var out = "<section id=\"reproduce\" aria-labelledby=\"reproduce-h\">\n<h2 id=\"reproduce-h\">Reproduce</h2>\n"
        out += "<p>Play the recording's server side on a local sandbox (the k-th connection gets what the edge did "
        out += "to the k-th recorded one: frames, close codes, drops, silence, at the recorded pace), then point the "
        out += "client under test at it:</p>\n"
        let inspector = ReplayHint.inspectorCommand(s).joined(separator: " \\\n    ")
        out +=
            "<pre id=\"replay-command\"><code>"
            + HTML.recorded(ReplayHint.sandboxCommand(recordingPath: source), limit: 4000)
        out += "\n" + HTML.recorded(inspector, limit: 4000) + "</code></pre>\n"
        out += "<p>From a checkout, put <code>swift run</code> before each command. Details: docs/RECORDING.md.</p>\n"
        if matches.isEmpty {
            out += "<p id=\"scenario-match\" class=\"none\">No built-in scenario's fault pattern was recognised.</p>\n"
        } else {
            out += "<p>The recording shows the fault pattern of "
            out += matches.count == 1 ? "a built-in scenario" : "these built-in scenarios"
            out +=
                "; play it on demand (docs/SCENARIOS.md says what a correct client does):</p>\n<ul id=\"scenario-match\">\n"
            for match in matches {
                out += "<li data-scenario=\"\(HTML.escape(match.name))\"><code>\(HTML.escape(match.name))</code> — "
                out += HTML.recorded(match.evidence) + "</li>\n"
            }
            out += "</ul>\n<pre id=\"scenario-command\"><code>"
            out += matches.map { ReplayHint.scenarioCommands($0.name).map(HTML.escape).joined(separator: "\n") }
                .joined(separator: "\n")
            out += "</code></pre>\n"
        }
        return out + "</section>\n"
    }
}
