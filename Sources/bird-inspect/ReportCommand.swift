// `bird-inspect report RECORDING -o FILE`: a recording turned into one self-contained HTML page
// (BirdReport). Reads the file as a stream, writes the page (atomically; an existing file only with
// --force). Returns the process exit code (docs/REPORT.md).

import BirdRecording
import BirdReport
import BirdCommandLine
import Foundation

func runReport(_ args: [String]) -> Int32 {
    func complain(_ message: String) {
        StandardStreams.err("bird-inspect report: \(message)\n")
    }
    let options: ReportOptions
    switch ReportArguments.parse(args) {
    case .failure(let error):
        StandardStreams.err("bird-inspect report: \(error.message)\n\n\(ReportArguments.usage)\n")
        return 2
    case .success(.help):
        print(ReportArguments.usage)
        return 0
    case .success(.run(let parsed)):
        options = parsed
    }
    let input = URL(fileURLWithPath: options.recording)
    if !options.toStdout {
        // The same file under another spelling (a symlink, ../dir/…) is refused too.
        let output = URL(fileURLWithPath: options.output)
        if input.resolvingSymlinksInPath().standardizedFileURL == output.resolvingSymlinksInPath().standardizedFileURL {
            complain("-o \(options.output) would overwrite the recording")
            return 2
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: options.output, isDirectory: &isDirectory), isDirectory.boolValue {
            complain("\(options.output) is a directory; name the page's file")
            return 1
        }
        if !options.force, FileManager.default.fileExists(atPath: options.output) {
            complain("\(options.output) exists; add --force to replace it")
            return 1
        }
    }
    // Streamed (BirdRecording's RecordingFile): memory does not grow with the recording.
    let summary: SessionSummary
    do throws(RecordingFileError) {
        let file = try RecordingFile(path: options.recording, versions: .report)
        var summarizer = ReportReader.Summarizer()
        while let item = try file.nextItem() { summarizer.take(item) }
        do throws(RecordingError) { summary = try summarizer.finish() } catch { throw .recording(error) }
    } catch {
        switch error {
        case .recording(let problem): complain("\(options.recording): \(problem)")
        case .noSuchFile: complain("\(options.recording): no such file")
        default: complain("\(options.recording): cannot read the file")
        }
        return 1
    }
    let page = HTMLReport.render(summary, source: options.recording)
    if options.toStdout {
        StandardStreams.out(page)
        return 0
    }
    do {
        try Data(page.utf8).write(to: URL(fileURLWithPath: options.output), options: .atomic)
    } catch {
        complain("\(options.output): cannot write the report")
        return 1
    }
    return 0
}
