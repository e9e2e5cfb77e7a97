import BirdWire

/// The report's tables: the timeline's facts as text, auth requests, errors and other moments.
enum ReportTables {
    typealias Cell = HTML.Cell
    typealias Row = HTML.Row

    static func ends(_ s: SessionSummary) -> String {
        guard !s.ends.isEmpty else { return "<p class=\"none\">No connection was lost and no attempt failed.</p>\n" }
        let rows = s.ends.map { end -> Row in
            var how = HTML.escape(end.reason.label)
            if let code = end.reason.closeCode {
                how += " <span class=\"kind\">\(HTML.escape(CloseCode.meaning(code)))</span>"
            }
            let wait = end.retryWaitMs.map { wait in
                ReportFormat.duration(wait) + (end.retryAttempt.map { " (attempt \($0))" } ?? "")
            }
            return Row(
                cells: [
                    .number(ReportFormat.offset(end.atMs)), Cell(end.isLoss ? "connection lost" : "attempt failed"),
                    Cell(how), Cell(HTML.recorded(end.cause ?? "")), Cell(end.to.rawValue),
                    .number(HTML.escape(wait ?? (end.to.known == .failed ? "no retry" : "—"))),
                ],
                className: end.to.known == .failed ? "failed" : nil,
                data: [("reason", end.reason.label)] + (end.reason.closeCode.map { [("code", String($0))] } ?? []))
        }
        return HTML.table(
            id: "ends-table", caption: "Connections lost and attempts failed",
            headers: ["time", "what", "how", "cause", "then", "next attempt after"], rows: rows,
            numericColumns: [0, 5])
    }

    static func outages(_ s: SessionSummary) -> String {
        guard !s.outages.isEmpty else { return "" }
        let rows = s.outages.map { o -> Row in
            Row(
                cells: [
                    .number(ReportFormat.offset(o.startMs)), .number(ReportFormat.offset(o.endMs)),
                    .number(ReportFormat.duration(o.durationMs)), Cell(HTML.escape(o.reason.label)),
                    Cell(o.recovered ? "connected again" : "still down when the recording ended"),
                ],
                className: o.recovered ? nil : "failed")
        }
        return HTML.table(
            id: "outages-table", caption: "Outages (from a lost connection to the next one)",
            headers: ["from", "to", "lasted", "began with", "ended"], rows: rows, numericColumns: [0, 1, 2])
    }

    static func changes(_ s: SessionSummary) -> String {
        guard !s.changes.isEmpty else { return "<p class=\"none\">No state changes were recorded.</p>\n" }
        let rows = s.changes.map { change -> Row in
            var code = ""
            if let closeCode = change.closeCode { code = HTML.escape(CloseCode.summary(closeCode)) }
            return Row(
                cells: [
                    .number(ReportFormat.offset(change.atMs)),
                    Cell("\(change.previous.rawValue) → <strong>\(change.current.rawValue)</strong>"),
                    Cell(HTML.recorded(change.cause ?? "")), Cell(code),
                    Cell(HTML.recorded(change.connectionId ?? "")),
                ],
                className: change.current.known == .failed ? "failed" : nil)
        }
        return HTML.table(
            id: "changes-table", caption: "State changes",
            headers: ["time", "change", "cause", "close code", "connection id"], rows: rows, numericColumns: [0])
    }

    static func auth(_ s: SessionSummary) -> String {
        let rows = s.auth.map { r -> Row in
            let result = r.status.map { "HTTP \($0)" } ?? "no answer: \(r.error ?? "error")"
            return Row(
                cells: HTML.timeCells(atMs: r.atMs, timestamp: r.timestamp) + [
                    Cell(HTML.recorded(r.kind)), Cell(HTML.recorded(r.channel ?? "")),
                    Cell(r.endpoint.map { HTML.escape(Redaction.endpoint($0)) } ?? ""),
                    Cell(HTML.recorded(result), className: "result"),
                    .number(r.durationMs.map { ReportFormat.duration($0) } ?? ""),
                ],
                className: r.failed ? "failed" : "ok",
                data: [("status", r.resultLabel)])
        }
        return HTML.table(
            id: "auth-table",
            caption: "Auth requests (\(s.auth.count), \(s.failedAuth.count) failed); time is when the answer came",
            headers: ["time", "clock", "kind", "channel", "endpoint", "result", "took"], rows: rows,
            numericColumns: [0, 6])
    }

    static func errors(_ s: SessionSummary) -> String {
        let rows = s.errors.map { e -> Row in
            Row(
                cells: HTML.timeCells(atMs: e.atMs, timestamp: e.timestamp) + [
                    Cell(HTML.escape(e.kind.replacingAll("_", with: " "))), .number(e.code.map(String.init) ?? ""),
                    Cell(HTML.recorded(e.channel ?? "")), Cell(HTML.recorded(e.message)),
                    Cell(HTML.recorded(e.detail ?? "")),
                ],
                className: "failed", data: [("kind", e.kind)])
        }
        return HTML.table(
            id: "errors-table", caption: "Errors (\(s.errors.count))",
            headers: ["time", "clock", "kind", "code", "channel", "message", "detail"], rows: rows,
            numericColumns: [0, 3])
    }

    static func markers(_ s: SessionSummary) -> String {
        let rows = s.markers.map { m -> Row in
            Row(
                cells: HTML.timeCells(atMs: m.atMs, timestamp: m.timestamp) + [
                    Cell(m.kind.rawValue), Cell(HTML.recorded(m.label)),
                ],
                className: nil, data: [("kind", m.kind.rawValue)])
        }
        return HTML.table(
            id: "moments-table", caption: "Network changes, scenario steps and dropped entries",
            headers: ["time", "clock", "kind", "what"], rows: rows, numericColumns: [0])
    }
}
