import BirdReport
import Testing

/// Numbers and free text as the page prints them.
@Suite struct ReportFormatTests {
    @Test func durations() {
        #expect(ReportFormat.duration(0) == "0 ms")
        #expect(ReportFormat.duration(999.4) == "999 ms")
        #expect(ReportFormat.duration(5_249) == "5.2 s")
        #expect(ReportFormat.duration(59_949) == "59.9 s")
        #expect(ReportFormat.duration(252_000) == "4 min 12 s")
        #expect(ReportFormat.duration(7_500_000) == "2 h 05 min")
    }

    @Test func offsets() {
        #expect(ReportFormat.offset(3_010.4) == "3.010 s")
        #expect(ReportFormat.offset(62_345) == "1:02.345")
        #expect(ReportFormat.offset(3_600_000) == "1:00:00.000")
        #expect(ReportFormat.offset(-5) == "0.000 s")
    }

    @Test func axisLabelsShowTheStep() {
        #expect(ReportFormat.axis(0, stepMs: 500) == "0 s")
        #expect(ReportFormat.axis(500, stepMs: 500) == "500 ms")
        #expect(ReportFormat.axis(1500, stepMs: 500) == "1.5 s")
        #expect(ReportFormat.axis(2000, stepMs: 500) == "2 s")
        #expect(ReportFormat.axis(15_000, stepMs: 5000) == "15 s")
        #expect(ReportFormat.axis(150_000, stepMs: 30_000) == "2 min 30 s")
        #expect(ReportFormat.axis(5_400_000, stepMs: 900_000) == "90 min")
        #expect(ReportFormat.axis(9_000_000, stepMs: 1_800_000) == "2 h 30 min")
    }

    @Test func anyNumberFormatsWithoutTrapping() {
        for value in [Double.nan, .infinity, -.infinity, 1e300, -1e300, Double.greatestFiniteMagnitude] {
            _ = ReportFormat.duration(value)
            _ = ReportFormat.offset(value)
            _ = ReportFormat.axis(value)
        }
        #expect(ReportFormat.duration(.nan) == "0 ms")
    }

    @Test func clockFromATimestamp() {
        #expect(ReportFormat.clock("2026-11-30T21:04:39.168Z") == "21:04:39.168")
        #expect(ReportFormat.clock("yesterday") == nil)
        #expect(ReportFormat.clock(nil) == nil)
    }

    @Test func shellQuoting() {
        #expect(ReplayHint.shellQuoted("session.jsonl") == "session.jsonl")
        #expect(ReplayHint.shellQuoted("my file.jsonl") == "'my file.jsonl'")
        #expect(ReplayHint.shellQuoted("it's") == "'it'\\''s'")
        #expect(ReplayHint.shellQuoted("") == "''")
    }
}
