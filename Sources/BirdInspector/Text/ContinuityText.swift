// How a subscription's continuity reads: the event log's marker, the Channels pane's compact
// mark and the selected channel's line.

import BirdRealtime

/// Words for a ``ContinuityRecord``.
public enum ContinuityText {
    /// The event log's marker for a subscription, or nil when there is nothing to say (a fresh
    /// subscription, or an edge without continuity: said once, on the selected channel's line).
    public static func marker(_ c: ContinuityRecord) -> String? {
        let after = c.offset.map { " (resumed after @\($0))" } ?? ""
        switch c.outcome {
        case .fresh:
            return nil
        case .recovered:
            return "recovered: nothing missed while reconnecting" + after
        case .missed:
            let n = c.missed ?? 0
            return "\(n) event\(n == 1 ? "" : "s") missed while reconnecting" + after
        case .unknown:
            if c.notSupported { return nil }
            return "continuity unknown (\(reason(c))): events may have been missed"
        }
    }

    /// The Channels pane's mark after the last offset: `↻` recovered, `✗37 missed` (`−37` when
    /// narrow), `?` unknown; "" for fresh and for an edge without continuity.
    public static func mark(_ c: ContinuityRecord?, wide: Bool) -> String {
        guard let c else { return "" }
        switch c.outcome {
        case .fresh: return ""
        case .recovered: return "↻"
        case .missed: return wide ? "✗\(c.missed ?? 0) missed" : "−\(c.missed ?? 0)"
        case .unknown: return c.notSupported ? "" : "?"
        }
    }

    /// The Channels pane's stream column: the last offset and the mark (`@1042 ↻`, narrow
    /// `@1042↻`), or nil when there is neither.
    public static func stream(offset: Int?, _ c: ContinuityRecord?, wide: Bool) -> String? {
        let parts = [offset.map { "@\($0)" } ?? "", mark(c, wide: wide)].filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: wide ? " " : "")
    }

    /// The selected channel's line when continuity is unknown (any reason), else nil.
    public static func detail(_ c: ContinuityRecord?) -> String? {
        guard let c, c.outcome == .unknown else { return nil }
        if c.notSupported { return "continuity unknown: this edge replays nothing" }
        return "? continuity unknown (\(reason(c))): may have gaps"
    }

    /// The reason in words: "edge restarted" for a changed epoch.
    static func reason(_ c: ContinuityRecord) -> String {
        switch c.reason.flatMap(ChannelContinuity.UnknownReason.init(rawValue:)) {
        case .epochChanged?: return "edge restarted"
        case .notAnswered?: return "edge did not say"
        case .notSupported?: return "not supported by the edge"
        case nil: return c.reason ?? "not said"
        }
    }
}
