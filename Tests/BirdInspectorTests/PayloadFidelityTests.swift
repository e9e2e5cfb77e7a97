// Issue 12: the inspector shows what was sent — the event line, the detail view (pretty and raw),
// the JSONL `data`, the `sent` line, recordings and replays all carry the payload as received.

import BirdRecording
import Foundation
import Testing

@testable import BirdInspector

@Suite("What was sent, everywhere the inspector shows or writes it")
struct PayloadFidelityTests {
    static let exact = #"{"id":9007199254740993,"b":1,"a":2}"#
    static let spaced = "{ \"id\" : 9007199254740993,\r\n  \"b\" : 1.50, \"a\" : [1e3, -0.0] }"

    func event(_ data: String?) -> ClientEvent {
        .event(ChannelEventRecord(channel: "chat", event: "order", data: data))
    }

    @Test("JSONL data embeds the payload as received: digits, member order and spacing; raw CR/LF become spaces")
    func jsonlData() {
        #expect(JSONLines.line(event(Self.exact), at: t0).hasSuffix(#","data":{"id":9007199254740993,"b":1,"a":2}}"#))
        let line = JSONLines.line(event(Self.spaced), at: t0)
        #expect(line.hasSuffix(#","data":{ "id" : 9007199254740993,    "b" : 1.50, "a" : [1e3, -0.0] }}"#), "\(line)")
        #expect(!line.contains("\n") && !line.contains("\r"))
        #expect(JSONLines.line(event("not json {"), at: t0).hasSuffix(#","data":"not json {"}"#))
        #expect(JSONLines.line(event(#""a string""#), at: t0).hasSuffix(#","data":"a string"}"#))
        #expect(JSONLines.line(event(nil), at: t0).hasSuffix(#","data":null}"#))
    }

    @Test("a redacted payload keeps its numbers and member order (compact)")
    func redacted() {
        let sig = "key:" + String(repeating: "ab", count: 32)
        let line = JSONLines.line(
            event(#"{ "id" : 9007199254740993, "auth" : "\#(sig)", "z" : {"s": "\#(sig)"}, "a" : 1.50 }"#), at: t0)
        #expect(
            line.hasSuffix(
                #""data":{"id":9007199254740993,"auth":"key:<redacted>","z":{"s":"key:<redacted>"},"a":1.50}}"#),
            "\(line)")
    }

    @Test("the sent line carries the data that was sent")
    func sentData() {
        let sentLine = JSONLines.line(.sent(channel: "presence-x", event: "client-hi", data: Self.exact), at: t0)
        #expect(
            sentLine
                == #"{"ts":"2023-11-14T22:13:20.000Z","type":"sent","channel":"presence-x","event":"client-hi","data":{"id":9007199254740993,"b":1,"a":2}}"#
        )
        var h = Harness(size: Size(width: 200, height: 50))
        h.connectAndSubscribe()
        h.client(.sent(channel: "private-orders", event: "client-hi", data: Self.exact), at: 7)
        #expect(
            line(h.render(), containing: "→ client-hi")?.contains(#"sent {"id":9007199254740993,"b":1,"a":2}"#) == true)
    }

    @Test("the event log line shows the payload's digits and order")
    func logLine() {
        var h = Harness(size: Size(width: 200, height: 50))
        h.connectAndSubscribe()
        h.client(event(Self.spaced), at: 7)
        #expect(
            line(h.render(), containing: " order ")?.contains(#"{"id":9007199254740993,"b":1.50,"a":[1e3,-0.0]}"#)
                == true)
    }

    @Test("the detail view pretty-prints from the text received; r shows it raw and back", arguments: screenSizes)
    func detail(size: Size) throws {
        var h = Harness(size: size)
        h.connectAndSubscribe()
        h.client(event(Self.spaced), at: 7)
        h.press(.enter)
        let pretty = h.render()
        for line in [#"  "id": 9007199254740993,"#, #"  "b": 1.50,"#, #"    1e3,"#, #"    -0.0"#] {
            #expect(contains(pretty, line), "\(line)")
        }
        #expect(contains(pretty, "JSON, pretty-printed (numbers and key order as received)"))
        #expect(contains(pretty, "r raw"))
        h.press(.char("r"))
        let raw = h.render()
        #expect(contains(raw, #"{ "id" : 9007199254740993,"#) && contains(raw, #"  "b" : 1.50, "a" : [1e3, -0.0] }"#))
        #expect(contains(raw, "Detail — raw") && contains(raw, "JSON, exactly as received"))
        #expect(KeyBindings.binding(for: .char("r"), in: .detail)?.action == .toggleRaw)
        h.press(.char("r"))
        #expect(contains(h.render(), #"  "id": 9007199254740993,"#))
        h.press(.escape)
        #expect(h.model.mode == .normal)
    }

    @Test("a recorded line gives the exact text back, and its replay shows it")
    func recordedAndReplayed() throws {
        let line = JSONLines.line(event(Self.spaced), at: t0, monoMs: 5000)
        guard case .event(let e)? = JSONLines.decode(line: line) else {
            Issue.record("not decoded: \(line)")
            return
        }
        #expect(e.data == #"{ "id" : 9007199254740993,    "b" : 1.50, "a" : [1e3, -0.0] }"#)
        let recording = try PlaybackRecording(text: sampleRecording(extra: [line]))
        var model = Model(replaying: recording, file: "r", speed: 0, size: Size(width: 120, height: 30))
        _ = Inspector.update(&model, .tick(now: t0))
        _ = Inspector.update(&model, .key(.enter))
        let grid = Inspector.view(model, size: model.size)
        #expect(contains(grid, #"  "id": 9007199254740993,"#))
    }

    @Test("the ts splice changes only ts (member ranges from BirdWire)")
    func restamp() {
        let line =
            #"{"ts":"2023-11-14T22:13:20.000Z", "mono_ms":5.000,"type":"event","data":{ "id" : 9007199254740993 }}"#
        #expect(
            RecordingFormat.restamp(line, ts: t0.addingTimeInterval(1))
                == #"{"ts":"2023-11-14T22:13:21.000Z", "mono_ms":5.000,"type":"event","data":{ "id" : 9007199254740993 }}"#
        )
        #expect(RecordingFormat.restamp(#"{"type":"x"}"#, ts: t0) == #"{"ts":"2023-11-14T22:13:20.000Z","type":"x"}"#)
        #expect(RecordingFormat.restamp("not json", ts: t0) == "not json")
    }
}
