// What the inspector writes into a recording (docs/RECORDING.md) besides the header: its E lines
// and the `wire` and `auth` entries. The format — header, line start, `wire` and `auth` lines — is
// BirdRecording's; the E lines are the headless lines (`JSONLines`).

import BirdRecording
import Foundation

/// One recording entry besides the header.
public enum RecordedEntry: Sendable, Equatable {
    /// A line of docs/PROTOCOL.md § Headless output (the same as `--jsonl` prints).
    case client(ClientEvent)
    /// A protocol message as the client's `onWireMessage` saw it (already redacted).
    case wire(direction: WireRecordDirection, text: String)
    /// An authorization request.
    case auth(AuthRecord)

    /// The entry's line: `ts`, `mono_ms`, `type`, then the entry's keys.
    public func line(at time: Date, monoMs: Double) -> String {
        switch self {
        case .client(let event):
            return JSONLines.line(event, at: time, monoMs: monoMs)
        case .wire(let direction, let text):
            return RecordingWriter.wire(direction: direction, text: text, at: time, monoMs: monoMs)
        case .auth(let record):
            return RecordingWriter.auth(record, at: time, monoMs: monoMs)
        }
    }
}
