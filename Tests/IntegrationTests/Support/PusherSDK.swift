import BirdSandbox
import BirdWire
import Foundation
import Testing

/// The official `pusher` Python server SDK (the project's venv: `BIRD_PYTHON`, default
/// `<root>/.venv/bin/python`; Scripts/bootstrap installs it), run as a subprocess: one call per
/// run, its answer as one JSON line. A peer we did not write, for end-to-end encryption.
enum PusherSDK {
    /// One mode per call; the arguments come as JSON in `BIRD_SDK_ARGS` (with the master key).
    /// `trigger`: `client.trigger(channels, event, data)`; `batch`: `client.trigger_batch(batch)`;
    /// `trigger_refused`: the `ValueError` text of a trigger the SDK refuses;
    /// `authenticate`: `client.authenticate(channel, socket_id)` with `shared_secret` decoded.
    static let script = #"""
        import json, os, sys
        try:
            import pusher
        except ImportError as e:
            print(json.dumps({"missing": str(e)}))
            sys.exit(3)
        args = json.loads(os.environ["BIRD_SDK_ARGS"])
        client = pusher.Pusher(app_id=args["app_id"], key=args["key"], secret=args["secret"],
                               host="127.0.0.1", port=int(args.get("port", 80)), ssl=False, timeout=10,
                               encryption_master_key_base64=args["master"])
        mode = args["mode"]
        if mode == "trigger":
            print(json.dumps({"result": client.trigger(args["channels"], args["event"], args["data"])}))
        elif mode == "batch":
            print(json.dumps({"result": client.trigger_batch(args["batch"])}))
        elif mode == "trigger_refused":
            try:
                client.trigger(args["channels"], args["event"], args["data"])
                print(json.dumps({"refused": None}))
            except ValueError as e:
                print(json.dumps({"refused": str(e)}))
        elif mode == "authenticate":
            auth = client.authenticate(channel=args["channel"], socket_id=args["socket_id"])
            print(json.dumps({k: (v.decode() if isinstance(v, bytes) else v) for k, v in auth.items()}))
        """#

    /// `BIRD_PYTHON`, else `<package root>/.venv/bin/python`; nil (with a recorded issue) when missing.
    static func interpreter(sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        if let env = ProcessInfo.processInfo.environment["BIRD_PYTHON"], !env.isEmpty { return env }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent(".venv/bin/python").path
        if FileManager.default.isExecutableFile(atPath: path) { return path }
        Issue.record(
            "Python venv missing at \(path): run Scripts/bootstrap (or set BIRD_PYTHON)", sourceLocation: sourceLocation
        )
        return nil
    }

    /// Runs one SDK call for `sandbox`'s app with `master` as the encryption master key; the JSON
    /// object it printed, or nil with a recorded issue (failed, no JSON, missing package, or still
    /// running after `seconds`).
    static func call(
        _ mode: String, sandbox: SandboxEndpoints, secret: String = "sandbox-secret", masterBase64: String,
        _ arguments: JSONObject, seconds: Double = 60, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> JSONValue? {
        guard let python = interpreter(sourceLocation: sourceLocation) else { return nil }
        var all = arguments
        all["mode"] = .string(mode)
        all["app_id"] = .string(sandbox.appId)
        all["key"] = .string(sandbox.appKey)
        all["secret"] = .string(secret)
        all["port"] = .number(JSONNumber(sandbox.port))
        all["master"] = .string(masterBase64)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script]
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONIOENCODING"] = "utf-8"
        environment["BIRD_SDK_ARGS"] = JSONValue.object(all).description
        process.environment = environment
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
        let watchdog = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: watchdog)
        let (out, err): (Data, Data) = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let errData = Box(Data())
                let group = DispatchGroup()
                group.enter()
                DispatchQueue.global().async {
                    let data = stderr.fileHandleForReading.readDataToEndOfFile()
                    errData.withLock { $0 = data }
                    group.leave()
                }
                let outData = stdout.fileHandleForReading.readDataToEndOfFile()
                group.wait()
                process.waitUntilExit()
                continuation.resume(returning: (outData, errData.snapshot))
            }
        }
        watchdog.cancel()
        let line = String(decoding: out, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        let json = try? JSONValue(parsing: line)
        if let missing = json?["missing"]?.stringValue {
            Issue.record(
                "the venv at \(python) lacks the pusher SDK (\(missing)): run Scripts/bootstrap",
                sourceLocation: sourceLocation)
            return nil
        }
        guard process.terminationReason == .exit, process.terminationStatus == 0, let json else {
            let errText = String(decoding: err, as: UTF8.self).suffix(2000)
            Issue.record(
                "pusher SDK call \(mode) failed (exit \(process.terminationStatus)): \(errText)",
                sourceLocation: sourceLocation)
            return nil
        }
        return json
    }
}
