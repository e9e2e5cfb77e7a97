// Recordings travel in support tickets: crafted numbers must give a clear reason, never a trap;
// playback streams (a windowed model). The reader's own rules — versions, cut lines, line sizes —
// are tested in BirdRecordingTests.

import BirdRecording
import BirdWire
import Foundation
import Testing

@testable import BirdInspector

@Suite("Recordings from strangers: crafted numbers, cut lines, huge files")
struct HostileRecordingTests {
    static let w0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test(
        "mono_ms beyond 10^10 (or negative) is skipped with its line and value, and the rest plays",
        arguments: [
            "1e300", "-1", "10000000001", "1e16",
        ])
    func hugeMono(_ mono: String) throws {
        let bad =
            #"{"ts":"2023-11-14T22:13:24.000Z","mono_ms":\#(mono),"type":"state","previous":"connected","current":"unavailable"}"#
        let r = try PlaybackRecording(text: sampleRecording(extra: [bad]))
        #expect(r.entries.count == 10)
        #expect(r.problems.map(\.description) == ["line 12: mono_ms \(mono) is outside 0…10000000000"])
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
        let r = try PlaybackRecording(text: sampleRecording(extra: lines))
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
        #expect(!RecordingTime.iso(Date(timeIntervalSince1970: -1e300)).isEmpty)
        #expect(
            TimeText.duration(.infinity) != "" && TimeText.duration(.nan) == "0.0s" && TimeText.duration(-3) == "0.0s")
        #expect(TimeText.seconds(.seconds(Int64.max)) != "")
        #expect(RecordingFormat.monoText(1e300) == "9000000000000.000")
        #expect(
            Checked.int(.nan) == 0 && Checked.int(1e300) == 9_000_000_000_000_000
                && Checked.int(-.infinity) == -9_000_000_000_000_000)
        #expect(Checked.milliseconds(.seconds(Int64.max)) == 9_000_000_000_000_000)
        #expect(
            Checked.duration(seconds: 1e300) == .seconds(1_000_000_000) && Checked.duration(seconds: -.nan) == .zero)
        #expect(PlaybackPacing.due(monoMs: 1e10, speed: 1e-300) == .seconds(10_000_000_000_000))
        #expect(PlaybackPacing.due(monoMs: 1500, speed: 2) == .milliseconds(750))
        #expect(PlaybackPacing.due(monoMs: 1500, speed: 0) == nil)
        #expect(
            JSONLines.line(.retryScheduled(RetryRecord(delay: .seconds(Int64.max), attempt: 0)), at: t0).contains(
                #""in_ms":9000000000000000"#))
    }

    @Test("streamed replay (an index, then windows of entries) plays exactly like the whole file")
    func streamedEqualsWhole() throws {
        var lines: [String] = []
        for i in 0..<5000 {
            let mono = 100 + i * 10
            if i % 997 == 0 {
                lines.append(
                    #"{"ts":"2023-11-14T22:13:20.000Z","mono_ms":\#(mono),"type":"state","previous":"connected","current":"unavailable","cause":"socket dropped","close_code":1006}"#
                )
                lines.append(
                    #"{"ts":"2023-11-14T22:13:20.000Z","mono_ms":\#(mono),"type":"state","previous":"unavailable","current":"connected","connection_id":"1.\#(i)","cause":"handshake received"}"#
                )
            } else {
                lines.append(
                    #"{"ts":"2023-11-14T22:13:20.000Z","mono_ms":\#(mono),"type":"event","channel":"chat","event":"n","data":{"i":\#(i)}}"#
                )
            }
        }
        let whole = try PlaybackRecording(text: sampleRecording(extra: lines))
        var index = PlaybackIndex(header: whole.header, startedAt: whole.startedAt)
        for e in whole.entries { index.add(e) }
        var streamed = Model(replaying: index, file: "r", speed: 1)
        var full = Model(replaying: whole, file: "r", speed: 1)
        var next = 0
        func supply() {
            while let wanted = streamed.playback?.wanted, wanted > 0 {
                let batch = Array(whole.entries[next..<min(whole.entries.count, next + wanted)])
                next += batch.count
                streamed.playback?.supply(batch)
            }
        }
        var t = 0.0
        for step in 0..<400 {
            let key: Key? = step == 3 ? .char(" ") : step < 10 ? .char(">") : step == 10 ? .char(" ") : nil
            for m in [key.map(Message.key), .tick(now: Self.w0.addingTimeInterval(t))].compactMap({ $0 }) {
                supply()
                _ = Inspector.update(&streamed, m)
                while streamed.playback?.starved == true {
                    supply()
                    _ = Inspector.update(&streamed, .tick(now: Self.w0.addingTimeInterval(t)))
                }
                _ = Inspector.update(&full, m)
                while full.playback?.starved == true {
                    _ = Inspector.update(&full, .tick(now: Self.w0.addingTimeInterval(t)))
                }
            }
            #expect(streamed.playback?.position == full.playback?.position, "step \(step)")
            #expect(streamed.connection == full.connection && streamed.log.lastSeq == full.log.lastSeq)
            #expect((streamed.playback?.window.count ?? 0) <= 2048 + 512, "the window stays small")
            t += 0.137
        }
        #expect(streamed.playback?.finished == true && streamed.playback?.statusText == full.playback?.statusText)
    }
}
