// What `w` / `:export` write: the filtered event log as the `--jsonl` lines, secrets redacted.

import Foundation

/// The export file's contents and default name.
public enum LogExport {
    /// Every entry of `model`'s log that matches the filter — including entries that arrived
    /// while paused — as JSON lines (docs/PROTOCOL.md § Headless output), and how many.
    public static func contents(_ model: Model) -> (text: String, entries: Int) {
        let log = model.log
        guard log.count > 0 else { return ("", 0) }
        var text = ""
        var n = 0
        for seq in log.firstSeq...log.lastSeq {
            guard let entry = log.entry(seq: seq), model.filterQuery.matches(entry) else { continue }
            text += JSONLines.line(entry.event, at: entry.time)
            text += "\n"
            n += 1
        }
        return (text, n)
    }

    /// `bird-inspect-20261201-020530.jsonl`: the file name `w` offers, from the local time `now`.
    public static func defaultPath(now: Date, utcOffsetSeconds: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: utcOffsetSeconds) ?? TimeZone(identifier: "UTC") ?? .current
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: now)
        func two(_ v: Int?) -> String { String(format: "%02d", v ?? 0) }
        return
            "bird-inspect-\(c.year ?? 1970)\(two(c.month))\(two(c.day))-\(two(c.hour))\(two(c.minute))\(two(c.second)).jsonl"
    }
}
