// Which rows of a pane hold which entries: shared by the view (drawing) and the mouse (hit-testing),
// so a click lands on the entry that is drawn where it was made.

import BirdWire

extension Inspector {
    /// Rows the Events pane has for entries in `rect` (its paused marker takes the last one).
    static func eventRows(_ model: Model, _ rect: Rect) -> Int {
        max(0, rect.inner.height - (model.paused ? 1 : 0))
    }

    /// The page of `seqs` the Events pane shows in `rows` rows (the one holding the selection, pages
    /// counted from the newest), and the index in `seqs` of the selected entry.
    static func eventsPage(_ model: Model, seqs: [Int], rows: Int) -> (window: [Int], selectedIndex: Int) {
        guard !seqs.isEmpty, rows > 0 else { return ([], 0) }
        let selectedIndex = model.selectedSeq.flatMap { s in seqs.lastIndex { $0 <= s } } ?? seqs.count - 1
        let fromEnd = seqs.count - 1 - selectedIndex
        let page = fromEnd / rows
        let end = seqs.count - page * rows
        let start = max(0, end - rows)
        return (Array(seqs[start..<end]), selectedIndex)
    }

    /// The line the Channels pane keeps at its bottom for the selected channel (its error,
    /// decryption failures or continuity detail), when it has one and `rows` leave room.
    static func channelsNote(_ model: Model, rows: Int) -> String? {
        guard rows >= 3, let ch = model.currentChannel else { return nil }
        if case .failed(let f) = ch.status {
            return "✗ \(f.type)\(f.status.map { " \($0)" } ?? ""): \(Redaction.scrub(f.message))"
        }
        if ch.decryptionFailures > 0 {
            return "✗ \(ch.decryptionFailures) not decrypted"
                + (ch.lastDecryptionProblem.map { ", last: " + Redaction.scrub($0) } ?? "")
        }
        return ContinuityText.detail(ch.continuity)
    }

    /// The index of the first channel the Channels pane shows in `rows` rows (the selected one
    /// stays in view).
    static func channelsFirst(_ model: Model, rows: Int) -> Int {
        max(0, min(model.selectedChannel - rows + 1, model.channels.count - rows))
    }
}
