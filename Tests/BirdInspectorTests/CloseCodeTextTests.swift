// One text per close code, everywhere: never a part said twice, never cut.

import BirdWire
import Foundation
import Testing

@testable import BirdInspector

@Suite("Close-code text")
struct CloseCodeTextTests {
    /// A code of every band, known and unassigned.
    static let codes = [
        1000, 1006, 1011, 1099, 4000, 4009, 4055, 4100, 4150, 4200, 4201, 4202, 4250, 4301, 4302, 4350, 4400,
    ]

    /// The parts of a text joined by " — " (and the meaning after the code) must all differ.
    func expectNoRepeat(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let parts = text.components(separatedBy: " — ").map { $0.lowercased() }
        #expect(Set(parts).count == parts.count, "repeated part in “\(text)”", sourceLocation: sourceLocation)
        for (i, part) in parts.enumerated() {
            for (j, other) in parts.enumerated() where i != j && !other.isEmpty {
                #expect(
                    !part.hasSuffix(" " + other) && part != other, "“\(other)” said twice in “\(text)”",
                    sourceLocation: sourceLocation)
            }
        }
    }

    @Test("every band: code, meaning, behaviour once; a reason only when it adds something", arguments: codes)
    func everyBand(code: Int) {
        let meaning = CloseCode.meaning(code)
        let behaviour = CloseCode.band(code).behaviour
        let bare = CloseCodeText.describe(code: code, reason: nil)
        #expect(bare.hasPrefix("\(code) \(meaning)"))
        #expect(bare.contains(behaviour))
        expectNoRepeat(bare)
        // The server's reason repeating the meaning or the behaviour is not said again.
        for echo in [meaning, behaviour, meaning.uppercased(), " \(meaning) ", "", "  "] {
            #expect(CloseCodeText.describe(code: code, reason: echo) == bare, "reason “\(echo)”")
        }
        #expect(CloseCodeText.describe(code: code, reason: "edge full") == bare + " — edge full")
        // The log's and JSONL's cause says the same, once.
        let cause = TransitionCause.closed(code: code, reason: meaning, by: .server).text
        #expect(cause == "server closed: \(code) \(meaning)", "\(cause)")
        #expect(
            TransitionCause.closed(code: code, reason: "edge full", by: .server).text
                == "server closed: \(code) \(meaning) (edge full)")
    }

    @Test("4009 is “unauthorized” everywhere; the server's reason follows it")
    func unauthorized() {
        #expect(
            CloseCodeText.describe(code: 4009, reason: "terminated by the app")
                == "4009 unauthorized — refused, no retry — terminated by the app")
        #expect(
            CloseCodeText.describe(code: 4100, reason: "over capacity") == "4100 over capacity — retry after backoff")
        #expect(
            CloseCodeText.describe(code: 4200, reason: "edge restarting")
                == "4200 generic reconnect immediately — edge restarting")
    }

    @Test("the k menu shows each code's whole text, at 80×24 and 200×50", arguments: screenSizes)
    func menuNotCut(size: Size) {
        var h = Harness(size: size)
        h.connectAndSubscribe()
        h.type("k")
        let g = h.render()
        for code in CloseCodeText.menuCodes {
            let text = CloseCodeText.describe(code: code, reason: nil)
            #expect(contains(g, text), "\(text)\n\(g.lines.joined(separator: "\n"))")
        }
    }

    @Test("the Connection pane after a 4100 whose reason repeats the meaning says it once", arguments: screenSizes)
    func paneNoRepeat(size: Size) {
        var h = Harness(size: size)
        h.connectAndSubscribe()
        h.client(
            .stateChanged(
                StateChangeRecord(
                    previous: .connected, current: .unavailable,
                    cause: .closed(code: 4100, reason: "over capacity", by: .server))), at: 7)
        let pane = flowed(paneRows(h.render(), Inspector.layout(h.model, size: size).connection))
        #expect(pane.contains("4100 over capacity — retry after backoff"), "\(pane)")
        #expect(pane.components(separatedBy: "over capacity").count == 2, "said once: \(pane)")
    }
}
