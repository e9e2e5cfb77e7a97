// What part of the timeline the Timeline view shows: the time per column (zoom), the right edge
// (scroll) and the cursor. Pure arithmetic on dates; `now` is always passed in.

import BirdWire
import Foundation

/// The Timeline view's zoom, scroll position and cursor.
public struct TimelineWindow: Sendable, Equatable {
    /// The zoom steps: seconds per column.
    public static let scales: [Double] = [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600]
    /// The step opened with: one second per column.
    public static let defaultScaleIndex = 3

    /// Index into `scales`.
    public var scaleIndex = TimelineWindow.defaultScaleIndex
    /// The time under the cursor; nil follows now (the newest column).
    public var cursor: Date?
    /// The time the right-most column holds; nil follows now (set whenever the cursor is).
    public var end: Date?

    /// A window following now at one second per column.
    public init(scaleIndex: Int = TimelineWindow.defaultScaleIndex, cursor: Date? = nil, end: Date? = nil) {
        self.scaleIndex = min(max(0, scaleIndex), Self.scales.count - 1)
        self.cursor = cursor
        self.end = end
    }

    /// A window following now, zoomed in as far as shows `seconds` of history in `columns`.
    public static func fitting(_ seconds: Double, columns: Int) -> TimelineWindow {
        let index = scales.firstIndex { seconds / $0 <= Double(max(1, columns)) } ?? scales.count - 1
        return TimelineWindow(scaleIndex: index)
    }

    /// Seconds per column.
    public var scale: Double { Self.scales[min(max(0, scaleIndex), Self.scales.count - 1)] }

    /// Whether the cursor follows now.
    public var following: Bool { cursor == nil }

    /// The time under the cursor.
    public func cursorTime(now: Date) -> Date { cursor ?? now }

    /// The start of the first of `columns` columns. Columns are aligned to whole multiples of the
    /// scale, so following now does not make the picture jitter.
    public func start(columns: Int, now: Date) -> Date {
        let e = (end ?? now).timeIntervalSince1970
        let edge = (Double(Checked.int(e / scale, .down)) + 1) * scale
        return Date(timeIntervalSince1970: edge - Double(max(1, columns)) * scale)
    }

    /// The column holding `time`, or nil when it is outside the `columns` shown.
    public func column(of time: Date, columns: Int, now: Date) -> Int? {
        let offset = time.timeIntervalSince(start(columns: columns, now: now)) / scale
        guard offset.isFinite, offset >= 0 else { return nil }
        let c = Checked.int(offset, .down)
        return c < columns ? c : nil
    }

    /// The start of column `column`.
    public func time(ofColumn column: Int, columns: Int, now: Date) -> Date {
        start(columns: columns, now: now).addingTimeInterval(Double(column) * scale)
    }

    /// The cursor's column (the last one when following).
    public func cursorColumn(columns: Int, now: Date) -> Int {
        column(of: cursorTime(now: now), columns: columns, now: now) ?? max(0, columns - 1)
    }

    /// Moves the cursor by `delta` columns, scrolling so it stays in view; it stops at `origin`
    /// (the history's beginning) and, past now, follows now again.
    public mutating func move(_ delta: Int, columns: Int, now: Date, origin: Date?) {
        let target = cursorTime(now: now).addingTimeInterval(Double(delta) * scale)
        moveCursor(to: target, columns: columns, now: now, origin: origin)
    }

    /// Puts the cursor at `time` (clamped to origin…now), scrolling so it is in view.
    public mutating func moveCursor(to time: Date, columns: Int, now: Date, origin: Date?) {
        if time >= now {
            follow()
            return
        }
        let target = max(time, min(origin ?? now, now))
        if target >= now {
            follow()
            return
        }
        cursor = target
        // A cursor away from now holds the picture still (new history shows again with End).
        if end == nil { end = now }
        if column(of: target, columns: columns, now: now) == nil {
            if target < start(columns: columns, now: now) {
                // The cursor on the left edge.
                end = min(now, target.addingTimeInterval(Double(max(0, columns - 1)) * scale))
            } else {
                end = target  // cursor on the right edge
            }
        }
    }

    /// Zooms in (`steps` < 0: fewer seconds per column) or out, keeping the cursor's column.
    public mutating func zoom(_ steps: Int, columns: Int, now: Date) {
        let next = min(max(0, scaleIndex + steps), Self.scales.count - 1)
        guard next != scaleIndex else { return }
        let col = cursorColumn(columns: columns, now: now)
        scaleIndex = next
        guard let cursor else { return }
        end = min(now, cursor.addingTimeInterval(Double(max(0, columns - 1 - col)) * scale))
    }

    /// The cursor and the window follow now again.
    public mutating func follow() {
        cursor = nil
        end = nil
    }
}
