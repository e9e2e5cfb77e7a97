// bird-inspect: the terminal realtime inspector. Parses the command line, then runs the TUI or
// the headless JSONL mode; both drive the real client through LiveSession, or play a recording
// (`--replay`, ReplayApp). `bird-inspect doctor …` checks a connection layer by layer (DoctorCommand);
// `bird-inspect report …` turns a recording into an HTML page (ReportCommand).

import BirdInspector
import BirdSandbox
import BirdCommandLine
import Foundation

func fail(_ message: String) -> Never {
    StandardStreams.err("bird-inspect: \(message)\n\n\(Arguments.usage)\n")
    exit(2)
}

if CommandLine.arguments.dropFirst().first == "doctor" {
    exit(runDoctor(Array(CommandLine.arguments.dropFirst(2))))
}
if CommandLine.arguments.dropFirst().first == "report" {
    exit(runReport(Array(CommandLine.arguments.dropFirst(2))))
}

let arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessInfo.processInfo.environment
// `--profile NAME`: the file is read here (a missing file is nil text); the core parses and merges it.
var profiles: ProfilesFile?
if Profiles.requested(arguments, environment: environment) != nil,
    let path = ProfilesFile.path(environment: environment)
{
    profiles = ProfilesFile(
        path: path, text: FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) })
}

switch Arguments.parse(arguments, environment: environment, profiles: profiles) {
case .failure(let error):
    fail(error.message)
case .success(.help):
    print(Arguments.usage)
    exit(0)
case .success(.version):
    print(Arguments.version)
    exit(0)
case .success(.keyReference):
    print(KeyBindings.markdown, terminator: "")
    exit(0)
case .success(.run(let options)):
    // A scenario is read here (a built-in name or a JSON file), so a bad one is a flag error.
    if let name = options.scenario {
        do {
            _ = try ScenarioCatalogue.load(name)
        } catch {
            fail("--scenario: \(error)")
        }
    }
    if options.jsonl {
        exit(options.replay != nil ? runReplayHeadless(options: options) : runHeadless(options: options))
    }
    guard isatty(0) == 1, isatty(1) == 1 else {
        StandardStreams.err(
            "bird-inspect: no terminal (stdin or stdout is not a TTY); use --jsonl for headless output\n")
        exit(2)
    }
    exit(options.replay != nil ? runReplayTerminal(options: options) : runTerminalApp(options: options))
}
