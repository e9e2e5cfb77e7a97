/// The flags that say which edge to reach — `--sandbox`, `--app-key`, `--region`, `--host`,
/// `--port`, `--insecure`, `--ca-file` — as `bird-inspect` and `bird-inspect doctor` both take
/// them, with their `BIRD_*` variables. What each tool makes of them (the host in effect, TLS)
/// is its own.
public struct EdgeFlags: Sendable, Equatable {
    /// `--sandbox`: an embedded sandbox instead of a remote edge.
    public var sandbox = false
    /// `--app-key`.
    public var appKey: String?
    /// `--region` (cluster for the pusher dialect).
    public var region = "us1"
    /// `--host`.
    public var host: String?
    /// `--port`.
    public var port: Int?
    /// `--insecure`: plain ws:// (loopback only).
    public var insecure = false
    /// `--ca-file`.
    public var caFile: String?

    /// Defaults: the `us1` region, TLS, no sandbox.
    public init() {}

    /// Takes `BIRD_SANDBOX`, `BIRD_APP_KEY`, `BIRD_REGION`, `BIRD_HOST`, `BIRD_PORT`,
    /// `BIRD_INSECURE` and `BIRD_CA_FILE` from `environment`, each where it is set and not
    /// empty; the others keep their values.
    package mutating func apply(environment env: [String: String]) throws(CommandLineError) {
        if Self.isOn("BIRD_SANDBOX", in: env) { sandbox = true }
        if let k = Self.text("BIRD_APP_KEY", in: env) { appKey = k }
        if let r = Self.text("BIRD_REGION", in: env) { region = r }
        if let h = Self.text("BIRD_HOST", in: env) { host = h }
        if let p = Self.text("BIRD_PORT", in: env) { port = try Self.port(p, "BIRD_PORT") }
        if Self.isOn("BIRD_INSECURE", in: env) { insecure = true }
        if let f = Self.text("BIRD_CA_FILE", in: env) { caFile = f }
    }

    /// `s` as a port, 1–65535; the error names `name` (the flag or the variable).
    package static func port(_ s: String, _ name: String) throws(CommandLineError) -> Int {
        guard let p = Int(s), (1...65535).contains(p) else {
            throw CommandLineError("\(name) must be a port 1–65535, not “\(s)”")
        }
        return p
    }

    /// Whether the variable `name` is `1`, `true` or `yes` (any case).
    package static func isOn(_ name: String, in env: [String: String]) -> Bool {
        ["1", "true", "yes"].contains(env[name]?.lowercased() ?? "")
    }

    /// The variable `name`, when it is set and not empty.
    package static func text(_ name: String, in env: [String: String]) -> String? {
        env[name].flatMap { $0.isEmpty ? nil : $0 }
    }
}
