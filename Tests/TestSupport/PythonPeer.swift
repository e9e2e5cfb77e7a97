import Foundation
import Testing

/// The project's Python (the venv `Scripts/bootstrap` makes, with `websockets`, the `pusher` SDK
/// and PyNaCl) and one-shot scripts run with it.
public enum PythonPeer {
    /// `BIRD_PYTHON`, else `<package root>/.venv/bin/python`; nil (with an issue recorded at the
    /// caller's location) when missing.
    public static func interpreter(sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        if let env = ProcessInfo.processInfo.environment["BIRD_PYTHON"], !env.isEmpty { return env }
        let path = PackagePaths.root.appendingPathComponent(".venv/bin/python").path
        if FileManager.default.isExecutableFile(atPath: path) { return path }
        Issue.record(
            "Python venv missing at \(path): run Scripts/bootstrap (or set BIRD_PYTHON)", sourceLocation: sourceLocation
        )
        return nil
    }

    /// Runs `script` (`python -c`) with `arguments` and `environment` added to the caller's, and
    /// returns the last line it printed: one JSON object. Nil, with an issue naming `what` recorded
    /// at the caller's location, when it cannot start, exits other than 0, prints no JSON object,
    /// reports `{"missing": …}` (a package the venv lacks), or still runs after `seconds` (killed).
    public static func run(
        _ python: String, script: String, arguments: [String] = [], environment: [String: String] = [:],
        seconds: Double = 60, what: String = "python peer", sourceLocation: SourceLocation = #_sourceLocation
    ) async -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script] + arguments
        var env = ProcessInfo.processInfo.environment
        env["PYTHONIOENCODING"] = "utf-8"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        do {
            try process.run()
        } catch {
            Issue.record("cannot run \(python): \(error)", sourceLocation: sourceLocation)
            return nil
        }
        // The deadline: a peer still running after `seconds` is killed and reported.
        let watchdog = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: watchdog)
        let (out, err): (Data, Data) = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let output = PipeDrain.readToEnd(stdout: stdout, stderr: stderr)
                process.waitUntilExit()
                continuation.resume(returning: output)
            }
        }
        watchdog.cancel()
        let line = String(decoding: out, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        let json = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        if let missing = json?["missing"] as? String {
            Issue.record(
                "the venv at \(python) lacks a package \(what) needs (\(missing)): run Scripts/bootstrap",
                sourceLocation: sourceLocation)
            return nil
        }
        guard process.terminationReason == .exit, process.terminationStatus == 0, json != nil else {
            let errText = String(decoding: err, as: UTF8.self).suffix(2000)
            let how =
                process.terminationReason == .uncaughtSignal
                ? "killed after \(seconds) s" : "exit \(process.terminationStatus)"
            Issue.record("\(what) failed (\(how)): \(errText)", sourceLocation: sourceLocation)
            return nil
        }
        return line
    }
}
