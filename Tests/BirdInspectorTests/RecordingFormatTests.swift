// docs/RECORDING.md: E lines back into client events, the entry lines a recording is made of,
// and the `ts` splice of `--jsonl --replay`.

import BirdRecording
import Foundation
import Testing

@testable import BirdInspector

/// The name of a `ClientEvent` case (an exhaustive switch: a new case will not compile until the
/// round-trip test covers it).
func caseName(_ event: ClientEvent) -> String {
    switch event {
    case .stateChanged: return "stateChanged"
    case .retryScheduled: return "retryScheduled"
    case .subscribed: return "subscribed"
    case .subscriptionError: return "subscriptionError"
    case .event: return "event"
    case .membersSnapshot: return "membersSnapshot"
    case .memberAdded: return "memberAdded"
    case .memberRemoved: return "memberRemoved"
    case .connectionCount: return "connectionCount"
    case .signinSucceeded: return "signinSucceeded"
    case .signinFailed: return "signinFailed"
    case .error: return "error"
    case .sent: return "sent"
    case .commandError: return "commandError"
    case .dropped: return "dropped"
    case .networkPath: return "networkPath"
    case .endpoint: return "endpoint"
    case .roundTrip: return "roundTrip"
    case .scenario: return "scenario"
    }
}

/// One event of every case (and every cause), in the form that survives the round trip exactly.
let exactEvents: [ClientEvent] = [
    .stateChanged(StateChangeRecord(previous: .initialized, current: .connecting, cause: .started)),
    .stateChanged(StateChangeRecord(previous: .disconnected, current: .connecting, cause: .connectCalled)),
    .stateChanged(StateChangeRecord(previous: .connected, current: .disconnected, cause: .disconnectCalled)),
    .stateChanged(
        StateChangeRecord(previous: .connecting, current: .connected, cause: .handshake, connectionId: "123.456")),
    .stateChanged(
        StateChangeRecord(
            previous: .connecting, current: .connected, cause: .handshake, connectionId: "1.2",
            activityTimeout: .seconds(60))),
    .stateChanged(StateChangeRecord(previous: .unavailable, current: .connecting, cause: .retryDue)),
    .stateChanged(
        StateChangeRecord(
            previous: .connected, current: .failed,
            cause: .closed(code: 4009, reason: "terminated by the app", by: .server))),
    .stateChanged(
        StateChangeRecord(
            previous: .connected, current: .unavailable, cause: .closed(code: 1006, reason: "", by: .server))),
    .stateChanged(
        StateChangeRecord(
            previous: .connected, current: .unavailable,
            cause: .closed(code: 1002, reason: "bad frame (masked)", by: .client))),
    .stateChanged(StateChangeRecord(previous: .connected, current: .connecting, cause: .pongTimeout)),
    .stateChanged(
        StateChangeRecord(
            previous: .connecting, current: .unavailable, cause: .networkError("connection refused by 127.0.0.1:1"))),
    .stateChanged(StateChangeRecord(previous: .connecting, current: .failed, cause: .handshakeWithoutId)),
    .stateChanged(StateChangeRecord(previous: .connected, current: .unavailable, cause: .dropped)),
    .stateChanged(StateChangeRecord(previous: .connected, current: .connecting, cause: .signout)),
    .stateChanged(
        StateChangeRecord(previous: .initialized, current: .failed, cause: .other("configuration error: no host"))),
    .stateChanged(
        StateChangeRecord(
            previous: .connected, current: .failed, cause: .recorded(text: "edge went away", closeCode: 4100))),
    .stateChanged(StateChangeRecord(previous: .initialized, current: .connecting)),
    .retryScheduled(
        RetryRecord(
            delay: .milliseconds(4321), attempt: 2, cause: .closed(code: 4100, reason: "edge full", by: .server))),
    .retryScheduled(RetryRecord(delay: .milliseconds(700), attempt: 0, cause: nil)),
    .retryScheduled(RetryRecord(delay: .milliseconds(0), attempt: 1, cause: .dropped)),
    .subscribed(channel: "presence-room"),
    .subscriptionError(
        channel: "private-x",
        SubscriptionFailure(
            type: "AuthError", status: 403, endpoint: "http://127.0.0.1:1/auth",
            message: "auth endpoint answered HTTP 403")),
    .subscriptionError(channel: "private-y", SubscriptionFailure(type: "Timeout", message: "no answer")),
    .event(
        ChannelEventRecord(
            channel: "chat", event: "message", data: #"{"n":1,"text":"hé 北京 \"q\"","f":1.50,"a":[1,null,true]}"#)),
    .event(
        ChannelEventRecord(
            channel: "presence-room", event: "client-typing", data: #"{"typing":true}"#, memberId: "alice")),
    .event(ChannelEventRecord(channel: "chat", event: "ping", data: nil)),
    .event(ChannelEventRecord(channel: "chat", event: "text", data: #""just a string""#)),
    .membersSnapshot(
        channel: "presence-room",
        members: [
            PresenceMember(id: "alice", info: #"{"name":"Alice"}"#),
            PresenceMember(id: "bob"),
        ], myId: "alice"),
    .membersSnapshot(channel: "presence-empty", members: [], myId: nil),
    .memberAdded(channel: "presence-room", PresenceMember(id: "carol", info: #"{"city":"Jakarta"}"#)),
    .memberAdded(channel: "presence-room", PresenceMember(id: "dave")),
    .memberRemoved(channel: "presence-room", memberId: "bob"),
    .connectionCount(channel: "chat", count: 17),
    .signinSucceeded(memberId: "inspector", info: nil),
    .signinFailed(message: "auth endpoint answered HTTP 500"),
    .error(ErrorReport(code: 4301, message: "client event rejected", reason: "rate limit")),
    .error(ErrorReport(message: "handshake without id")),
    .sent(channel: "private-x", event: "client-wave", data: nil),
    .sent(channel: "private-x", event: "client-wave", data: #"{"id":9007199254740993,"b":1,"a":2}"#),
    .event(
        ChannelEventRecord(channel: "chat", event: "exact", data: #"{ "id" : 9007199254740993, "b":1.50,"a":[1e3] }"#)),
    .dropped(count: 12_345, wire: 0, since: RecordingTime.parse("2023-11-14T22:13:20.000Z") ?? t0),
    .dropped(count: 3, wire: 7, since: RecordingTime.parse("2023-11-14T22:13:21.500Z") ?? t0),
    .commandError(command: "trigger chat client-x", message: "client events need a private- or presence- channel"),
    .stateChanged(
        StateChangeRecord(previous: .unavailable, current: .unavailable, cause: .networkUnavailable("no default route"))
    ),
    .stateChanged(
        StateChangeRecord(
            previous: .unavailable, current: .connecting,
            cause: .networkRestored("default via eth0 (IPv4), wlan0 (IPv6)"))),
    .stateChanged(
        StateChangeRecord(
            previous: .unavailable, current: .connecting, cause: .networkChanged("default via eth0 (IPv4)"))),
    .stateChanged(
        StateChangeRecord(
            previous: .connecting, current: .unavailable,
            cause: .endpointUnavailable("endpoint provider did not answer within 10 s"))),
    .retryScheduled(
        RetryRecord(
            delay: .milliseconds(900), attempt: 0, cause: .endpointUnavailable("endpoint provider failed: boom"))),
    .networkPath(NetworkPathRecord(usable: true, description: "default via eth0 (IPv4, IPv6)")),
    .networkPath(NetworkPathRecord(usable: false, description: "no default route (loopback only)")),
    .endpoint(.resolving),
    .endpoint(
        .resolved(
            host: "edge.example.net", port: 8443, tls: true, url: "wss://edge.example.net:8443/app/k",
            headerNames: ["X-A", "X-B"])),
    .endpoint(.resolved(host: "::1", port: nil, tls: false, url: nil, headerNames: [])),
    .endpoint(.failed("handshake headers provider failed: no token")),
    .event(
        ChannelEventRecord(
            channel: "private-encrypted-x", event: "paid", data: #"{"amount":15}"#,
            ciphertext: #"{"nonce":"bm9uY2U=","ciphertext":"Y2lwaGVy"}"#)),
    .error(
        ErrorReport(
            message: "event paid on private-encrypted-x was not delivered", kind: "decryption",
            channel: "private-encrypted-x", event: "paid")),
    .roundTrip(.microseconds(12_345)),
    .roundTrip(.zero),
    .roundTrip(.seconds(3)),
    .scenario(
        ScenarioStepRecord(
            name: "edge-restart", step: 1, action: "restart",
            text: "closed all with 4200 \"edge restarting\", down for 3.0 s",
            edgeBackAt: RecordingTime.parse("2023-11-14T22:13:23.000Z") ?? t0)),
    .scenario(ScenarioStepRecord(name: "edge-restart", text: "done")),
]

@Suite("Recordings: E lines read back")
struct JSONLinesDecodingTests {
    @Test("every ClientEvent case encodes and decodes to an equal value")
    func roundTrip() {
        for event in exactEvents {
            let line = JSONLines.line(event, at: t0)
            #expect(JSONLines.decode(line: line) == event, "\(line)")
            // The same with mono_ms, as in a recording.
            #expect(JSONLines.decode(line: JSONLines.line(event, at: t0, monoMs: 12.5)) == event)
        }
        let names = Set(exactEvents.map(caseName))
        #expect(names.count == 19, "cases covered: \(names.sorted())")
    }

    @Test("documented lossy cases come back as documented")
    func lossy() {
        func back(_ e: ClientEvent) -> ClientEvent? { JSONLines.decode(line: JSONLines.line(e, at: t0)) }
        // Sign-in info is not on the line.
        #expect(back(.signinSucceeded(memberId: "m", info: #"{"a":1}"#)) == .signinSucceeded(memberId: "m", info: nil))
        // Data comes back as sent, except raw CR/LF (whitespace) become spaces; raw text comes
        // back as a JSON string; a retry delay in whole ms.
        #expect(
            back(.event(ChannelEventRecord(channel: "c", event: "e", data: "{ \"a\" :\r\n 1 }")))
                == .event(ChannelEventRecord(channel: "c", event: "e", data: "{ \"a\" :   1 }")))
        #expect(
            back(.event(ChannelEventRecord(channel: "c", event: "e", data: "not json")))
                == .event(ChannelEventRecord(channel: "c", event: "e", data: #""not json""#)))
        #expect(
            back(.retryScheduled(RetryRecord(delay: .microseconds(1500), attempt: 0)))
                == .retryScheduled(RetryRecord(delay: .milliseconds(2), attempt: 0)))
        // A roster comes back sorted by id; secrets come back redacted.
        #expect(
            back(
                .membersSnapshot(channel: "p", members: [PresenceMember(id: "z"), PresenceMember(id: "a")], myId: nil))
                == .membersSnapshot(
                    channel: "p", members: [PresenceMember(id: "a"), PresenceMember(id: "z")], myId: nil))
        let sig = "key:" + String(repeating: "ab", count: 32)
        #expect(
            back(.event(ChannelEventRecord(channel: "c", event: "e", data: #"{"auth":"\#(sig)"}"#)))
                == .event(ChannelEventRecord(channel: "c", event: "e", data: #"{"auth":"key:<redacted>"}"#)))
        // An endpoint comes back without the query string it was never written with (a `?token=`
        // would leak), as in `auth` lines.
        #expect(
            back(
                .subscriptionError(
                    channel: "private-x",
                    SubscriptionFailure(
                        type: "AuthError", status: 403,
                        endpoint: "http://127.0.0.1:1/auth?member=inspector&token=s3cr3t", message: "no")))
                == .subscriptionError(
                    channel: "private-x",
                    SubscriptionFailure(
                        type: "AuthError", status: 403, endpoint: "http://127.0.0.1:1/auth", message: "no")))
        // A redacted payload comes back compact, numbers and member order as sent.
        #expect(
            back(
                .event(
                    ChannelEventRecord(
                        channel: "c", event: "e", data: #"{ "id" : 9007199254740993, "token" : "x", "a" : 1.50 }"#)))
                == .event(
                    ChannelEventRecord(
                        channel: "c", event: "e", data: #"{"id":9007199254740993,"token":"<redacted>","a":1.50}"#)))
    }

    @Test("a recorded cause keeps its text and close code, so the pane still shows the code and band")
    func recordedCause() {
        let cause = JSONLines.cause(text: "closed by a future client version", closeCode: 4200)
        #expect(cause == .recorded(text: "closed by a future client version", closeCode: 4200))
        #expect(cause.closeCode == 4200 && cause.text == "closed by a future client version")
        #expect(
            JSONLines.cause(text: "server closed: 4009 unauthorized (bye)", closeCode: 4009)
                == .closed(code: 4009, reason: "bye", by: .server))
        // A retry line carries no close_code: the code is read from the sentence.
        #expect(
            JSONLines.cause(text: "server closed: 4100 over capacity", closeCode: nil)
                == .closed(code: 4100, reason: "", by: .server))
        var h = Harness(size: Size(width: 120, height: 30))
        h.client(.stateChanged(StateChangeRecord(previous: .connected, current: .connecting, cause: cause)), at: 1)
        let text = flowed(paneRows(h.render(), Inspector.layout(h.model, size: h.model.size).connection))
        #expect(text.contains("closed by a future client version → 4200"), "\(text)")
        #expect(text.contains("reconnect"), "band behaviour shown: \(text)")
    }

    @Test("lines that are not E lines, or lack a required key, decode to nil")
    func notEvents() {
        #expect(JSONLines.decode(line: #"{"type":"wire","direction":"in","text":"{}"}"#) == nil)
        #expect(JSONLines.decode(line: #"{"type":"state","previous":"connected"}"#) == nil)
        #expect(JSONLines.decode(line: #"{"type":"state","previous":"connected","current":"sleeping"}"#) == nil)
        #expect(JSONLines.decode(line: #"{"type":"event","channel":"c"}"#) == nil)
        #expect(JSONLines.decode(line: "not json") == nil)
        #expect(JSONLines.decode(line: #"{"type":"network","usable":true}"#) == nil)
        #expect(JSONLines.decode(line: #"{"type":"network","path":"x"}"#) == nil)
        #expect(JSONLines.decode(line: #"{"type":"endpoint","phase":"resolved","tls":true}"#) == nil)
        #expect(JSONLines.decode(line: #"{"type":"endpoint","phase":"guessing"}"#) == nil)
        #expect(JSONLines.decode(line: #"{"type":"endpoint","phase":"failed"}"#) == nil)
        #expect(JSONLines.decode(line: "[1,2]") == nil)
    }
}

@Suite("Recordings: the inspector's entries")
struct RecordedEntryTests {
    @Test("an E line starts like every recording line (BirdRecording's head); wire and auth go through its writer")
    func lines() {
        #expect(
            RecordedEntry.client(.subscribed(channel: "c")).line(at: t0, monoMs: 3)
                == #"{"ts":"2023-11-14T22:13:20.000Z","mono_ms":3.000,"type":"subscribed","channel":"c"}"#)
        #expect(
            JSONLines.line(.subscribed(channel: "c"), at: t0)
                == #"{"ts":"2023-11-14T22:13:20.000Z","type":"subscribed","channel":"c"}"#)
        #expect(
            RecordedEntry.wire(direction: .inbound, text: "x").line(at: t0, monoMs: 5)
                == RecordingWriter.wire(direction: .inbound, text: "x", at: t0, monoMs: 5))
        let auth = AuthRecord(kind: .channel, endpoint: "http://h/auth", status: 200, ms: 4)
        #expect(RecordedEntry.auth(auth).line(at: t0, monoMs: 7) == RecordingWriter.auth(auth, at: t0, monoMs: 7))
    }
}
