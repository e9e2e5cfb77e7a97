// Issue 17 items 2 and 6 in the inspector: round-trip times (Connection pane, log, `r`, JSONL) and
// the `--scenario` runner's steps (log, JSONL, "edge back at" in the Connection pane).

import BirdRecording
import Foundation
import Testing

@testable import BirdInspector
@testable import BirdRealtime

@Suite("Round-trip times and scenario steps in the inspector (issue 17)")
struct RoundTripScenarioTests {

    func connected(_ h: inout Harness) {
        h.client(.stateChanged(StateChangeRecord(previous: .initialized, current: .connecting, cause: .started)), at: 0)
        h.client(
            .stateChanged(
                StateChangeRecord(
                    previous: .connecting, current: .connected, cause: .handshake,
                    connectionId: "1.2")), at: 0.1)
    }

    @Test("the library's round trip becomes an rtt event; its line is {ms} to the microsecond")
    func mapping() {
        #expect(
            ClientFeed.item(.roundTrip(.microseconds(1_234)), recording: false)
                == .client(.roundTrip(.microseconds(1_234))))
        let line = JSONLines.line(.roundTrip(.microseconds(12_345)), at: t0)
        #expect(line == #"{"ts":"2023-11-14T22:13:20.000Z","type":"rtt","ms":12.345}"#)
        #expect(JSONLines.body(.roundTrip(.milliseconds(250))) == #"{"type":"rtt","ms":250}"#)
        #expect(JSONLines.decode(line: #"{"type":"rtt","ms":-1}"#) == nil)
        #expect(JSONLines.decode(line: #"{"type":"rtt","ms":"7"}"#) == nil)
        #expect(JSONLines.decode(line: #"{"type":"rtt","ms":1e300}"#) == nil)
    }

    @Test("the Connection pane's rtt line: — until a time, then the latest, then min/avg/max of the last 20")
    func paneSummary() {
        var h = Harness(size: Size(width: 200, height: 50))
        connected(&h)
        #expect(connectionText(h).contains("rtt: —"), "\(connectionText(h))")
        h.client(.roundTrip(.microseconds(12_340)), at: 1)
        #expect(connectionText(h).contains("rtt: 12.3 ms"), "\(connectionText(h))")
        for i in 0..<30 { h.client(.roundTrip(.milliseconds(i + 1)), at: 2 + Double(i)) }
        #expect(h.model.connection.roundTrips.count == 20)
        // The last 20 are 11…30 ms: average 20.5.
        #expect(connectionText(h).contains("rtt: 30 ms · min 11 · avg 20.5 · max 30 (last 20)"), "\(connectionText(h))")
        #expect(h.render().lines.contains { $0.contains("◆ rtt") && $0.contains("round trip 30 ms") })
    }

    @Test("r pings when connected (a ping command) and is refused, saying why, when not")
    func pingKey() {
        var h = Harness()
        h.press(.char("r"))
        #expect(h.commands.isEmpty)
        #expect(h.model.flash?.text.contains("not connected") == true, "\(String(describing: h.model.flash))")
        connected(&h)
        h.press(.char("r"))
        #expect(h.commands == [.ping])
        #expect(KeyBindings.binding(for: .char("r"), in: .main)?.action == .ping)
    }

    @Test("a scenario report becomes a scenario event; a restart says when the edge is back")
    func scenarioMapping() {
        let restart = ClientFeed.scenario(
            name: "edge-restart", step: 1, action: "restart",
            text: #"closed all with 4200 "edge restarting", down for 5.0 s"#,
            restartDownSeconds: 5, at: t0)
        #expect(
            restart
                == .scenario(
                    ScenarioStepRecord(
                        name: "edge-restart", step: 1, action: "restart",
                        text: #"closed all with 4200 "edge restarting", down for 5.0 s"#,
                        edgeBackAt: t0.addingTimeInterval(5))))
        #expect(
            JSONLines.body(restart)
                == #"{"type":"scenario","name":"edge-restart","step":1,"action":"restart","text":"closed all with 4200 \"edge restarting\", down for 5.0 s","edge_back_at":"2023-11-14T22:13:25.000Z"}"#
        )
        let start = ClientFeed.scenario(
            name: "edge-restart", step: nil, action: nil, text: "the edge restarts",
            restartDownSeconds: nil, at: t0)
        #expect(JSONLines.body(start) == #"{"type":"scenario","name":"edge-restart","text":"the edge restarts"}"#)
        // A recording line of the shape BirdReport reads (no text) still plays.
        #expect(
            JSONLines.decode(line: #"{"type":"scenario","name":"edge-restart","step":1,"action":"restart"}"#)
                == .scenario(ScenarioStepRecord(name: "edge-restart", step: 1, action: "restart", text: "")))
        #expect(
            ClientFeed.scenario(name: "x", step: 1, action: "restart", text: "", restartDownSeconds: .infinity, at: t0)
                == .scenario(ScenarioStepRecord(name: "x", step: 1, action: "restart", text: "")))
    }

    @Test("the Connection pane: edge down until the restart's end, then edge back at; the step is in the log")
    func edgeBack() {
        var h = Harness(size: Size(width: 200, height: 50))
        h.model.config.utcOffsetSeconds = 0
        connected(&h)
        #expect(!connectionText(h).contains("scenario:"))
        h.client(
            ClientFeed.scenario(
                name: "edge-restart", step: 1, action: "restart", text: "down for 5.0 s",
                restartDownSeconds: 5, at: t0.addingTimeInterval(3)), at: 3)
        h.tick(4)
        #expect(connectionText(h).contains("scenario: edge down until 22:13:28"), "\(connectionText(h))")
        h.tick(8.5)
        #expect(connectionText(h).contains("scenario: edge back at 22:13:28"), "\(connectionText(h))")
        #expect(
            h.render().lines.contains {
                $0.contains("◆ scenario") && $0.contains("edge-restart: step 1 restart: down for 5.0 s")
            })
    }
}
