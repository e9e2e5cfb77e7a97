import BirdRecording
import BirdReport
import Foundation
import Testing

/// Fixtures and small hand-written recordings for the report's tests.
enum Fixture {
    /// The directory of the recordings made with the sandbox's scenarios (Fixtures/README.md).
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures")

    /// The text of `Fixtures/NAME.jsonl`.
    static func text(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent("\(name).jsonl"), encoding: .utf8)
    }

    /// The summary of `Fixtures/NAME.jsonl`.
    static func summary(_ name: String) throws -> SessionSummary {
        SessionSummary(recording: try ReportReader.read(text: try text(name)))
    }
}

/// A recording written by hand: a header, then lines given as `(mono_ms, type, extra JSON)`.
struct Handmade {
    var version = 1
    var channels: [String] = ["news"]
    var lines: [String] = []

    /// Adds a line at `ms` of `type` with the members in `json` (without braces).
    mutating func add(_ ms: Double, _ type: String, _ json: String = "") {
        let extra = json.isEmpty ? "" : "," + json
        lines.append("{\"ts\":\"2026-11-29T22:00:00.000Z\",\"mono_ms\":\(ms),\"type\":\"\(type)\"\(extra)}")
    }

    /// A state change.
    mutating func state(_ ms: Double, _ previous: String, _ current: String, cause: String? = nil, code: Int? = nil) {
        var json = "\"previous\":\"\(previous)\",\"current\":\"\(current)\""
        if current == "connected" { json += ",\"connection_id\":\"1.\(Int(ms))\"" }
        if let cause { json += ",\"cause\":\"\(cause)\"" }
        if let code { json += ",\"close_code\":\(code)" }
        add(ms, "state", json)
    }

    var header: String {
        let list = channels.map { "\"\($0)\"" }.joined(separator: ",")
        return "{\"ts\":\"2026-11-29T22:00:00.000Z\",\"mono_ms\":0.000,\"type\":\"recording\",\"version\":\(version),"
            + "\"tool\":\"bird-inspect 0.1.0\",\"dialect\":\"bird\",\"host\":\"127.0.0.1\",\"port\":6001,\"tls\":false,"
            + "\"app_key\":\"sandbox-key\",\"channels\":[\(list)]}"
    }

    var text: String { ([header] + lines).joined(separator: "\n") + "\n" }

    func recording() throws -> Recording { try ReportReader.read(text: text) }

    func summary() throws -> SessionSummary { SessionSummary(recording: try recording()) }
}
