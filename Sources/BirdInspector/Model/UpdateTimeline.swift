// The Timeline view's keys: scroll, zoom, jump between marks, and Enter to move the event log's
// selection to the cursor's time.

import Foundation

extension Inspector {
    static func timelineKey(_ key: Key, _ window: TimelineWindow, _ model: inout Model) {
        guard let b = KeyBindings.binding(for: key, in: .timeline) else { return }
        var window = window
        let columns = timelineColumns(model.size)
        let now = model.now
        let origin = model.timeline.origin
        switch b.action {
        case .close:
            model.mode = .normal
            return
        case .help:
            openHelp(&model)
            return
        case .left: window.move(-1, columns: columns, now: now, origin: origin)
        case .right: window.move(1, columns: columns, now: now, origin: origin)
        case .pageUp: window.move(-max(1, columns - 1), columns: columns, now: now, origin: origin)
        case .pageDown: window.move(max(1, columns - 1), columns: columns, now: now, origin: origin)
        case .zoomIn: window.zoom(-1, columns: columns, now: now)
        case .zoomOut: window.zoom(1, columns: columns, now: now)
        case .top: window.moveCursor(to: origin ?? now, columns: columns, now: now, origin: origin)
        case .bottom: window.follow()
        case .previousMark, .nextMark:
            let cursor = window.cursorTime(now: now)
            let marks = model.timeline.marks
            let target: Date?
            if b.action == .previousMark {
                let i = model.timeline.firstMark(atOrAfter: cursor)
                target = marks[..<i].last?.at
            } else {
                let i = model.timeline.firstMark(atOrAfter: cursor.addingTimeInterval(0.000_001))
                target = i < marks.count ? marks[i].at : nil
            }
            guard let target else {
                refuse(b.action == .previousMark ? "no earlier mark" : "no later mark", &model)
                model.mode = .timeline(window)
                return
            }
            window.moveCursor(to: target, columns: columns, now: now, origin: origin)
        case .choose:
            model.mode = .normal
            selectLogEntry(nearest: window.cursorTime(now: now), &model)
            return
        default: break
        }
        model.mode = .timeline(window)
    }

    /// Pauses the event log and selects the visible entry nearest `time` (focus moves to Events);
    /// says so when the log holds nothing that near (entries evicted, or none match the filter).
    static func selectLogEntry(nearest time: Date, _ model: inout Model) {
        pause(&model)
        let seqs = visibleSeqs(model)
        guard !seqs.isEmpty else {
            refuse(model.filter.isEmpty ? "the log is empty" : "no entry matches the filter", &model)
            return
        }
        // Entries arrive in time order: a binary search for the first at or after `time`.
        var lo = 0, hi = seqs.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if let e = model.log.entry(seq: seqs[mid]), e.time < time { lo = mid + 1 } else { hi = mid }
        }
        var best = min(lo, seqs.count - 1)
        if lo > 0, let before = model.log.entry(seq: seqs[lo - 1]), let after = model.log.entry(seq: seqs[best]),
            lo == seqs.count || time.timeIntervalSince(before.time) <= after.time.timeIntervalSince(time)
        {
            best = lo - 1
        }
        model.selectedSeq = seqs[best]
        model.focus = .events
        if let entry = model.log.entry(seq: seqs[best]) {
            let clock = TimeText.clock(entry.time, utcOffsetSeconds: model.config.utcOffsetSeconds)
            let gap = abs(entry.time.timeIntervalSince(time))
            say(
                "log at \(clock)" + (gap >= 1 ? " (nearest entry, \(TimeText.duration(gap)) from the cursor)" : "")
                    + " · G follows again", &model)
        }
    }
}
