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
    /// too): the same text as BirdWire's `jsonQuoted` (RFC 8259's escapes —
    /// `\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f`, `\u00xx` for the other control bytes — and
    /// every other byte as it is), written in place in two passes over the bytes: a `wire` line's
    /// text is a whole protocol message, a quote every few bytes, on every line of a flood.
    package static func quoted(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            var extra = 0
            for b in bytes where b < 0x20 || b == 0x22 || b == 0x5C {
                switch b {
                case 0x22, 0x5C, 0x0A, 0x0D, 0x09, 0x08, 0x0C: extra += 1
                default: extra += 5
                }
            }
            let hex: StaticString = "0123456789abcdef"
            return String(unsafeUninitializedCapacity: bytes.count + extra + 2) { out in
                var i = 0
                func put(_ byte: UInt8) {
                    out[i] = byte
                    i += 1
                }
                put(0x22)
                for b in bytes {
                    guard b < 0x20 || b == 0x22 || b == 0x5C else {
                        put(b)
                        continue
                    }
                    put(0x5C)
                    switch b {
                    case 0x22, 0x5C: put(b)
                    case 0x0A: put(UInt8(ascii: "n"))
                    case 0x0D: put(UInt8(ascii: "r"))
                    case 0x09: put(UInt8(ascii: "t"))
                    case 0x08: put(UInt8(ascii: "b"))
                    case 0x0C: put(UInt8(ascii: "f"))
                    default:
                        put(UInt8(ascii: "u"))
                        put(0x30)
                        put(0x30)
                        put(hex.utf8Start[Int(b >> 4)])
                        put(hex.utf8Start[Int(b & 0x0F)])
                    }
                }
                put(0x22)
                return i
            }
        }
    }

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
