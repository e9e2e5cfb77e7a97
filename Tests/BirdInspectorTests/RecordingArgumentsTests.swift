// --record, --replay and --speed on the command line.

import Foundation
import Testing

@testable import BirdInspector

@Suite("Command-line arguments: recording and replay")
struct RecordingArgumentsTests: ArgumentParsing {

    @Test("--record with a live session, in the TUI and headless")
    func record() throws {
        let o = try options(["--sandbox", "--record", "/tmp/s.jsonl"])
        #expect(o.record == "/tmp/s.jsonl" && o.replay == nil)
        #expect(try options(["--jsonl", "--sandbox", "--record=/tmp/t.jsonl"]).record == "/tmp/t.jsonl")
        #expect(try options(["--sandbox"], env: ["BIRD_RECORD": "/tmp/e.jsonl"]).record == "/tmp/e.jsonl")
    }

    @Test("--replay needs no app key; --speed defaults to 1 and accepts 0")
    func replay() throws {
        let o = try options(["--replay", "s.jsonl"])
        #expect(o.replay == "s.jsonl" && o.speed == 1 && o.appKey == nil)
        #expect(try options(["--replay", "s.jsonl", "--speed", "0"]).speed == 0)
        #expect(try options(["--jsonl", "--speed=2.5", "--replay", "s.jsonl", "--duration", "3"]).speed == 2.5)
        #expect(try options([], env: ["BIRD_REPLAY": "e.jsonl", "BIRD_SPEED": "4"]).speed == 4)
        // Live settings from BIRD_* are ignored by a replay (flags are refused, below).
        #expect(
            try options(["--replay", "s.jsonl"], env: ["BIRD_HOST": "example.com", "BIRD_INSECURE": "1"]).replay
                == "s.jsonl")
    }

    @Test(
        "bad combinations give one clear line",
        arguments: [
            (["--sandbox", "--speed", "2"], "--speed needs --replay FILE"),
            (["--replay", "s.jsonl", "--speed", "-1"], "--speed must be 0 (no waits) or a number from 0.001 to 10000"),
            (
                ["--replay", "s.jsonl", "--speed", "1e-300"],
                "--speed must be 0 (no waits) or a number from 0.001 to 10000"
            ),
            (
                ["--replay", "s.jsonl", "--speed", "20000"],
                "--speed must be 0 (no waits) or a number from 0.001 to 10000"
            ),
            (["--replay", "s.jsonl", "--speed", "fast"], "--speed must be 0 (no waits) or a number"),
            (["--replay", "s.jsonl", "--speed", "inf"], "--speed must be 0 (no waits) or a number"),
            (["--replay", "s.jsonl", "--sandbox"], "--sandbox cannot be used with it"),
            (["--replay", "s.jsonl", "--host", "h"], "--host cannot be used with it"),
            (["--replay", "s.jsonl", "--record", "t.jsonl"], "--record cannot be used with it"),
            (["--replay", "s.jsonl", "--subscribe", "c"], "--subscribe cannot be used with it"),
            (["--sandbox", "--scenario", "edge-restart", "--replay", "s.jsonl"], "--sandbox cannot be used with it"),
            (["--replay", "s.jsonl", "--scenario", "edge-restart"], "--scenario cannot be used with it"),
            (["--replay"], "--replay needs a value"),
            (["--replay", ""], "--replay needs a file name"),
            (["--sandbox", "--record", "--jsonl"], "--record needs a file name"),
        ])
    func bad(args: [String], message: String) {
        let e = error(args)
        #expect(e?.contains(message) == true, "\(args): \(e ?? "accepted")")
        #expect(e?.contains("\n") != true)
    }

    @Test("the usage text names the new flags")
    func usage() {
        for flag in ["--record FILE", "--replay FILE", "--speed X"] {
            #expect(Arguments.usage.contains(flag), "\(flag)")
        }
    }
}
