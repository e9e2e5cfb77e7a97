import BirdRecording
import BirdSandbox

extension FuzzHarness {
    /// The sandbox's recording reader and replay planner (`bird-sandbox --replay FILE`).
    static let replay = FuzzHarness(
        name: "replay",
        summary: "file bytes -> ServerReplaySource (BirdRecording's reader, the sandbox's rules) -> ServerReplayPlan; "
            + "every wait, size and code in the plan must be in the range the player can use",
        entry: { data, size in
            ReplayFuzz.run(data.fuzzBytes(count: size))
            return 0
        })
}

/// The replay harness. Recordings travel in support tickets, so their bytes are untrusted. Besides
/// "never crash", it checks what the player relies on, trapping (a finding) when one breaks:
/// - every wait (`after`, expectation timeout, `endAfter`) is finite, not negative, and at most
///   the recording's range plus the grace (`RecordingFormat.maxMonoMs` in seconds + a day);
/// - every binary frame size is within `0...(16 << 20)`;
/// - every close code is one a close frame may carry;
/// - summaries (what the log prints) can be made.
enum ReplayFuzz {
    static let maxWait = Double(RecordingFormat.maxMonoMs) / 1000 + 86_400

    static func run(_ bytes: [UInt8]) {
        let source: ServerReplaySource
        do {
            source = try ServerReplaySource(bytes: bytes)
        } catch {
            _ = error.description
            return
        }
        for grace in [ServerReplayPlan.defaultExpectGrace, -1, .infinity, .nan, 1e300] {
            check(ServerReplayPlan(source: source, expectGrace: grace))
        }
    }

    static func check(_ plan: ServerReplayPlan) {
        _ = plan.summary
        for segment in plan.segments {
            _ = segment.summary
            checkWait(segment.endAfter, "endAfter of segment \(segment.number)")
            for step in segment.steps {
                switch step {
                case .send(_, let after):
                    checkWait(after, "send after")
                case .sendBinary(let bytes, let after):
                    checkWait(after, "binary send after")
                    if !(0...ServerReplayPlan.maxBinaryBytes).contains(bytes) {
                        fatalError("binary frame of \(bytes) bytes in segment \(segment.number)")
                    }
                case .expect(let expectation, let timeout):
                    _ = expectation.description
                    checkWait(timeout, "expectation timeout")
                }
            }
            if case .close(let code, _) = segment.end {
                switch code {
                case 1000...1003, 1007...1014, 3000...4999: break
                default: fatalError("segment \(segment.number) closes with \(code), which no close frame may carry")
                }
            }
        }
    }

    static func checkWait(_ seconds: Double, _ what: String) {
        if !seconds.isFinite || seconds < 0 || seconds > maxWait {
            fatalError("\(what) is \(seconds) s: outside 0...\(maxWait)")
        }
    }
}
