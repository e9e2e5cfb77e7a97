// docs/RECORDING.md, "Reading rules": the one reader every program uses — the header check, the
// versions named as written, bad lines skipped with their numbers and reasons, the clock held,
// lines cut the same whatever the reads.

import Foundation
import Testing

@testable import BirdRecording

let inspector = RecordingVersions(reader: "bird-inspect")
let header =
    #"{"ts":"2023-11-14T22:13:20.000Z","mono_ms":0.000,"type":"recording","version":1,"tool":"bird-inspect 0.1.0","dialect":"pusher","host":"127.0.0.1","port":6001,"tls":false,"app_key":"k","channels":["chat"]}"#

@Suite("Recordings: reading")
struct RecordingReaderTests {
    @Test(
        "file-level errors",
        arguments: [
            ("", "the file is empty (not a recording)"),
            ("\n\n", "the file is empty (not a recording)"),
            ("hello\n", "not a bird-inspect recording: the first line is not a JSON object"),
            (
                #"{"type":"state","mono_ms":0}"# + "\n",
                "not a bird-inspect recording: the first line is a state line, not the recording header"
            ),
            (#"{"mono_ms":0}"# + "\n", "not a bird-inspect recording: the first line has no type"),
            (#"{"type":"recording","mono_ms":0}"# + "\n", "not a bird-inspect recording: the header has no version"),
            (
                #"{"type":"recording","mono_ms":0,"version":2}"# + "\n",
                "recording version 2 is not supported (this bird-inspect reads version 1)"
            ),
        ])
    func fileErrors(text: String, message: String) {
        #expect(throws: (any Error).self) { try Recording.read(text: text, versions: inspector) }
        do {
            _ = try Recording.read(text: text, versions: inspector)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test(
        "the version is reported as written; each program names itself and what it reads",
        arguments: [("1.5", "1.5"), ("2", "2"), (#""1""#, #""1""#), ("1e300", "1e300")])
    func version(_ written: String, _ shown: String) {
        let text = header.replacingOccurrences(of: #""version":1"#, with: #""version":\#(written)"#) + "\n"
        #expect(throws: RecordingError.unsupportedVersion(shown, inspector)) {
            try Recording.read(text: text, versions: inspector)
        }
        #expect(
            RecordingError.unsupportedVersion(shown, inspector).description
                == "recording version \(shown) is not supported (this bird-inspect reads version 1)")
        let report = RecordingVersions(reader: "report", supported: [1, 2])
        #expect(
            RecordingError.unsupportedVersion(shown, report).description
                == "recording version \(shown) is not supported (this report reads versions 1 and 2)")
        #expect(
            (try? Recording.read(
                text: header.replacingOccurrences(of: #""version":1"#, with: #""version":2"#), versions: report))?
                .header.version == 2)
    }

    @Test("the header's settings; keys of the wrong type read as absent")
    func headerFields() throws {
        let r = try Recording.read(text: header + "\n", versions: inspector)
        #expect(
            r.header
                == RecordingHeader(
                    version: 1, timestamp: "2023-11-14T22:13:20.000Z", tool: "bird-inspect 0.1.0",
                    dialect: "pusher", host: "127.0.0.1", port: 6001, tls: false, appKey: "k",
                    channels: ["chat"]))
        let odd = try Recording.read(
            text: #"{"type":"recording","version":1,"port":70000,"tls":"yes","channels":[1,"a"]}"#,
            versions: inspector)
        #expect(odd.header == RecordingHeader(version: 1, channels: ["a"]))
    }

    @Test("bad lines are skipped and named by number and reason; blank lines, CRLF and unknown types are fine")
    func badLines() throws {
        let text = [
            header, #"{"mono_ms":1,"type":"state"}"#, "not json at all", "[1,2,3]",
            #"{"ts":"2023-11-14T22:13:28.000Z","type":"event","channel":"c","event":"e"}"#,
            #"{"mono_ms":8000,"channel":"c"}"#,
            #"{"mono_ms":-1,"type":"x"}"#, #"{"mono_ms":1e300,"type":"x"}"#, #"{"mono_ms":10000000001,"type":"x"}"#,
            #"{"mono_ms":"5","type":"x"}"#, "", #"{"mono_ms":9000,"type":"future_thing","x":1}"# + "\r",
            #"{"ts":"2023-11-14T22:13:31.000Z","mono_ms":11000,"type":"ev"#,  // a line cut short by a crash
        ].joined(separator: "\n")
        let r = try Recording.read(text: text, versions: inspector)
        #expect(
            r.problems.map(\.description) == [
                "line 3: not JSON", "line 4: not a JSON object", "line 5: no mono_ms", "line 6: no type",
                "line 7: mono_ms -1 is outside 0…10000000000", "line 8: mono_ms 1e300 is outside 0…10000000000",
                "line 9: mono_ms 10000000001 is outside 0…10000000000", "line 10: no mono_ms", "line 13: not JSON",
            ])
        #expect(r.problems[2].type == "event" && r.problems[2].kind == .noMono && !r.problems[2].isMalformed)
        #expect(r.problems[0].isMalformed && r.problems[3].isMalformed && r.problems[3].type == nil)
        #expect(r.lines.map(\.type) == ["state", "future_thing"])
        #expect(r.lines.map(\.number) == [2, 12])
        #expect(r.lines[1].fields.int("x") == 1 && r.lines[1].text.hasSuffix("\"x\":1}"))
    }

    @Test("a clock going backwards is held at the previous line's mono_ms")
    func backwardsClock() throws {
        let text =
            [header, #"{"mono_ms":50,"type":"a"}"#, #"{"mono_ms":20,"type":"b"}"#, #"{"mono_ms":70,"type":"c"}"#]
            .joined(separator: "\r\n") + "\r\n"
        let r = try Recording.read(text: text, versions: inspector)
        #expect(r.lines.map(\.monoMs) == [50, 50, 70])
        #expect(r.lines.map(\.type) == ["a", "b", "c"])
    }

    @Test("a line cut inside a UTF-8 character is skipped with a reason; a first one refuses the file")
    func cutCharacter() throws {
        var bytes = Array((header + "\n").utf8)
        bytes += Array(#"{"mono_ms":8,"type":"event","data":"北"#.utf8).dropLast(1) + [0x0A]
        bytes += Array(#"{"mono_ms":9,"type":"subscribed","channel":"after"}"#.utf8) + [0x0A]
        bytes += Array(#"{"mono_ms":9.5,"type":"event","data":"中"#.utf8).dropLast(2)
        let r = try Recording.read(bytes: bytes, versions: inspector)
        #expect(r.lines.map(\.type) == ["subscribed"])
        #expect(r.problems == [RecordingProblem(line: 2, kind: .notUTF8), RecordingProblem(line: 4, kind: .notUTF8)])
        #expect(r.problems.first?.reason == "not UTF-8 (cut inside a character?)")
        #expect(throws: RecordingError.notARecording("the first line is not UTF-8 (cut inside a character?)")) {
            try Recording.read(bytes: [0xE4, 0xB8, 0x0A] + Array(header.utf8), versions: inspector)
        }
    }

    @Test("lines are cut the same whatever the reads: any chunking, CRLF, blank lines, no final newline")
    func splitting() {
        let text = "a\r\n\n  \nb\nccc"
        let bytes = Array(text.utf8)
        for chunk in 1...bytes.count {
            var s = LineSplitter()
            var out: [SplitLine] = []
            var i = 0
            while i < bytes.count {
                out += s.push(Array(bytes[i..<min(bytes.count, i + chunk)]))
                i += chunk
            }
            out += s.finish()
            #expect(out == [.text(number: 1, "a"), .text(number: 4, "b"), .text(number: 5, "ccc")], "chunk \(chunk)")
        }
    }

    @Test("a line over the limit is skipped without being held in memory")
    func longLine() {
        var s = LineSplitter(maxLineBytes: 16)
        var out = s.push(Array("short\n".utf8))
        for _ in 0..<1000 { out += s.push(Array(repeating: UInt8(ascii: "x"), count: 1000)) }
        out += s.push(Array("\nafter\n".utf8))
        #expect(
            out == [
                .text(number: 1, "short"), .unreadable(RecordingProblem(line: 2, kind: .tooLong(16))),
                .text(number: 3, "after"),
            ])
        #expect(RecordingProblem(line: 2, kind: .tooLong(16)).description == "line 2: longer than 16 bytes")
        #expect(LineSplitter().maxLineBytes == 32 << 20)
    }

    @Test("fields: the exact text of a member, the last of repeated keys, integers within ±9·10¹⁵")
    func fields() throws {
        let text = #"{"mono_ms":1,"type":"e","data":{ "b" : 1.50 },"n":9007199254740993,"data":[1,2],"m":12}"#
        let r = try Recording.read(text: header + "\n" + text, versions: inspector)
        let f = try #require(r.lines.first?.fields)
        #expect(f.json("data") == "[1,2]")
        #expect(f.int("n") == nil && f.int("m") == 12 && f.number("n") != nil)
        #expect(f.json("missing") == nil)
    }
}
