// Writing recording lines (docs/RECORDING.md): the header, the start every line shares, and the
// `wire` and `auth` entries. E lines are the headless lines of the inspector (its `JSONLines`),
// written with this same start.

import BirdWire
import Foundation

/// The text of recording lines (no I/O; the writer of the file is the inspector's `Recorder`).
public enum RecordingWriter {
    /// The header line (`mono_ms` 0); `timestamp` is ignored, `at` is its `ts`.
    public static func header(_ h: RecordingHeader, at time: Date) -> String {
        var fields = [
            "\"ts\":" + RecordingTime.iso(time).jsonQuoted, "\"mono_ms\":" + RecordingFormat.monoText(0),
            "\"type\":\"\(RecordingFormat.headerType)\"", "\"version\":\(h.version)",
        ]
        if let tool = h.tool { fields.append("\"tool\":" + tool.jsonQuoted) }
        if let dialect = h.dialect { fields.append("\"dialect\":" + dialect.jsonQuoted) }
        if let host = h.host { fields.append("\"host\":" + host.jsonQuoted) }
        if let port = h.port { fields.append("\"port\":\(port)") }
        if let tls = h.tls { fields.append("\"tls\":\(tls)") }
        if let appKey = h.appKey { fields.append("\"app_key\":" + appKey.jsonQuoted) }
        fields.append("\"channels\":[" + h.channels.map(\.jsonQuoted).joined(separator: ",") + "]")
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// The start every entry line shares, without the closing brace: `{"ts":…,"mono_ms":…,"type":"…"`.
    public static func head(at time: Date, monoMs: Double, type: String) -> String {
        // One string grown in place (every recording line starts with it); the stamp needs no
        // escapes (digits, `-`, `T`, `:`, `.`, `Z`).
        var line = "{\"ts\":\""
        line.reserveCapacity(96 + type.utf8.count)
        line += RecordingTime.iso(time)
        line += "\",\"mono_ms\":"
        line += RecordingFormat.monoText(monoMs)
        line += ",\"type\":"
        line += quoted(type)
        return line
    }

    /// A `wire` line. The text is the client's tap (its `auth` signatures already redacted); the
    /// rest of the redaction policy runs again (URLs in messages are the app's data and stay).
    public static func wire(direction: WireRecordDirection, text: String, at time: Date, monoMs: Double) -> String {
        var line = head(at: time, monoMs: monoMs, type: "wire")
        line += ",\"direction\":\"\(direction.rawValue)\",\"text\":"
        line += quoted(Redaction.scrub(text, urls: .keep))
        line += "}"
        return line
    }

    /// `text` as a JSON string (for every string of a recording line, the inspector's E lines
    /// too): BirdWire's `jsonQuoted`, the package's one quoting.
    package static func quoted(_ text: String) -> String { text.jsonQuoted }

    /// An `auth` line: kind, endpoint (as recorded), channel, status or (redacted) error, ms.
    public static func auth(_ a: AuthRecord, at time: Date, monoMs: Double) -> String {
        var f =
            head(at: time, monoMs: monoMs, type: "auth") + ",\"kind\":\"\(a.kind.rawValue)\",\"endpoint\":"
            + Redaction.endpoint(a.endpoint).jsonQuoted
        if let ch = a.channel { f += ",\"channel\":" + ch.jsonQuoted }
        if let status = a.status { f += ",\"status\":\(status)" }
        if let error = a.error { f += ",\"error\":" + Redaction.scrub(error).jsonQuoted }
        return f + ",\"ms\":\(max(0, a.ms))}"
    }
}
