// bird-sandbox: runs the local edge. Flags: `bird-sandbox --help`; docs: docs/SANDBOX.md.
import BirdSandbox
import BirdWire
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writes to stderr; a closed stderr must not stop the edge.
func writeStderr(_ text: String) {
    try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
}

// A peer or a reader that goes away must never kill the process.
signal(SIGPIPE, SIG_IGN)

let invocation: SandboxCommandLine.Invocation
do {
    invocation = try SandboxCommandLine.parseInvocation(
        Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
} catch {
    writeStderr("bird-sandbox: \(error.message) (try --help)\n")
    exit(2)
}

guard case .run(var configuration, let quiet) = invocation.parsed else {
    print(SandboxCommandLine.usage)
    exit(0)
}

/// Writes `[time] line` to stderr (the connection log, the scenario and replay steps), one line
/// each: control characters from clients, scenario files or recordings are escaped.
@Sendable func writeStamped(_ line: String) {
    let stamp = Date().formatted(.iso8601.time(includingFractionalSeconds: true))
    writeStderr("[\(stamp)] \(LogText.sanitize(line))\n")
}

if !quiet {
    configuration.log = writeStamped
}
// The replay logs each step on stderr, even with --quiet (like a scenario).
if configuration.replay != nil {
    configuration.replayLog = writeStamped
}

let sandbox: Sandbox
do {
    sandbox = try Sandbox(configuration: configuration)
    try sandbox.start()
} catch {
    writeStderr("bird-sandbox: \(error)\n")
    exit(1)
}

let endpoints = sandbox.endpoints
try? FileHandle.standardOutput.write(contentsOf: Data((endpoints.jsonLine + "\n").utf8))

writeStderr(
    """
    bird-sandbox: \(configuration.dialect) dialect edge on \(endpoints.httpBase)
      WebSocket   \(endpoints.webSocketURL)
      auth        POST \(endpoints.authEndpoint)   sign-in  POST \(endpoints.memberAuthEndpoint)
      control     \(endpoints.controlBase)/connections (loopback only)
      app         id \(configuration.appId)  key \(configuration.appKey)  client events \(configuration.clientEvents ? "on" : "off")  connection count \(configuration.connectionCount ? "on" : "off")
      encryption  private-encrypted- channels \(configuration.encryptionMasterKey == nil ? "need a master key (--encryption-master-key)" : "on: the demo auth endpoint hands out channel keys (the master key is never printed)")
      demo auth signs anything for local callers: never expose this edge to a network.

    """)

// The scenario runs on its own queue and logs each step to stderr (even with --quiet).
var scenarioRunner: ScenarioRunner?
if let scenario = invocation.scenario {
    let runner = ScenarioRunner(scenario: scenario, control: sandbox, log: writeStamped)
    runner.start()
    scenarioRunner = runner
}

if let plan = configuration.replay {
    for warning in plan.warnings { writeStamped("replay: note: \(warning)") }
    writeStamped("replay: \(plan.summary); waiting for connection 1")
}

// SIGHUP (the terminal went away, or a supervisor's "reload") ends the edge the same way.
var signalSources: [any DispatchSourceSignal] = []
for sig in [SIGINT, SIGTERM, SIGHUP] {
    signal(sig, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: sig, queue: .main)
    source.setEventHandler {
        writeStderr("bird-sandbox: stopping (closing every connection with 4200)\n")
        scenarioRunner?.stop()
        sandbox.stop(code: CloseCode.edgeRestarting, reason: "edge restarting")
        exit(0)
    }
    source.resume()
    signalSources.append(source)
}

dispatchMain()
