// docs/RECORDING.md: E lines back into client events, the entry lines a recording is made of,
// and the `ts` splice of `--jsonl --replay`.

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
    }
}

/// One event of every case (and every cause), in the form that survives the round trip exactly.
let exactEvents: [ClientEvent] = [
    .stateChanged(StateChange(previous: .initialized, current: .connecting, cause: .started)),
    .stateChanged(StateChange(previous: .disconnected, current: .connecting, cause: .connectCalled)),
    .stateChanged(StateChange(previous: .connected, current: .disconnected, cause: .disconnectCalled)),
    .stateChanged(StateChange(previous: .connecting, current: .connected, cause: .handshake, connectionId: "123.456")),
    .stateChanged(StateChange(previous: .connecting, current: .connected, cause: .handshake, connectionId: "1.2",
                              activityTimeout: .seconds(60))),
    .stateChanged(StateChange(previous: .unavailable, current: .connecting, cause: .retryDue)),
    .stateChanged(StateChange(previous: .connected, current: .failed,
                              cause: .closed(code: 4009, reason: "terminated by the app", by: .server))),
    .stateChanged(StateChange(previous: .connected, current: .unavailable, cause: .closed(code: 1006, reason: "", by: .server))),
    .stateChanged(StateChange(previous: .connected, current: .unavailable,
                              cause: .closed(code: 1002, reason: "bad frame (masked)", by: .client))),
    .stateChanged(StateChange(previous: .connected, current: .connecting, cause: .pongTimeout)),
    .stateChanged(StateChange(previous: .connecting, current: .unavailable, cause: .networkError("connection refused by 127.0.0.1:1"))),
    .stateChanged(StateChange(previous: .connecting, current: .failed, cause: .handshakeWithoutId)),
    .stateChanged(StateChange(previous: .connected, current: .unavailable, cause: .dropped)),
    .stateChanged(StateChange(previous: .connected, current: .connecting, cause: .signout)),
    .stateChanged(StateChange(previous: .initialized, current: .failed, cause: .other("configuration error: no host"))),
    .stateChanged(StateChange(previous: .connected, current: .failed, cause: .recorded(text: "edge went away", closeCode: 4100))),
    .stateChanged(StateChange(previous: .initialized, current: .connecting)),
    .retryScheduled(RetrySchedule(delay: .milliseconds(4321), attempt: 2, cause: .closed(code: 4100, reason: "over capacity", by: .server))),
    .retryScheduled(RetrySchedule(delay: .milliseconds(700), attempt: 0, cause: nil)),
    .retryScheduled(RetrySchedule(delay: .milliseconds(0), attempt: 1, cause: .dropped)),
    .subscribed(channel: "presence-room"),
    .subscriptionError(channel: "private-x", SubscriptionFailure(type: "AuthError", status: 403, endpoint: "http://127.0.0.1:1/auth",
                                                                 message: "auth endpoint answered HTTP 403")),
    .subscriptionError(channel: "private-y", SubscriptionFailure(type: "Timeout", message: "no answer")),
    .event(ChannelEvent(channel: "chat", event: "message", data: #"{"n":1,"text":"hé 北京 \"q\"","f":1.50,"a":[1,null,true]}"#)),
    .event(ChannelEvent(channel: "presence-room", event: "client-typing", data: #"{"typing":true}"#, memberId: "alice")),
    .event(ChannelEvent(channel: "chat", event: "ping", data: nil)),
    .event(ChannelEvent(channel: "chat", event: "text", data: #""just a string""#)),
    .membersSnapshot(channel: "presence-room", members: [PresenceMember(id: "alice", info: #"{"name":"Alice"}"#),
                                                        PresenceMember(id: "bob")], myId: "alice"),
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
    .event(ChannelEvent(channel: "chat", event: "exact", data: #"{ "id" : 9007199254740993, "b":1.50,"a":[1e3] }"#)),
    .dropped(count: 12_345, wire: 0, since: TimeText.parseISO("2023-11-14T22:13:20.000Z") ?? t0),
    .dropped(count: 3, wire: 7, since: TimeText.parseISO("2023-11-14T22:13:21.500Z") ?? t0),
    .commandError(command: "trigger chat client-x", message: "client events need a private- or presence- channel"),
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
        #expect(names.count == 15, "cases covered: \(names.sorted())")
    }

    @Test("documented lossy cases come back as documented")
    func lossy() {
        func back(_ e: ClientEvent) -> ClientEvent? { JSONLines.decode(line: JSONLines.line(e, at: t0)) }
        // Sign-in info is not on the line.
        #expect(back(.signinSucceeded(memberId: "m", info: #"{"a":1}"#)) == .signinSucceeded(memberId: "m", info: nil))
        // Data comes back as sent, except raw CR/LF (whitespace) become spaces; raw text comes
        // back as a JSON string; a retry delay in whole ms.
        #expect(back(.event(ChannelEvent(channel: "c", event: "e", data: "{ \"a\" :\r\n 1 }")))
                == .event(ChannelEvent(channel: "c", event: "e", data: "{ \"a\" :   1 }")))
        #expect(back(.event(ChannelEvent(channel: "c", event: "e", data: "not json")))
                == .event(ChannelEvent(channel: "c", event: "e", data: #""not json""#)))
        #expect(back(.retryScheduled(RetrySchedule(delay: .microseconds(1500), attempt: 0)))
                == .retryScheduled(RetrySchedule(delay: .milliseconds(2), attempt: 0)))
        // A roster comes back sorted by id; secrets come back redacted.
        #expect(back(.membersSnapshot(channel: "p", members: [PresenceMember(id: "z"), PresenceMember(id: "a")], myId: nil))
                == .membersSnapshot(channel: "p", members: [PresenceMember(id: "a"), PresenceMember(id: "z")], myId: nil))
        let sig = "key:" + String(repeating: "ab", count: 32)
        #expect(back(.event(ChannelEvent(channel: "c", event: "e", data: #"{"auth":"\#(sig)"}"#)))
                == .event(ChannelEvent(channel: "c", event: "e", data: #"{"auth":"key:<redacted>"}"#)))
        // An endpoint comes back without the query string it was never written with (a `?token=`
        // would leak), as in `auth` lines.
        #expect(back(.subscriptionError(channel: "private-x", SubscriptionFailure(
            type: "AuthError", status: 403, endpoint: "http://127.0.0.1:1/auth?member=inspector&token=s3cr3t", message: "no")))
                == .subscriptionError(channel: "private-x", SubscriptionFailure(
                    type: "AuthError", status: 403, endpoint: "http://127.0.0.1:1/auth", message: "no")))
        // A redacted payload comes back compact, numbers and member order as sent.
        #expect(back(.event(ChannelEvent(channel: "c", event: "e", data: #"{ "id" : 9007199254740993, "token" : "x", "a" : 1.50 }"#)))
                == .event(ChannelEvent(channel: "c", event: "e", data: #"{"id":9007199254740993,"token":"<redacted>","a":1.50}"#)))
    }

    @Test("a recorded cause keeps its text and close code, so the pane still shows the code and band")
    func recordedCause() {
        let cause = JSONLines.cause(text: "closed by a future client version", closeCode: 4200)
        #expect(cause == .recorded(text: "closed by a future client version", closeCode: 4200))
        #expect(cause.closeCode == 4200 && cause.text == "closed by a future client version")
        #expect(JSONLines.cause(text: "server closed: 4009 unauthorized (bye)", closeCode: 4009)
                == .closed(code: 4009, reason: "bye", by: .server))
        // A retry line carries no close_code: the code is read from the sentence.
        #expect(JSONLines.cause(text: "server closed: 4100 over capacity", closeCode: nil)
                == .closed(code: 4100, reason: "", by: .server))
        var h = Harness(size: Size(width: 120, height: 30))
        h.client(.stateChanged(StateChange(previous: .connected, current: .connecting, cause: cause)), at: 1)
        let text = flowed(paneRows(h.render(), Layout(size: h.model.size).connection))
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
        #expect(JSONLines.decode(line: "[1,2]") == nil)
    }
}

@Suite("Recordings: lines written")
struct TranscriptLineTests {
    @Test("header: first keys ts, mono_ms, type; version 1; settings")
    func header() {
        let h = TranscriptHeader(tool: "bird-inspect 0.1.0", dialect: "bird", host: "127.0.0.1", port: 41234, tls: false,
                                 appKey: "sandbox-key", channels: ["public-demo"])
        let line = Transcript.headerLine(h, at: t0)
        #expect(line == #"{"ts":"2023-11-14T22:13:20.000Z","mono_ms":0.000,"type":"recording","version":1,"tool":"bird-inspect 0.1.0","dialect":"bird","host":"127.0.0.1","port":41234,"tls":false,"app_key":"sandbox-key","channels":["public-demo"]}"#)
        let (read, time) = try! TranscriptReader.header(line)
        #expect(read == h)
        #expect(TimeText.iso(time) == "2023-11-14T22:13:20.000Z")
    }

    @Test("mono_ms has three decimals and never goes negative")
    func mono() {
        #expect(Transcript.monoText(0) == "0.000")
        #expect(Transcript.monoText(12.3456) == "12.346")
        #expect(Transcript.monoText(1234567.0004) == "1234567.000")
        #expect(Transcript.monoText(-5) == "0.000")
        #expect(Transcript.monoText(.nan) == "0.000")
    }

    @Test("wire and auth entries")
    func entries() {
        let wire = Transcript.line(.wire(direction: .inbound, text: #"{"event":"bird:ping","data":{}}"#), at: t0, monoMs: 5)
        #expect(wire == #"{"ts":"2023-11-14T22:13:20.000Z","mono_ms":5.000,"type":"wire","direction":"in","text":"{\"event\":\"bird:ping\",\"data\":{}}"}"#)
        let out = Transcript.line(.wire(direction: .outbound, text: "x"), at: t0, monoMs: 1)
        #expect(out.contains(#""direction":"out""#))
        let auth = Transcript.line(.auth(AuthRecord(kind: .channel, endpoint: "http://h/auth", channel: "private-x", status: 200, ms: 4)),
                                   at: t0, monoMs: 7.25)
        #expect(auth == #"{"ts":"2023-11-14T22:13:20.000Z","mono_ms":7.250,"type":"auth","kind":"channel","endpoint":"http://h/auth","channel":"private-x","status":200,"ms":4}"#)
        let failed = Transcript.line(.auth(AuthRecord(kind: .signin, endpoint: "https://h/member", error: "timed out", ms: 5000)),
                                     at: t0, monoMs: 9)
        #expect(failed.hasSuffix(#""type":"auth","kind":"signin","endpoint":"https://h/member","error":"timed out","ms":5000}"#))
        let client = Transcript.line(.client(.subscribed(channel: "c")), at: t0, monoMs: 3)
        #expect(client == #"{"ts":"2023-11-14T22:13:20.000Z","mono_ms":3.000,"type":"subscribed","channel":"c"}"#)
    }

    @Test("secrets: a full signature left in wire text is scrubbed; the library's redaction is kept")
    func wireSecrets() {
        let hex = String(repeating: "0123456789abcdef", count: 4)
        let leaked = Transcript.line(.wire(direction: .outbound, text: #"{"auth":"k:\#(hex)"}"#), at: t0, monoMs: 0)
        #expect(!leaked.contains(hex))
        let redacted = Transcript.line(.wire(direction: .outbound, text: #"{"auth":"k:<redacted>"}"#), at: t0, monoMs: 0)
        #expect(redacted.contains(#"k:<redacted>"#))
        let err = Transcript.line(.auth(AuthRecord(kind: .channel, endpoint: "e", error: #"got {"auth":"k:\#(hex)"}"#, ms: 1)),
                                  at: t0, monoMs: 0)
        #expect(!err.contains(hex))
    }

    @Test("auth requests: kind by endpoint, channel from a JSON or form body, no query string or user info")
    func authDescribe() {
        let channelURL = URL(string: "http://127.0.0.1:9/auth?member=inspector&token=SECRET")!
        let signinURL = URL(string: "http://127.0.0.1:9/auth/member?member=inspector")!
        let json = Array(#"{"connection_id":"1.2","channel_name":"private-demo"}"#.utf8)
        let a = AuthRecord.describe(url: channelURL, body: json, channelEndpoint: channelURL, signinEndpoint: signinURL)
        #expect(a.kind == .channel && a.channel == "private-demo" && a.endpoint == "http://127.0.0.1:9/auth")
        let form = Array("socket_id=1.2&channel_name=presence-a%2Bb+c".utf8)
        let b = AuthRecord.describe(url: channelURL, body: form, channelEndpoint: channelURL, signinEndpoint: signinURL)
        #expect(b.channel == "presence-a+b c")
        let c = AuthRecord.describe(url: signinURL, body: Array(#"{"connection_id":"1.2"}"#.utf8), channelEndpoint: channelURL,
                                    signinEndpoint: signinURL)
        #expect(c.kind == .signin && c.channel == nil && c.endpoint == "http://127.0.0.1:9/auth/member")
        // The same URL for both: the body decides.
        let d = AuthRecord.describe(url: channelURL, body: Array("socket_id=1.2".utf8), channelEndpoint: channelURL, signinEndpoint: channelURL)
        #expect(d.kind == .signin)
        #expect(Transcript.endpointText(URL(string: "https://user:pw@h.example:8443/a/b?x=1#f")!) == "https://h.example:8443/a/b")
    }

    @Test("restamp changes ts and nothing else")
    func restamp() {
        let line = #"{"ts":"2020-01-01T00:00:00.000Z","mono_ms":1.500,"type":"event","channel":"c","data":{"ts":"keep","b":[1, 2]}}"#
        let t = Date(timeIntervalSince1970: 1_800_000_000.25)
        let out = TranscriptReader.restamp(line, ts: t)
        #expect(out == #"{"ts":"2027-01-15T08:00:00.250Z","mono_ms":1.500,"type":"event","channel":"c","data":{"ts":"keep","b":[1, 2]}}"#)
        // ts elsewhere in the line, or missing.
        #expect(TranscriptReader.restamp(#"{"type":"x", "ts" : "old","mono_ms":0}"#, ts: t)
                == #"{"type":"x", "ts" : "2027-01-15T08:00:00.250Z","mono_ms":0}"#)
        #expect(TranscriptReader.restamp(#"{"type":"x"}"#, ts: t) == #"{"ts":"2027-01-15T08:00:00.250Z","type":"x"}"#)
        #expect(TranscriptReader.restamp("{}", ts: t) == #"{"ts":"2027-01-15T08:00:00.250Z"}"#)
    }

    @Test("ISO timestamps read back to the same text")
    func iso() {
        for seconds in [0.0, 1_700_000_000.789, 1_700_000_000.001, 951_782_400.5, 4_102_444_799.999] {
            let text = TimeText.iso(Date(timeIntervalSince1970: seconds))
            #expect(TimeText.parseISO(text).map(TimeText.iso) == text, "\(text)")
        }
        #expect(TimeText.parseISO("2024-02-29T12:00:00Z").map(TimeText.iso) == "2024-02-29T12:00:00.000Z")
        #expect(TimeText.parseISO("2024-02-29T12:00:00.1Z").map(TimeText.iso) == "2024-02-29T12:00:00.100Z")
        for bad in ["", "yesterday", "2024-13-01T00:00:00.000Z", "2024-01-01 00:00:00.000Z", "2024-01-01T00:00:00.000"] {
            #expect(TimeText.parseISO(bad) == nil, "\(bad)")
        }
    }
}
