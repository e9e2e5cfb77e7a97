import BirdReport
import Testing

/// `bird-inspect report`'s flags.
@Suite struct ReportArgumentsTests {
    func parse(_ args: [String]) -> Result<ReportCommand, ReportArgumentError> { ReportArguments.parse(args) }

    func message(_ args: [String]) -> String? {
        if case .failure(let error) = parse(args) { return error.message }
        return nil
    }

    @Test func theUsualForms() {
        #expect(
            parse(["s.jsonl", "-o", "r.html"]) == .success(.run(ReportOptions(recording: "s.jsonl", output: "r.html"))))
        #expect(parse(["-o", "-", "s.jsonl"]) == .success(.run(ReportOptions(recording: "s.jsonl", output: "-"))))
        #expect(
            parse(["--output=r.html", "--force", "s.jsonl"])
                == .success(.run(ReportOptions(recording: "s.jsonl", output: "r.html", force: true))))
        #expect(
            parse(["s.jsonl", "-f", "--output", "r.html"])
                == .success(.run(ReportOptions(recording: "s.jsonl", output: "r.html", force: true))))
        #expect(
            parse(["-o", "r.html", "--", "-odd.jsonl"])
                == .success(.run(ReportOptions(recording: "-odd.jsonl", output: "r.html"))))
        #expect(parse(["--help"]) == .success(.help))
        #expect(parse(["s.jsonl", "-h"]) == .success(.help))
    }

    @Test func badFlagsSayWhatIsWrong() {
        #expect(message([]) == "which recording? (bird-inspect report RECORDING -o FILE)")
        #expect(message(["s.jsonl"]) == "-o FILE is required (-o - writes the page to stdout)")
        #expect(message(["s.jsonl", "-o"]) == "-o needs a value (a file, or - for stdout)")
        #expect(message(["s.jsonl", "--output="]) == "--output needs a value (a file, or - for stdout)")
        #expect(message(["s.jsonl", "-o", "a", "-o", "b"]) == "-o given twice")
        #expect(message(["a.jsonl", "b.jsonl", "-o", "r"]) == "one recording at a time (got b.jsonl too)")
        #expect(message(["s.jsonl", "-o", "r", "--colour"]) == "unknown flag --colour")
        #expect(message(["s.jsonl", "-o", "r", "--force=yes"]) == "--force takes no value")
        #expect(message(["-", "-o", "r"]) == "the recording must be a file, not stdin")
        #expect(message(["./s.jsonl", "-o", "s.jsonl"]) == "-o s.jsonl would overwrite the recording")
        #expect(message(["dir//s.jsonl", "-o", "dir/./s.jsonl"]) == "-o dir/./s.jsonl would overwrite the recording")
    }

    @Test func theUsageNamesEveryFlag() {
        for flag in ["-o, --output FILE", "-f, --force", "docs/REPORT.md", "usage: bird-inspect report RECORDING"] {
            #expect(ReportArguments.usage.contains(flag))
        }
    }
}
