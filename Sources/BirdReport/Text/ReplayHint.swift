/// The commands that reproduce a recorded session (README "Recording and replay"): the sandbox
/// playing the recording's server side, the inspector pointed at it with the recording's
/// channels, and, for a matched scenario, the fault pattern on demand.
public enum ReplayHint {
    /// The port the hint plays the replay on.
    public static let port = 6001

    /// `bird-sandbox --replay FILE --port 6001`.
    public static func sandboxCommand(recordingPath: String) -> String {
        "bird-sandbox --replay \(shellQuoted(recordingPath)) --port \(port)"
    }

    /// The `bird-inspect` line that connects to the replay with what the recorded client used:
    /// its dialect, its channels, auth endpoints when channels needed them, sign-in when it
    /// signed in. The sandbox's own key (the replay's edge checks it for later connections).
    public static func inspectorCommand(_ s: SessionSummary) -> [String] {
        let base = "http://127.0.0.1:\(port)"
        var parts = ["bird-inspect --host 127.0.0.1 --port \(port) --insecure --app-key sandbox-key"]
        if let dialect = s.header.dialect, dialect != "bird" { parts.append("--dialect \(shellQuoted(dialect))") }
        let channels = s.channels.map(\.name).filter { !$0.hasPrefix("#") }
        if channels.contains(where: { $0.hasPrefix("private-") || $0.hasPrefix("presence-") })
            || s.auth.contains(where: { $0.kind == "channel" })
        {
            parts.append("--auth-endpoint \(base)/auth")
        }
        if s.signinCount > 0 || s.auth.contains(where: { $0.kind == "signin" })
            || s.errors.contains(where: { $0.kind == "signin_error" })
        {
            parts.append("--member-auth-endpoint \(base)/auth/member --signin")
        }
        parts += channels.map { "--subscribe \(shellQuoted($0))" }
        return parts
    }

    /// `bird-sandbox --scenario NAME` and the inspector on an embedded sandbox playing it.
    public static func scenarioCommands(_ name: String) -> [String] {
        [
            "bird-sandbox --scenario \(shellQuoted(name))",
            "bird-inspect --sandbox --scenario \(shellQuoted(name)) --record \(shellQuoted(name)).jsonl",
        ]
    }

    /// `text` as one shell word: as is when it has only safe characters, else single-quoted.
    public static func shellQuoted(_ text: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/:=@%+,-")
        if !text.isEmpty, text.allSatisfy({ safe.contains($0) }) { return text }
        return "'" + text.replacingAll("'", with: "'\\''") + "'"
    }
}

extension String {
    /// Every occurrence of `target` replaced (no Foundation).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            out += rest[..<range.lowerBound]
            out += replacement
            rest = rest[range.upperBound...]
        }
        out += rest
        return out
    }
}
