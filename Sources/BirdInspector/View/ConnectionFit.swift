// The Connection pane's rows: the pane is as tall as its lines need (up to half the screen, see
// `layout`); where they still do not fit, whole lines of the least use go first — the connection
// id, then the rtt and network lines, the edge, member and timeouts — never the bottom ones by
// accident, and never the state, the retry, the cause or a close.

extension Inspector {
    /// How readily a Connection line (by its label) is left out when the pane is short: higher
    /// goes first; 0 is never left out.
    static func connectionPriority(_ line: [(String, CellStyle)]) -> Int {
        guard let label = line.first?.0 else { return 0 }
        switch label {
        case "id: ": return 5
        case "network: ": return line.dropFirst().first?.0 == "down" ? 0 : 4
        case "rtt: ": return 4
        case "edge: ": return 3
        case "member: ", "timeouts: ": return 2
        case "last close: ", "scenario: ": return 1
        default: return 0
        }
    }

    /// The lines to draw in `rows` rows, in their order: all when they fit, else without the
    /// lines (a wrapped line with its continuation rows) of highest ``connectionPriority(_:)``,
    /// later ones first among equals.
    static func fitConnection(_ lines: [[(String, CellStyle)]], rows: Int) -> [[(String, CellStyle)]] {
        guard lines.count > rows else { return lines }
        // Group each line with the continuation rows of its wrapped text (a label of spaces).
        var groups: [(priority: Int, lines: [[(String, CellStyle)]])] = []
        for line in lines {
            let label = line.first?.0 ?? ""
            if !label.isEmpty, label.allSatisfy({ $0 == " " }), !groups.isEmpty {
                groups[groups.count - 1].lines.append(line)
            } else {
                groups.append((connectionPriority(line), [line]))
            }
        }
        var total = lines.count
        var dropped = Set<Int>()
        for priority in stride(from: 5, through: 1, by: -1) {
            for i in groups.indices.reversed() where total > rows && groups[i].priority == priority {
                dropped.insert(i)
                total -= groups[i].lines.count
            }
        }
        return groups.indices.filter { !dropped.contains($0) }.flatMap { groups[$0].lines }
    }
}
