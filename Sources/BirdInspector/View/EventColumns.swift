// The Events pane's channel and event-name columns: names whole whenever the row can hold them
// with 8 columns of data; else the channel whole while the event name keeps 8 columns (two
// channels must be told apart), else both shortened (start + `…` + last part).

extension Inspector {
    /// The data column keeps at least this many columns (Enter shows all of it).
    static let eventDataMinimum = 8

    /// Widths of the channel and event-name columns for a row of `width` columns (time and
    /// separators included) whose longest channel, name and data are `channel`, `name`, `data`.
    /// When both must be shortened, the split keeps the most names of `rows` (each row's channel
    /// and name widths) whole, the channel's side first among equals.
    static func eventColumns(
        channel: Int, name: Int, data: Int, width: Int, rows: [(channel: Int, name: Int)] = []
    ) -> (channel: Int, name: Int) {
        let avail = width - 15  // "12:00:00.000 " and the two separators
        let budget = max(12, avail - min(data, eventDataMinimum))
        if channel + name <= budget { return (channel, name) }
        let half = budget / 2
        if channel <= budget - min(name, eventDataMinimum) { return (channel, max(6, budget - channel)) }
        if name <= half { return (max(6, budget - name), name) }
        var best = (channel: max(6, budget - half), name: max(6, half))
        if !rows.isEmpty, budget >= 12 {
            func whole(_ c: Int) -> Int {
                rows.reduce(0) { $0 + ($1.channel <= c ? 1 : 0) + ($1.name <= budget - c ? 1 : 0) }
            }
            var most = whole(best.channel)
            for c in stride(from: budget - 6, through: 6, by: -1) where whole(c) > most {
                most = whole(c)
                best = (c, budget - c)
            }
        }
        return best
    }
}
