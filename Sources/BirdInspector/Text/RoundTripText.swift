// Round-trip times in words and numbers: the Connection pane's summary and the `rtt` line's `ms`.

import Foundation

/// Round-trip times as the inspector shows and writes them.
public enum RoundTripText {
    /// Milliseconds with at most three decimals, trailing zeros dropped (`0.42`, `12.345`,
    /// `250`): the `ms` of an `rtt` line, a JSON number.
    public static func milliseconds(_ rtt: Duration) -> String {
        let ms = rtt.seconds * 1_000
        guard ms.isFinite, ms >= 0 else { return "0" }
        var text = String(format: "%.3f", ms)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// `12.3 ms · min 10.1 · avg 12 · max 15.2 (last 20)` for the latest times, oldest first;
    /// nil when there are none.
    public static func summary(_ times: [Duration]) -> String? {
        guard let last = times.last else { return nil }
        var text = "\(short(last)) ms"
        guard times.count > 1, let low = times.min(), let high = times.max() else { return text }
        let average = times.reduce(0.0) { $0 + $1.seconds } / Double(times.count)
        text += " · min \(short(low)) · avg \(short(.seconds(average))) · max \(short(high)) (last \(times.count))"
        return text
    }

    /// Milliseconds to one decimal (`12.3`, `0.4`, `250`).
    static func short(_ rtt: Duration) -> String {
        let ms = rtt.seconds * 1_000
        guard ms.isFinite, ms >= 0 else { return "0" }
        var text = String(format: "%.1f", ms)
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}
