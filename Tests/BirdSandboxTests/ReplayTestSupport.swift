import BirdWire
import Foundation
import Synchronization
import TestSupport

@testable import BirdSandbox

/// Writes a recording (docs/RECORDING.md, version 1) line by line, for hand-written transcripts.
struct RecordingBuilder {
    private(set) var lines: [String] = []
    let dialect: Dialect

    init(dialect: Dialect = .bird, version: JSONValue = 1, header: Bool = true) {
        self.dialect = dialect
        if header {
            lines.append(
                JSONValue.object([
                    "ts": "2026-11-29T22:00:00.000Z", "mono_ms": 0, "type": "recording", "version": version,
                    "tool": "bird-inspect 0.1.0", "dialect": .string(dialect.rawValue), "host": "127.0.0.1",
                    "port": 41234, "tls": false, "app_key": "sandbox-key", "channels": ["public-demo"],
                ]).description)
        }
    }

    mutating func state(_ ms: Double, _ previous: String, _ current: String, cause: String? = nil, code: Int? = nil) {
        var object: JSONObject = [
            "ts": "2026-11-29T22:00:01.000Z", "mono_ms": JSONValue(ms), "type": "state",
            "previous": .string(previous), "current": .string(current),
        ]
        if let cause { object["cause"] = .string(cause) }
        if let code { object["close_code"] = .number(JSONNumber(code)) }
        lines.append(JSONValue.object(object).description)
    }

    mutating func inbound(_ ms: Double, _ text: String) { wire(ms, "in", text) }
    mutating func outbound(_ ms: Double, _ text: String) { wire(ms, "out", text) }

    mutating func wire(_ ms: Double, _ direction: String, _ text: String) {
        lines.append(
            JSONValue.object([
                "ts": "2026-11-29T22:00:01.000Z", "mono_ms": JSONValue(ms), "type": "wire",
                "direction": .string(direction), "text": .string(text),
            ]).description)
    }

    /// Any other line, as is.
    mutating func raw(_ line: String) { lines.append(line) }

    var text: String { lines.joined(separator: "\n") + "\n" }

    func source() throws -> ServerReplaySource { try ServerReplaySource(parsing: text) }

    func plan(grace: Double = 10) throws -> ServerReplayPlan {
        ServerReplayPlan(source: try source(), expectGrace: grace)
    }

    // MARK: Message texts in this builder's dialect

    func handshake(_ id: String, activityTimeout: Int = 120) -> String {
        let data: JSONValue = [
            dialect.connectionIdKey: .string(id), "activity_timeout": .number(JSONNumber(activityTimeout)),
        ]
        return WireMessage(event: ProtocolEvent.connectionEstablished.wireName(dialect), data: .json(data.description))
            .encode()
    }

    func subscribe(_ channel: String) -> String {
        WireMessage(event: ProtocolEvent.subscribe.wireName(dialect), value: ["channel": .string(channel)]).encode()
    }

    func succeeded(_ channel: String) -> String {
        WireMessage(event: ProtocolEvent.subscriptionSucceeded.wireName(dialect), channel: channel, data: .json("{}"))
            .encode()
    }

    func ping() -> String { WireMessage(event: ProtocolEvent.ping.wireName(dialect), value: [:]).encode() }
    func pong() -> String { WireMessage(event: ProtocolEvent.pong.wireName(dialect), value: [:]).encode() }

    /// The inspector's cause text for a server close.
    static func serverClosed(_ code: Int, _ reason: String = "") -> String {
        "server closed: \(code) \(CloseCode.meaning(code))" + (reason.isEmpty ? "" : " (\(reason))")
    }
}

extension LockedList<String> {
    /// Whether a line logged so far contains `text`.
    func contains(_ text: String) -> Bool { all.contains { $0.contains(text) } }
}

/// A temporary file holding `text`; removed by the caller.
func temporaryRecording(_ text: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString).jsonl").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}
