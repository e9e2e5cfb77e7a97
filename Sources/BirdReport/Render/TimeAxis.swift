/// The horizontal scale shared by the timeline and the channel charts: milliseconds since the
/// start onto the plot's x range, and round tick positions.
struct TimeAxis {
    /// The SVG width (viewBox units).
    static let width = 1000.0
    /// Where the plot starts (room for lane labels) and ends.
    static let left = 128.0
    static let right = 988.0

    /// The time at the right edge (ms); at least 1, so an empty recording still draws.
    let endMs: Double

    init(endMs: Double) {
        self.endMs = max(endMs, 1)
    }

    /// The x of a time, clamped to the plot.
    func x(_ ms: Double) -> Double {
        let fraction = min(max(ms / endMs, 0), 1)
        return Self.left + fraction * (Self.right - Self.left)
    }

    /// Tick times: a round step giving at most ten ticks.
    var ticks: [Double] {
        var out: [Double] = []
        var t = 0.0
        while t <= endMs + 0.5, out.count <= 20 {
            out.append(t)
            t += step
        }
        return out
    }

    /// The distance between ticks (ms).
    var step: Double {
        let steps: [Double] = [
            100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000,
            1_800_000, 3_600_000, 7_200_000, 14_400_000, 21_600_000, 43_200_000, 86_400_000,
        ]
        return steps.first { endMs / $0 <= 10 }
            ?? max(86_400_000, (endMs / 10 / 86_400_000).rounded(.up) * 86_400_000)
    }

    /// The axis line, ticks and labels at `y`.
    func draw(y: Double) -> String {
        let c = ReportFormat.coordinate
        var out =
            "<g class=\"axis\" aria-hidden=\"true\"><line x1=\"\(c(Self.left))\" y1=\"\(c(y))\" x2=\"\(c(Self.right))\" y2=\"\(c(y))\"/>"
        for t in ticks {
            let x = self.x(t)
            out += "<line class=\"tick\" x1=\"\(c(x))\" y1=\"\(c(y))\" x2=\"\(c(x))\" y2=\"\(c(y + 4))\"/>"
            out +=
                "<text class=\"tick-label\" x=\"\(c(x))\" y=\"\(c(y + 15))\" text-anchor=\"middle\">"
                + HTML.escape(ReportFormat.axis(t, stepMs: step)) + "</text>"
        }
        return out + "</g>"
    }
}
