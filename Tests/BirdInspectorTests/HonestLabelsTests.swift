// Issue 12: one attempt numbering (the library's, from 0) everywhere, and panes that say what will
// happen — never "waiting for reconnect" when nothing will reconnect.

import Foundation
import Testing

@testable import BirdInspector

@Suite("Labels that tell the truth")
struct HonestLabelsTests {
    func membersText(_ h: Harness) -> String {
        flowed(paneRows(h.render(), Inspector.layout(h.model, size: h.model.size).members))
    }
    func channelsText(_ h: Harness) -> String {
        flowed(paneRows(h.render(), Inspector.layout(h.model, size: h.model.size).channels))
    }

    @Test(
        "attempt n is n in the TUI, the event log and JSONL, with its window min(30, 2ⁿ) s",
        arguments: [
            (0, 1), (1, 2), (2, 4), (4, 16), (5, 30), (12, 30),
        ])
    func oneNumbering(attempt: Int, window: Int) throws {
        var h = Harness(size: Size(width: 200, height: 50))
        h.connectAndSubscribe()
        h.client(.stateChanged(StateChangeRecord(previous: .connected, current: .unavailable, cause: .dropped)), at: 10)
        let retry = RetryRecord(delay: .milliseconds(600), attempt: attempt, cause: .dropped)
        h.client(.retryScheduled(retry), at: 10)
        let label = "attempt \(attempt) in 0.6s (≤ \(window) s)"
        #expect(flowed(paneRows(h.render(), Inspector.layout(h.model, size: h.model.size).connection)).contains(label))
        #expect(line(h.render(), containing: "◆ retry")?.contains(label) == true)
        #expect(JSONLines.line(.retryScheduled(retry), at: t0).contains(#""attempt":\#(attempt),"#))
    }

    @Test("after d nothing reconnects, and the panes say so")
    func afterDisconnect() {
        var h = Harness(size: Size(width: 200, height: 50))
        h.connectAndSubscribe()
        h.roster()
        h.client(
            .stateChanged(StateChangeRecord(previous: .connected, current: .disconnected, cause: .disconnectCalled)),
            at: 5)
        let members = membersText(h)
        #expect(members.contains("not reconnecting: disconnected — press c to connect"), "\(members)")
        #expect(!members.contains("waiting for reconnect"))
        #expect(channelsText(h).contains("○ not reconnecting") && !channelsText(h).contains("waiting for reconnect"))
    }

    @Test("after a refusal (4009) nothing retries, and the panes say so")
    func afterRefusal() {
        var h = Harness(size: Size(width: 200, height: 50))
        h.connectAndSubscribe()
        h.roster()
        h.client(
            .stateChanged(
                StateChangeRecord(
                    previous: .connected, current: .failed,
                    cause: .closed(code: 4009, reason: "terminated by the app", by: .server))), at: 5)
        let members = membersText(h)
        #expect(members.contains("failed 4009: no retry"), "\(members)")
        #expect(!members.contains("waiting for reconnect"))
        #expect(channelsText(h).contains("○ failed, no retry"))
    }

    @Test("while a retry is coming, rows and roster wait for the reconnect")
    func whileRetrying() {
        var h = Harness(size: Size(width: 200, height: 50))
        h.connectAndSubscribe()
        h.roster()
        h.client(.stateChanged(StateChangeRecord(previous: .connected, current: .unavailable, cause: .dropped)), at: 5)
        #expect(membersText(h).contains("(stale: waiting for reconnect)"))
        #expect(membersText(h).contains("alice"), "the last roster is still shown, marked stale")
        #expect(channelsText(h).contains("⟳ waiting for reconnect"))
        h.client(
            .stateChanged(StateChangeRecord(previous: .unavailable, current: .connecting, cause: .retryDue)), at: 6)
        #expect(channelsText(h).contains("⟳ waiting for reconnect"))
    }

    @Test("an auth failure means members unknown: the roster is not listed")
    func authFailure() {
        var h = Harness(size: Size(width: 120, height: 30))
        h.connectAndSubscribe()
        h.roster()
        h.client(
            .subscriptionError(
                channel: "presence-room",
                SubscriptionFailure(
                    type: "AuthError", status: 503,
                    message: "auth endpoint answered HTTP 503")), at: 5)
        let members = membersText(h)
        #expect(members.contains("auth failed 503: members unknown"), "\(members)")
        #expect(!members.contains("alice") && !members.contains("carol"))
    }

    @Test("the activity timeout shown is the library's negotiated one (the option until connected)")
    func activityTimeout() {
        var h = Harness(size: Size(width: 120, height: 30))
        func timeouts() -> String {
            flowed(paneRows(h.render(), Inspector.layout(h.model, size: h.model.size).connection))
        }
        #expect(timeouts().contains("activity 120s (option) · pong 30s"))
        h.connectAndSubscribe()  // the handshake negotiated 60 s
        #expect(timeouts().contains("activity 60s · pong 30s"))
    }
}
