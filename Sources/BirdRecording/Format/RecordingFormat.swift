// docs/RECORDING.md: the facts of the format every reader and writer shares — the version, the
// bounds a reader enforces, the line types, how `mono_ms` is written and how `ts` is replaced.

import BirdWire
import Foundation

/// The recording format (docs/RECORDING.md), version 1.
public enum RecordingFormat {
    /// The version this package writes (and every reader reads).
    public static let version = 1

    /// The largest `mono_ms` (and recorded delay) a line may carry: 10¹⁰ ms, about 115 days. Lines
    /// beyond it are skipped, so no wait or clock derived from a file can overflow.
    public static let maxMonoMs = 10_000_000_000

    /// The longest line read: 32 MiB (a 4 MiB protocol message escaped in a `wire` line fits);
    /// a longer one is skipped with a reason without being held in memory.
    public static let maxLineBytes = 32 << 20

    /// The type of the header line.
    public static let headerType = "recording"

    /// The types of the E lines (docs/PROTOCOL.md § Headless output, plus the inspector's `dropped`).
    public static let eventLineTypes: Set<String> = [
        "state", "retry", "subscribed", "subscription_error", "event", "members", "member_added", "member_removed",
        "connection_count", "signin", "signin_error", "error", "sent", "command_error", "dropped", "network",
        "endpoint",
        "rtt", "scenario",
    ]

    /// `mono_ms` as written: milliseconds with exactly three decimals ("1234.567"); never negative.
    public static func monoText(_ ms: Double) -> String {
        let micro = ms.isFinite ? max(0, Checked.int(ms * 1000)) : 0
        // Written in place from the last digit (every recording line has one): at most 19 digits
        // of `Int`, the point and three decimals.
        return String(unsafeUninitializedCapacity: 24) { out in
            var v = micro
            var i = 23
            for k in 0..<3 {
                out[i] = UInt8(truncatingIfNeeded: 0x30 + v % 10)
                v /= 10
                i -= 1
                if k == 2 {
                    out[i] = UInt8(ascii: ".")
                    i -= 1
                }
            }
            repeat {
                out[i] = UInt8(truncatingIfNeeded: 0x30 + v % 10)
                v /= 10
                i -= 1
            } while v > 0
            let count = 23 - i
            for k in 0..<count { out[k] = out[i + 1 + k] }
            return count
        }
    }

    /// The line with its `ts` value replaced by `time` and every other byte unchanged (a line
    /// without `ts` gets one in front): how `--jsonl --replay` prints a recording.
    public static func restamp(_ text: String, ts time: Date) -> String {
        let stamp = RecordingTime.iso(time).jsonQuoted
        let bytes = Array(text.utf8)
        guard let members = JSONValue.memberRanges(in: text) else { return text }
        if let ts = members.first(where: { $0.key == "ts" }) {
            return String(decoding: bytes[..<ts.value.lowerBound], as: UTF8.self) + stamp
                + String(decoding: bytes[ts.value.upperBound...], as: UTF8.self)
        }
        guard let brace = bytes.firstIndex(of: UInt8(ascii: "{")) else { return text }
        let rest = String(decoding: bytes[(brace + 1)...], as: UTF8.self)
        return String(decoding: bytes[...brace], as: UTF8.self) + "\"ts\":" + stamp + (members.isEmpty ? "" : ",")
            + rest
    }
}
