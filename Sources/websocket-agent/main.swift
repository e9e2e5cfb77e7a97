// websocket-agent: drives Sources/WebSocket for Autobahn|Testsuite (Scripts/conformance) and the
// receive benchmark (Scripts/bench websocket).
import Foundation

let usage = """
    usage: websocket-agent COMMAND [FLAGS]

    commands:
      autobahn-client --url ws://127.0.0.1:9001 [--agent NAME] [--case-timeout SECONDS]
          Runs every case of an Autobahn|Testsuite fuzzingserver with our client as an echo agent
          (getCaseCount, runCase?case=N&agent=NAME for each case, then updateReports).
      echo-server [--host 127.0.0.1] [--port 0]
          Our WebSocketServer echoing text and binary messages (for Autobahn's fuzzingclient).
          Prints "echo-server: listening on HOST:PORT"; runs until SIGINT or SIGTERM.
      bench-read --url ws://HOST:PORT/ --count N [--timeout SECONDS]
          Connects our client, counts N received messages and prints one JSON line:
          {"messages","bytes","elapsed_s","messages_per_s","mb_per_s"}.

    Exit status: 0 success, 1 failure, 2 bad command line.
    """

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    emitError(usage)
    exit(2)
}
let command = arguments[1]
let flags = arguments.dropFirst(2)
do throws(UsageError) {
    switch command {
    case "-h", "--help", "help":
        emit(usage)
        exit(0)
    case "autobahn-client":
        let options = try Options(flags, allowed: ["url", "agent", "case-timeout"])
        exit(
            AutobahnClient(
                baseURL: try options.url("url", default: "ws://127.0.0.1:9001"),
                agent: try options.string("agent", default: "bird-swift"),
                caseTimeout: TimeInterval(try options.int("case-timeout", default: 60, in: 1...3600))
            ).run())
    case "echo-server":
        let options = try Options(flags, allowed: ["host", "port"])
        EchoServer.run(
            host: try options.string("host", default: "127.0.0.1"),
            port: try options.int("port", default: 0, in: 0...65535))
    case "bench-read":
        let options = try Options(flags, allowed: ["url", "count", "timeout"])
        exit(
            BenchRead.run(
                url: try options.url("url"),
                count: try options.int("count", in: 1...Int(Int32.max)),
                timeout: TimeInterval(try options.int("timeout", default: 300, in: 1...86_400))))
    default:
        throw UsageError(message: "unknown command '\(command)'")
    }
} catch {
    emitError("websocket-agent: \(error.message) (try --help)")
    exit(2)
}
