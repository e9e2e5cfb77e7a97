// `--record` is visible: `● REC path (N)` on the Events pane's border, N the lines written.

import Foundation
import Testing

@testable import BirdInspector

@Suite("Recording indicator")
struct RecordingIndicatorTests {
    @Test("● REC path (N) while recording, N following the driver's count", arguments: screenSizes)
    func shown(size: Size) {
        var h = Harness(size: size)
        h.model.recording = RecordingStatus(path: "session.jsonl", lines: 1)
        h.connectAndSubscribe()
        let rect = Layout(size: size).events
        let border = { (g: Grid) in g.lines[rect.y + rect.height - 1] }
        #expect(border(h.render()).contains("● REC session.jsonl (1)"), "\(border(h.render()))")
        _ = Inspector.update(&h.model, .recorded(lines: 1234))
        let g = h.render()
        #expect(border(g).contains("● REC session.jsonl (1234)"), "\(border(g))")
        let x = border(g).distance(from: border(g).startIndex, to: border(g).range(of: "●")!.lowerBound)
        #expect(g[x, rect.y + rect.height - 1].style.role == .bad)
        expectPanesFramed(g)
    }

    @Test("a long path keeps its file name; nothing is shown when not recording")
    func longPathAndAbsent() {
        var h = Harness(size: Size(width: 80, height: 24))
        h.connectAndSubscribe()
        #expect(!h.render().lines.contains { $0.contains("REC") })
        h.model.recording = RecordingStatus(path: "/very/long/directory/name/that/goes/on/and/on/session-2026.jsonl", lines: 7)
        let rect = Layout(size: h.model.size).events
        let line = h.render().lines[rect.y + rect.height - 1]
        #expect(line.contains("● REC …"), "\(line)")
        #expect(line.contains("session-2026.jsonl (7)"), "\(line)")
        #expect(line.hasSuffix("┘"), "the border's corner stays: \(line)")
    }
}
