import BirdSandbox
import BirdWire
import Foundation
import Testing
import TestSupport

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

    /// Runs one SDK call for `sandbox`'s app with `master` as the encryption master key; the JSON
    /// object it printed, or nil with a recorded issue (failed, no JSON, missing package, or still
    /// running after `seconds`).
    static func call(
        _ mode: String, sandbox: SandboxEndpoints, secret: String = "sandbox-secret", masterBase64: String,
        _ arguments: JSONObject, seconds: Double = 60, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> JSONValue? {
        guard let python = PythonPeer.interpreter(sourceLocation: sourceLocation) else { return nil }
        var all = arguments
        all["mode"] = .string(mode)
        all["app_id"] = .string(sandbox.appId)
        all["key"] = .string(sandbox.appKey)
        all["secret"] = .string(secret)
        all["port"] = .number(JSONNumber(sandbox.port))
        all["master"] = .string(masterBase64)
        guard
            let line = await PythonPeer.run(
                python, script: script, environment: ["BIRD_SDK_ARGS": JSONValue.object(all).description],
                seconds: seconds, what: "pusher SDK call \(mode)", sourceLocation: sourceLocation)
        else { return nil }
        do {
            return try JSONValue(parsing: line)
        } catch {
            Issue.record(
                "pusher SDK call \(mode) printed JSON we cannot read: \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }
}
