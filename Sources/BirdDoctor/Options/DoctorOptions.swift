import BirdCommandLine
import BirdWire

/// Everything `bird-inspect doctor`'s command line (and the BIRD_* environment) can set.
///
/// A later change will add named connection profiles; they will supply a `DoctorOptions` as
/// the defaults that flags override (``DoctorArguments/parse(_:environment:defaults:)``).
@dynamicMemberLookup
public struct DoctorOptions: Sendable, Equatable {
    /// The public channel tried when `--channel` names none.
    public static let defaultChannel = "doctor"
    /// The time each step may take unless `--timeout` says otherwise.
    public static let defaultTimeoutSeconds = 5.0

    /// Which edge to check (`--sandbox`: the embedded sandbox), as `bird-inspect` takes it; its
    /// fields read as the options' own (`options.host`).
    public var edge = EdgeFlags()
    /// `--auth-endpoint`.
    public var authEndpoint: String?
    /// `--auth-header` lines; values are secrets.
    public var authHeaders: [HeaderLine] = []
    /// `--member-auth-endpoint`.
    public var memberAuthEndpoint: String?
    /// `--dialect`.
    public var dialect: Dialect = .bird
    /// `--channel` (repeatable): the public and private/presence channels to try.
    public var channels: [String] = []
    /// `--timeout` in seconds, per step.
    public var timeoutSeconds = DoctorOptions.defaultTimeoutSeconds
    /// `--json`: one JSON document instead of the human report.
    public var json = false
    /// `--color`.
    public var color: ColorChoice = .auto

    /// Defaults.
    public init() {}

    /// The field of ``edge`` at `path` (`options.host` is `options.edge.host`).
    public subscript<Value>(dynamicMember path: WritableKeyPath<EdgeFlags, Value>) -> Value {
        get { edge[keyPath: path] }
        set { edge[keyPath: path] = newValue }
    }

    /// The edge host in effect: `--host`, else the region's host for the dialect.
    public var effectiveHost: String { edge.host ?? dialect.defaultHost(region: edge.region) }

    /// Whether TLS is used (everything but `--insecure`).
    public var tls: Bool { !edge.insecure }

    /// The port in effect: `--port`, else 443 (TLS) or 80.
    public var effectivePort: Int { edge.port ?? (tls ? 443 : 80) }

    /// The public channel of layer 7: the first public `--channel`, else the name of the first
    /// private/presence one without its prefix, else `doctor`.
    public var publicChannel: String {
        if let name = channels.first(where: { ChannelKind(channelName: $0) == .public }) { return name }
        if let name = channels.first(where: { ChannelKind(channelName: $0).requiresAuthorization }) {
            let base = DoctorOptions.baseName(name)
            if Limits.isValidChannelName(base) { return base }
        }
        return DoctorOptions.defaultChannel
    }

    /// The channel of layer 8: the first private/presence `--channel`, else `private-` + the
    /// public channel.
    public var authChannel: String {
        channels.first { ChannelKind(channelName: $0).requiresAuthorization } ?? "private-" + publicChannel
    }

    /// The step timeout as a duration (the default for a value that is not a usable number of
    /// seconds; at most a day).
    public var timeout: Duration {
        let seconds =
            timeoutSeconds.isFinite && timeoutSeconds > 0 ? min(timeoutSeconds, 86_400) : Self.defaultTimeoutSeconds
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// The target these options describe (not for `--sandbox`, whose endpoints exist only once
    /// it runs: see ``sandboxTarget(host:port:appKey:authEndpoint:memberAuthEndpoint:secret:)``).
    public var target: DoctorTarget {
        DoctorTarget(
            host: effectiveHost, port: effectivePort, tls: tls, appKey: edge.appKey ?? "", dialect: dialect,
            caFile: edge.caFile, timeout: timeout, publicChannel: publicChannel, authChannel: authChannel,
            authEndpoint: authEndpoint, authHeaders: authHeaders, memberAuthEndpoint: memberAuthEndpoint,
            region: edge.host == nil ? edge.region : nil)
    }

    /// The target for an embedded sandbox reached at `host:port` (plain ws://) whose demo auth
    /// endpoints and secret are given. `--app-key` and `--auth-endpoint`, when set, win (to
    /// show what a wrong key or another endpoint does).
    public func sandboxTarget(
        host: String, port: Int, appKey: String, authEndpoint: String, memberAuthEndpoint: String, secret: String
    ) -> DoctorTarget {
        DoctorTarget(
            host: host, port: port, tls: false, appKey: self.appKey ?? appKey, dialect: dialect, timeout: timeout,
            publicChannel: publicChannel, authChannel: authChannel, authEndpoint: self.authEndpoint ?? authEndpoint,
            authHeaders: authHeaders, memberAuthEndpoint: self.memberAuthEndpoint ?? memberAuthEndpoint,
            knownSecret: secret, note: "embedded sandbox")
    }

    /// `private-foo`, `presence-foo`, `private-encrypted-foo` → `foo`.
    static func baseName(_ name: String) -> String {
        for prefix in [ChannelKind.encryptedChannelPrefix, "private-", "presence-"] where name.hasPrefix(prefix) {
            return String(name.dropFirst(prefix.count))
        }
        return name
    }
}
