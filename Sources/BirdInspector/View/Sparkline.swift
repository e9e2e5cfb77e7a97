// Event-rate sparklines: one column per second, each as high as its count relative to the
// busiest second shown (a second without events is blank).

import BirdWire

extension Inspector {
    /// Columns a Channels row's sparkline asks for (seconds shown).
    static let sparklineWant = 20
    /// Fewest columns worth drawing.
    static let sparklineMinimum = 10

    /// `counts` (oldest first) as one character per second with `glyphs.levels`.
    static func sparkline(_ counts: [Int], _ glyphs: Glyphs) -> String {
        let peak = counts.max() ?? 0
        let levels = glyphs.levels
        guard peak > 0, !levels.isEmpty else { return String(repeating: " ", count: counts.count) }
        return counts.map { count -> String in
            guard count > 0 else { return " " }
            // The busiest second reaches the top level; any event at all shows the lowest.
            let level = Checked.int(Double(count) / Double(peak) * Double(levels.count) - 1e-9, .down)
            return levels[min(max(0, level), levels.count - 1)]
        }.joined()
    }
}
