// Recordings travel in support tickets: crafted numbers, versions, cut lines and sizes must give a
// clear reason, never a trap; replay streams (LineSplitter, RecordingReader, a windowed model).

import Foundation
import Testing

@testable import BirdInspector

@Suite("Recordings from strangers: crafted numbers, cut lines, huge files")
struct HostileRecordingTests {
    static let w0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("mono_ms beyond 10^10 (or negative) is skipped with its line and value, and the rest plays", arguments: [
        "1e300", "-1", "10000000001", "1e16",
    ])
    func hugeMono(_ mono: String) throws {
        let bad = #"{"ts":"2023-11-14T22:13:24.000Z","mono_ms":\#(mono),"type":"state","previous":"connected","current":"unavailable"}"#
        let r = try TranscriptReader.read(sampleRecording(extra: [bad]))
        #expect(r.entries.count == 10)
        #expect(r.problems == [TranscriptProblem(line: 12, reason: "mono_ms \(mono) is outside 0…10000000000")])
    }

    @Test("a crafted file plays and draws without trapping (the 1e300 recording that crashed replay)")
    func craftedPlays() throws {
        let lines = [
            #"{"mono_ms":1e300,"type":"state","previous":"initialized","current":"connecting"}"#,
            #"{"ts":"9999-12-31T23:59:59.999Z","mono_ms":9999999999,"type":"retry","in_ms":9000000000000000,"attempt":-5}"#,
            #"{"mono_ms":10000000000,"type":"state","previous":"connecting","current":"unavailable"}"#,
            #"{"ts":"0000-01-01T00:00:00.000Z","mono_ms":0,"type":"event","channel":"c","event":"e","data":1e308}"#,
            #"{"mono_ms":5,"type":"dropped","count":9007199254740993,"since":"2023-11-14T22:13:20.000Z"}"#,
        ]
        let r = try TranscriptReader.read(sampleRecording(extra: lines))
        for speed in [0.0, 1, 64] {
            var model = Model(replaying: r, file: "x", speed: speed, size: Size(width: 120, height: 30))
            var t = 0.0
            for key in [nil, Key.char(" "), .char(">"), .char("."), .enter, .char("r"), .escape, .char(" "), nil] {
                if let key { _ = Inspector.update(&model, .key(key)) }
                t += 1e6
                _ = Inspector.update(&model, .tick(now: Self.w0.addingTimeInterval(t)))
                _ = Inspector.view(model, size: model.size)
            }
        }
    }

    @Test("numbers turned into text and durations never trap")
    func checkedNumbers() {
        #expect(!TimeText.clock(Date(timeIntervalSince1970: 1e300)).isEmpty)
        #expect(!TimeText.iso(Date(timeIntervalSince1970: -1e300)).isEmpty)
        #expect(TimeText.duration(.infinity) != "" && TimeText.duration(.nan) == "0.0s" && TimeText.duration(-3) == "0.0s")
        #expect(TimeText.seconds(.seconds(Int64.max)) != "")
        #expect(Transcript.monoText(1e300) == "9000000000000.000")
        #expect(Checked.int(.nan) == 0 && Checked.int(1e300) == 9_000_000_000_000_000 && Checked.int(-.infinity) == -9_000_000_000_000_000)
        #expect(Checked.milliseconds(.seconds(Int64.max)) == 9_000_000_000_000_000)
        #expect(Checked.duration(seconds: 1e300) == .seconds(1_000_000_000) && Checked.duration(seconds: -.nan) == .zero)
        #expect(ReplayPacing.due(monoMs: 1e10, speed: 1e-300) == .seconds(10_000_000_000_000))
        #expect(ReplayPacing.due(monoMs: 1500, speed: 2) == .milliseconds(750))
        #expect(ReplayPacing.due(monoMs: 1500, speed: 0) == nil)
        #expect(JSONLines.line(.retryScheduled(RetrySchedule(delay: .seconds(Int64.max), attempt: 0)), at: t0).contains(#""in_ms":9000000000000000"#))
    }

    @Test("the version is reported as written", arguments: [("1.5", "1.5"), ("2", "2"), (#""1""#, #""1""#), ("1e300", "1e300")])
    func version(_ written: String, _ shown: String) {
        let header = sampleHeader.replacingOccurrences(of: #""version":1"#, with: #""version":\#(written)"#)
        #expect(throws: TranscriptError.unsupportedVersion(shown)) { try TranscriptReader.read(header + "\n") }
        #expect(TranscriptError.unsupportedVersion(shown).description
                == "recording version \(shown) is not supported (this bird-inspect reads version 1)")
    }

    @Test("a line cut inside a UTF-8 character is skipped with a reason; the rest of the file plays")
    func cutCharacter() throws {
        var bytes = Array(sampleRecording().utf8)
        let cut = Array(#"{"ts":"2023-11-14T22:13:28.000Z","mono_ms":8000,"type":"event","channel":"c","event":"e","data":"北"#.utf8)
        bytes += cut.dropLast(1) + [0x0A]
        bytes += Array(#"{"ts":"2023-11-14T22:13:29.000Z","mono_ms":9000,"type":"subscribed","channel":"after"}"#.utf8) + [0x0A]
        // And a crashed recorder's last line, cut in a character with no newline.
        bytes += Array(#"{"ts":"2023-11-14T22:13:29.500Z","mono_ms":9500,"type":"event","data":"中"#.utf8).dropLast(2)
        let r = try TranscriptReader.read(bytes: bytes)
        #expect(r.entries.count == 11 && r.entries.last?.event == .subscribed(channel: "after"))
        #expect(r.problems == [TranscriptProblem(line: 12, reason: "not UTF-8 (cut inside a character?)"),
                               TranscriptProblem(line: 14, reason: "not UTF-8 (cut inside a character?)")])
        #expect(throws: TranscriptError.notARecording("the first line is not UTF-8 (cut inside a character?)")) {
            try TranscriptReader.read(bytes: [0xE4, 0xB8, 0x0A] + Array(sampleRecording().utf8))
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
        #expect(out == [.text(number: 1, "short"), .unreadable(TranscriptProblem(line: 2, reason: "longer than 16 bytes")),
                        .text(number: 3, "after")])
    }

    @Test("streamed replay (an index, then windows of entries) plays exactly like the whole file")
    func streamedEqualsWhole() throws {
        var lines: [String] = []
        for i in 0..<5000 {
            let mono = 100 + i * 10
            if i % 997 == 0 {
                lines.append(#"{"ts":"2023-11-14T22:13:20.000Z","mono_ms":\#(mono),"type":"state","previous":"connected","current":"unavailable","cause":"socket dropped","close_code":1006}"#)
                lines.append(#"{"ts":"2023-11-14T22:13:20.000Z","mono_ms":\#(mono),"type":"state","previous":"unavailable","current":"connected","connection_id":"1.\#(i)","cause":"handshake received"}"#)
            } else {
                lines.append(#"{"ts":"2023-11-14T22:13:20.000Z","mono_ms":\#(mono),"type":"event","channel":"chat","event":"n","data":{"i":\#(i)}}"#)
            }
        }
        let whole = try TranscriptReader.read(sampleRecording(extra: lines))
        var index = RecordingIndex(header: whole.header, startedAt: whole.startedAt)
        for e in whole.entries { index.add(e) }
        var streamed = Model(replaying: index, file: "r", speed: 1)
        var full = Model(replaying: whole, file: "r", speed: 1)
        var next = 0
        func supply() {
            while let wanted = streamed.replay?.wanted, wanted > 0 {
                let batch = Array(whole.entries[next..<min(whole.entries.count, next + wanted)])
                next += batch.count
                streamed.replay?.supply(batch)
            }
        }
        var t = 0.0
        for step in 0..<400 {
            let key: Key? = step == 3 ? .char(" ") : step < 10 ? .char(">") : step == 10 ? .char(" ") : nil
            for m in [key.map(Message.key), .tick(now: Self.w0.addingTimeInterval(t))].compactMap({ $0 }) {
                supply()
                _ = Inspector.update(&streamed, m)
                while streamed.replay?.starved == true {
                    supply()
                    _ = Inspector.update(&streamed, .tick(now: Self.w0.addingTimeInterval(t)))
                }
                _ = Inspector.update(&full, m)
                while full.replay?.starved == true { _ = Inspector.update(&full, .tick(now: Self.w0.addingTimeInterval(t))) }
            }
            #expect(streamed.replay?.position == full.replay?.position, "step \(step)")
            #expect(streamed.connection == full.connection && streamed.log.lastSeq == full.log.lastSeq)
            #expect((streamed.replay?.window.count ?? 0) <= 2048 + 512, "the window stays small")
            t += 0.137
        }
        #expect(streamed.replay?.finished == true && streamed.replay?.statusText == full.replay?.statusText)
    }
}
