// Reading a recording for the TUI: BirdRecording's reader, then the E lines decoded into entries
// (the reader's own rules are tested in BirdRecordingTests).

import BirdRecording
import Foundation
import Testing

@testable import BirdInspector

let sampleHeader =
    #"{"ts":"2023-11-14T22:13:20.000Z","mono_ms":0.000,"type":"recording","version":1,"tool":"bird-inspect 0.1.0","dialect":"pusher","host":"127.0.0.1","port":6001,"tls":false,"app_key":"k","channels":["chat"]}"#

/// A small recording: connect, subscribe, a wire message, an auth entry, events, a drop, a retry.
func sampleRecording(extra: [String] = []) -> String {
    ([sampleHeader] + [
        #"{"ts":"2023-11-14T22:13:20.010Z","mono_ms":10.000,"type":"state","previous":"initialized","current":"connecting","cause":"client started"}"#,
        #"{"ts":"2023-11-14T22:13:20.020Z","mono_ms":20.000,"type":"wire","direction":"in","text":"{\"event\":\"pusher:connection_established\",\"data\":\"{}\"}"}"#,
        #"{"ts":"2023-11-14T22:13:20.030Z","mono_ms":30.000,"type":"state","previous":"connecting","current":"connected","connection_id":"1.2","cause":"handshake received"}"#,
        #"{"ts":"2023-11-14T22:13:20.040Z","mono_ms":40.000,"type":"auth","kind":"channel","endpoint":"http://127.0.0.1:1/auth","channel":"private-x","status":200,"ms":3}"#,
        #"{"ts":"2023-11-14T22:13:20.050Z","mono_ms":50.000,"type":"subscribed","channel":"chat"}"#,
        #"{"ts":"2023-11-14T22:13:21.000Z","mono_ms":1000.000,"type":"event","channel":"chat","event":"message","data":{"n":1}}"#,
        #"{"ts":"2023-11-14T22:13:22.000Z","mono_ms":2000.000,"type":"event","channel":"chat","event":"message","data":{"n":2}}"#,
        #"{"ts":"2023-11-14T22:13:23.000Z","mono_ms":3000.000,"type":"state","previous":"connected","current":"unavailable","cause":"socket dropped","close_code":1006}"#,
        #"{"ts":"2023-11-14T22:13:23.000Z","mono_ms":3000.500,"type":"retry","in_ms":4000,"attempt":2,"cause":"socket dropped"}"#,
        #"{"ts":"2023-11-14T22:13:27.000Z","mono_ms":7000.000,"type":"state","previous":"unavailable","current":"connecting","cause":"retry due"}"#,
    ] + extra).joined(separator: "\n") + "\n"
}

@Suite("Recordings: read for playback")
struct PlaybackRecordingTests {
    @Test("a good recording: header settings, every entry in order, E lines decoded")
    func good() throws {
        let r = try PlaybackRecording(text: sampleRecording())
        #expect(
            r.header.dialect == "pusher" && r.header.port == 6001 && r.header.channels == ["chat"]
                && r.header.appKey == "k")
        #expect(r.entries.count == 10 && r.problems.isEmpty)
        #expect(r.entries.map(\.line) == Array(2...11))
        #expect(
            r.entries.map(\.type) == [
                "state", "wire", "state", "auth", "subscribed", "event", "event", "state", "retry", "state",
            ])
        #expect(r.entries[1].event == nil && r.entries[1].summary == "wire in pusher:connection_established")
        #expect(r.entries[3].summary == "auth channel private-x → 200 (3 ms)")
        #expect(
            r.entries[7].event
                == .stateChanged(StateChangeRecord(previous: .connected, current: .unavailable, cause: .dropped)))
        #expect(r.entries[5].monoMs == 1000 && RecordingTime.iso(r.entries[5].time) == "2023-11-14T22:13:21.000Z")
    }

    @Test(
        "file-level errors name the inspector and the version it reads",
        arguments: [
            ("", "the file is empty"),
            ("hello\n", "not a bird-inspect recording: the first line is not a JSON object"),
            (
                #"{"type":"recording","mono_ms":0,"version":2}"# + "\n",
                "recording version 2 is not supported (this bird-inspect reads version 1)"
            ),
        ])
    func fileErrors(text: String, message: String) {
        do {
            _ = try PlaybackRecording(text: text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    @Test("bad lines are skipped and named by number; blank lines and CRLF are fine; unknown types are kept")
    func badLines() throws {
        let text = sampleRecording(extra: [
            "not json at all",
            "[1,2,3]",
            #"{"ts":"2023-11-14T22:13:28.000Z","type":"event","channel":"c","event":"e"}"#,
            #"{"mono_ms":8000,"channel":"c"}"#,
            #"{"ts":"2023-11-14T22:13:28.000Z","mono_ms":8000,"type":"state","previous":"connected"}"#,
            "",
            #"{"ts":"2023-11-14T22:13:29.000Z","mono_ms":9000,"type":"future_thing","x":1}"# + "\r",
            #"{"ts":"2023-11-14T22:13:30.000Z","mono_ms":10000,"type":"event","channel":"chat","event":"last","data":null}"#,
            #"{"ts":"2023-11-14T22:13:31.000Z","mono_ms":11000,"type":"ev"#,  // a line cut short by a crash
        ])
        let r = try PlaybackRecording(text: text)
        #expect(
            r.problems.map(\.description) == [
                "line 12: not JSON", "line 13: not a JSON object", "line 14: no mono_ms", "line 15: no type",
                "line 16: a state line without its required keys", "line 20: not JSON",
            ])
        #expect(r.entries.count == 12)
        #expect(r.entries[10].type == "future_thing" && r.entries[10].event == nil && r.entries[10].line == 18)
        #expect(r.entries[11].event == .event(ChannelEventRecord(channel: "chat", event: "last", data: nil)))
    }

    @Test("a line without ts is placed at header time + mono_ms")
    func missingTs() throws {
        let r = try PlaybackRecording(
            text: sampleHeader + "\n" + #"{"mono_ms":1500,"type":"subscribed","channel":"c"}"#)
        #expect(RecordingTime.iso(r.entries[0].time) == "2023-11-14T22:13:21.500Z")
    }
}
