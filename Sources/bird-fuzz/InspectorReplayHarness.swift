import BirdInspector
import BirdRecording
import Foundation

extension FuzzHarness {
    /// The recording reader (BirdRecording) and the inspector's playback (`bird-inspect --replay FILE`).
    static let inspectorReplay = FuzzHarness(
        name: "inspector-replay",
        summary: "file bytes -> BirdRecording (LineSplitter, RecordingReader) -> the playback model at several "
            + "speeds with the replay keys -> view; pacing and ts splice of --jsonl --replay; JSON lines re-encoded",
        entry: { data, size in
            InspectorReplayFuzz.run(data.fuzzBytes(count: size))
            return 0
        })
}

/// The inspector-replay harness. Recordings travel in support tickets, so their bytes are
/// untrusted: whatever a file holds, reading it, playing it at any speed, pressing the replay keys
/// and drawing every frame must not trap. Also checked (a finding when broken): every line read
/// keeps `mono_ms` within 0…`RecordingFormat.maxMonoMs` and never below the line before, and
/// pacing waits stay finite and in range.
enum InspectorReplayFuzz {
    static let w0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func run(_ bytes: [UInt8]) {
        // The headless path, streamed as `--jsonl --replay` reads it (in two chunks, so lines
        // straddle a read), with the pacing and the `ts` splice of every line.
        var splitter = LineSplitter(maxLineBytes: 1 << 16)
        let cut = bytes.count / 2
        let lines = splitter.push(Array(bytes[..<cut])) + splitter.push(Array(bytes[cut...])) + splitter.finish()
        var reader = RecordingReader(versions: PlaybackRecording.versions)
        var lastMono = 0.0
        do {
            for line in lines {
                switch try reader.read(line) {
                case .header(_, let text): _ = RecordingFormat.restamp(text, ts: w0)
                case .problem(let problem): _ = problem.description
                case .line(let l):
                    if !(0...Double(RecordingFormat.maxMonoMs)).contains(l.monoMs) {
                        fatalError("mono_ms \(l.monoMs) was accepted")
                    }
                    if l.monoMs < lastMono { fatalError("mono_ms went back from \(lastMono) to \(l.monoMs)") }
                    lastMono = l.monoMs
                    for speed in [1, 1e-3, 1e4] {
                        guard let due = PlaybackPacing.due(monoMs: l.monoMs, speed: speed) else {
                            fatalError("no wait at speed \(speed)")
                        }
                        if due < .zero || due > .seconds(Int64(1e13)) { fatalError("wait \(due) at speed \(speed)") }
                    }
                    _ = RecordingFormat.restamp(l.text, ts: w0)
                }
            }
            try reader.finish()
        } catch {
            _ = error.description
        }

        // The TUI path: the whole recording, played at several speeds with the keys, every frame drawn.
        let recording: PlaybackRecording
        do {
            recording = try PlaybackRecording(bytes: bytes)
        } catch {
            _ = error.description
            return
        }
        for entry in recording.entries {
            if let event = entry.event {
                _ = JSONLines.decode(line: JSONLines.line(event, at: entry.time, monoMs: entry.monoMs))
            }
        }
        // Frames are drawn every other step (drawing is most of the cost; every path to the
        // panes' time and number text is still covered).
        for (speed, size) in [
            (1.0, Size(width: 80, height: 24)), (0, Size(width: 100, height: 30)), (64, Size(width: 60, height: 16)),
        ] {
            var model = Model(replaying: recording, file: "fuzz.jsonl", speed: speed, size: size)
            var t = 0.0
            for (step, key) in [
                nil, Key.char(" "), .char("."), .char(">"), .char("+"), .char("-"), .enter, .char("r"),
                .escape, .char(" "), nil,
            ].enumerated() {
                if let key { _ = Inspector.update(&model, .key(key)) }
                t += [0.01, 0.5, 3, 600, 1e6][step % 5]
                _ = Inspector.update(&model, .tick(now: w0.addingTimeInterval(t)))
                if step % 2 == 0 { _ = Inspector.view(model, size: size) }
            }
        }
    }
}
