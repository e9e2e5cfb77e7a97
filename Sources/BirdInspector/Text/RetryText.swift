// One numbering for reconnect attempts everywhere (TUI, event log, JSONL, recordings): the client
// library's, from 0, where attempt n waits a random time up to min(30 s, 2ⁿ s).

/// Labels for a scheduled reconnect attempt.
public enum RetryText {
    /// The longest wait of attempt `attempt`, in whole seconds: min(30, 2ⁿ) (1 for a negative n).
    public static func windowSeconds(attempt: Int) -> Int {
        guard attempt > 0 else { return 1 }
        return attempt >= 5 ? 30 : 1 << attempt
    }

    /// "attempt 0 in 0.6s (≤ 1 s)": the library's attempt number, the time left, and the backoff
    /// window it was drawn from.
    public static func label(attempt: Int, delay seconds: Double) -> String {
        "attempt \(attempt) in \(TimeText.duration(seconds)) (≤ \(windowSeconds(attempt: attempt)) s)"
    }
}

/// How dropped events read on screen.
public enum DroppedText {
    /// "dropped 12,345 events (inspector fell behind)", plus wire lines when any were dropped.
    public static func text(count: Int, wire: Int) -> String {
        var s = "dropped \(grouped(count)) event\(count == 1 ? "" : "s")"
        if wire > 0 { s += " and \(grouped(wire)) wire line\(wire == 1 ? "" : "s")" }
        return s + " (inspector fell behind)"
    }

    /// A count with thousands separators: 12345 → "12,345".
    public static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }
}
