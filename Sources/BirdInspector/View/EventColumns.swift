// The Events pane's channel and event-name columns: names whole whenever the row can hold them
// with 8 columns of data; else the channel whole while the event name keeps 8 columns (two
// channels must be told apart), else both shortened (start + `…` + last part).

extension Inspector {
    /// The data column keeps at least this many columns (Enter shows all of it).
    static let eventDataMinimum = 8

    /// Widths of the channel and event-name columns for a row of `width` columns (time and
    /// separators included) whose longest channel, name and data are `channel`, `name`, `data`.
    static func eventColumns(channel: Int, name: Int, data: Int, width: Int) -> (channel: Int, name: Int) {
        let avail = width - 15  // "12:00:00.000 " and the two separators
        let budget = max(12, avail - min(data, eventDataMinimum))
        if channel + name <= budget { return (channel, name) }
        let half = budget / 2
        if channel <= budget - min(name, eventDataMinimum) { return (channel, max(6, budget - channel)) }
        if name <= half { return (max(6, budget - name), name) }
        return (max(6, budget - half), max(6, half))
    }
}
