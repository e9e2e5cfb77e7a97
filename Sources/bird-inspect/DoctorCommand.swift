// `bird-inspect doctor`: which layer of a connection broke, and what to do. Parses the flags
// (BirdDoctor), starts an embedded sandbox for `--sandbox`, runs the checks (BirdDoctorRunner)
// and prints the human or JSON report. Returns the process exit code (docs/DOCTOR.md).

import BirdDoctor
import BirdDoctorRunner
import BirdSandbox
import BirdCommandLine
import Foundation

func runDoctor(_ args: [String]) -> Int32 {
    let environment = ProcessInfo.processInfo.environment
    let options: DoctorOptions
    switch DoctorArguments.parse(args, environment: environment) {
    case .failure(let error):
        StandardStreams.err("bird-inspect doctor: \(error.message)\n\n\(DoctorArguments.usage)\n")
        return DoctorExit.usage
    case .success(.help):
        print(DoctorArguments.usage)
        return DoctorExit.passed
    case .success(.run(let parsed)):
        options = parsed
    }
    var sandbox: Sandbox?
    let target: DoctorTarget
    if options.sandbox {
        do {
            let embedded = try Sandbox(
                configuration: SandboxConfiguration(host: "127.0.0.1", port: 0, dialect: options.dialect))
            try embedded.start()
            sandbox = embedded
            let endpoints = embedded.endpoints
            target = options.sandboxTarget(
                host: endpoints.host, port: endpoints.port, appKey: endpoints.appKey,
                authEndpoint: endpoints.authEndpoint + "?member=doctor",
                memberAuthEndpoint: endpoints.memberAuthEndpoint + "?member=doctor",
                secret: embedded.configuration.appSecret)
        } catch {
            StandardStreams.err("bird-inspect doctor: cannot start the embedded sandbox: \(error)\n")
            return DoctorExit.couldNotRun
        }
    } else {
        target = options.target
    }
    let finished = waitFor { await DoctorRunner(target: target).run() }
    sandbox?.stop(grace: 0.5)
    guard let report = finished else {
        StandardStreams.err("bird-inspect doctor: the checks ended without a report\n")
        return DoctorExit.couldNotRun
    }
    let text: String
    if options.json {
        text = JSONReport.render(report)
    } else {
        let color = options.color.enabled(isTerminal: isatty(1) == 1, environment: environment)
        text = HumanReport.render(report, color: color)
    }
    StandardStreams.out(text)
    return report.exitCode
}

/// Runs `body` on the concurrency pool and blocks this (main, non-pool) thread until it is done.
private func waitFor(_ body: @escaping @Sendable () async -> DoctorReport) -> DoctorReport? {
    let box = ReportBox()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        box.value = await body()
        done.signal()
    }
    done.wait()
    return box.value
}

/// Hands the report from the task to the waiting thread (the semaphore orders the accesses).
private final class ReportBox: @unchecked Sendable {
    var value: DoctorReport?
}
