import BirdWire

/// HTML text helpers: escaping, scrubbed text from the recording, and tables.
enum HTML {
    /// `text` safe in element content and in double-quoted attributes. C0 control characters
    /// (other than tab and newline) are dropped: HTML has no place for them.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Text that came from the recording: shortened to `limit` characters, scrubbed of
    /// secrets (BirdWire's `Redaction`), escaped.
    static func recorded(_ text: String, limit: Int = 300) -> String {
        let short = text.count > limit ? String(text.prefix(limit)) + "…" : text
        return escape(Redaction.scrub(short))
    }

    /// One table cell: its HTML and an optional class.
    struct Cell {
        var html: String
        var className: String?

        init(_ html: String, className: String? = nil) {
            self.html = html
            self.className = className
        }

        /// A numeric cell (right-aligned, tabular figures).
        static func number(_ html: String) -> Cell { Cell(html, className: "num") }
    }

    /// One table row: cells, a class and data attributes.
    struct Row {
        var cells: [Cell]
        var className: String?
        var data: [(String, String)] = []
    }

    /// Rows shown at most in one table; the rest are counted in a last row.
    static let maxRows = 1000

    /// A table with a caption and column headers.
    static func table(id: String, caption: String, headers: [String], rows: [Row], numericColumns: Set<Int> = [])
        -> String
    {
        var html = "<table id=\"\(id)\">\n<caption>\(caption)</caption>\n<thead><tr>"
        for (i, header) in headers.enumerated() {
            html += "<th scope=\"col\"\(numericColumns.contains(i) ? " class=\"num\"" : "")>\(header)</th>"
        }
        html += "</tr></thead>\n<tbody>\n"
        for row in rows.prefix(maxRows) {
            html += "<tr"
            if let className = row.className { html += " class=\"\(className)\"" }
            for (key, value) in row.data { html += " data-\(key)=\"\(escape(value))\"" }
            html += ">"
            for cell in row.cells {
                html += cell.className.map { "<td class=\"\($0)\">" } ?? "<td>"
                html += cell.html + "</td>"
            }
            html += "</tr>\n"
        }
        if rows.count > maxRows {
            html += "<tr class=\"more\"><td colspan=\"\(headers.count)\">… and \(rows.count - maxRows) more</td></tr>\n"
        }
        html += "</tbody>\n</table>\n"
        return html
    }

    /// The time cells of a row: offset since the start, and the wall clock in a `<time>`.
    static func timeCells(atMs: Double, timestamp: String?) -> [Cell] {
        let clock: String
        if let ts = timestamp, let short = ReportFormat.clock(ts) {
            clock = "<time datetime=\"\(escape(ts))\">\(escape(short))</time>"
        } else {
            clock = ""
        }
        return [.number(ReportFormat.offset(atMs)), Cell(clock, className: "clock")]
    }
}
