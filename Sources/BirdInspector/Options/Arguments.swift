// bird-inspect's command line and BIRD_* environment (parsing is pure, so it is unit-tested here;
// the executable only prints and exits).

import BirdCommandLine
import BirdWire
import Foundation

/// Everything the command line can set.
@dynamicMemberLookup
public struct InspectorOptions: Sendable, Equatable {
    /// Which edge to reach (`--sandbox`: an embedded sandbox with demo channels), as the doctor
    /// takes it; its fields read as the options' own (`options.host`).
    public var edge = EdgeFlags()
    /// `--no-network-monitor`: the client backs off whatever the network does (for an edge
    /// reached without a default route, e.g. over a VPN's specific routes).
    public var noNetworkMonitor = false
    /// `--auth-endpoint`.
    public var authEndpoint: String?
    /// Header lines `Name: value`; values are secrets and never printed.
    public var authHeaders: [String] = []
    /// `--member-auth-endpoint`.
    public var memberAuthEndpoint: String?
    /// `--dialect`: bird or pusher.
    public var dialect = "bird"
    /// `--subscribe` (repeatable).
    public var subscribe: [String] = []
    /// `--signin`.
    public var signin = false
    /// `--user-id ID`: the member to sign in as (the `i` prompt's default; the embedded sandbox's
    /// demo endpoint signs whatever id is chosen).
    public var userId: String?
    /// `--profile NAME`: the profile the settings came from (nil: none).
    public var profile: String?
    /// `--sandbox-control`: a running bird-sandbox's control URL.
    public var sandboxControl: String?
    /// `--scenario NAME|FILE`: a bird-sandbox scenario played on the embedded sandbox.
    public var scenario: String?
    /// Demo publisher rate (events per second) for `--sandbox`.
    public var demoRate: Double = 3
    /// `--jsonl`: headless mode.
    public var jsonl = false
    /// `--duration` in seconds.
    public var duration: Double?
    /// `--log-size`: event log entries kept.
    public var logSize = 10_000
    /// `--record FILE`: write a recording of the session (docs/RECORDING.md).
    public var record: String?
    /// `--replay FILE`: play a recording instead of connecting.
    public var replay: String?
    /// `--speed X` with `--replay`: playback speed (0: no waits).
    public var speed: Double = 1
    /// `--wait-timeout S` with `--jsonl`: how long a script command waits for what it needs
    /// (a trigger for its channel, a sign-in, a `wait` without its own timeout).
    public var waitTimeout: Double = 10
    /// `--theme`: `default` (colours) or `mono` (no colour at all; bold and reverse stay). The
    /// default is `mono` when `NO_COLOR` is set to anything but the empty string (no-color.org).
    public var theme = "default"
    /// Whether the TUI takes mouse clicks and the wheel (`--no-mouse` leaves the mouse to the
    /// terminal, so text can be selected as usual).
    public var mouse = true

    /// Whether the terminal may use colours (`--theme default`).
    public var colours: Bool { theme != "mono" }

    /// Defaults.
    public init() {}

    /// The field of ``edge`` at `path` (`options.host` is `options.edge.host`).
    public subscript<Value>(dynamicMember path: WritableKeyPath<EdgeFlags, Value>) -> Value {
        get { edge[keyPath: path] }
        set { edge[keyPath: path] = newValue }
    }

    /// The edge host in effect (explicit, the embedded sandbox, or the region's host).
    public var effectiveHost: String {
        if let host = edge.host { return host }
        if edge.sandbox { return "127.0.0.1" }
        return dialect == "pusher" ? "ws-\(edge.region).pusher.com" : "ws-\(edge.region).realtime.bird.com"
    }

    /// Whether TLS is used.
    public var tls: Bool { !(edge.insecure || (edge.sandbox && edge.host == nil)) }

    /// The port in effect (0 = a free port chosen by the embedded sandbox).
    public var effectivePort: Int { edge.port ?? (edge.sandbox && edge.host == nil ? 0 : (tls ? 443 : 80)) }

    /// The inspector settings these options give.
    public func config(utcOffsetSeconds: Int = 0, edgeNote: String? = nil) -> InspectorConfig {
        var config = InspectorConfig(
            host: effectiveHost, port: effectivePort, tls: tls, dialect: dialect,
            sandboxAttached: edge.sandbox || sandboxControl != nil,
            canSignIn: edge.sandbox || memberAuthEndpoint != nil, logSize: logSize,
            utcOffsetSeconds: utcOffsetSeconds, edgeNote: edgeNote)
        // The embedded sandbox's demo endpoint signs whichever id is asked for.
        config.signinId = edge.sandbox ? memberId : nil
        return config
    }

    /// The member id the embedded sandbox signs this inspector in as (presence and sign-in).
    public var memberId: String { userId ?? MemberIdRules.fallback }
}

/// What the command line asks for.
public enum ParsedArguments: Sendable, Equatable {
    /// Run with these options.
    case run(InspectorOptions)
    /// `--help`.
    case help
    /// `--version`.
    case version
    /// `--keys-markdown`: print the key reference (docs/INSPECTOR.md embeds it).
    case keyReference
}

/// A bad flag or value of `bird-inspect`: one line for the user.
public typealias ArgumentError = CommandLineError

/// The command-line parser.
public enum Arguments {
    /// The version printed by `--version`.
    public static let version = "bird-inspect 0.1.0"

    /// Usage text for `--help` and after a bad flag.
    public static let usage = """
        usage: bird-inspect [--sandbox] [--app-key K] [--region R] [--host H] [--port P] [--insecure]
                            [--ca-file F] [--no-network-monitor] [--auth-endpoint URL]
                            [--auth-header 'Name: value']...
                            [--member-auth-endpoint URL] [--dialect bird|pusher] [--subscribe CH]...
                            [--signin] [--user-id ID] [--sandbox-control URL] [--scenario NAME|FILE]
                            [--demo-rate N] [--jsonl] [--wait-timeout S] [--record FILE]
                            [--duration S] [--log-size N] [--theme default|mono] [--no-mouse]
               bird-inspect --profile NAME [flags that override it]
               bird-inspect --replay FILE [--speed X] [--jsonl] [--duration S] [--log-size N]
                            [--theme default|mono] [--no-mouse]
               bird-inspect doctor [--sandbox | --app-key K …] [--channel NAME]… [--timeout S] [--json]
               bird-inspect report RECORDING -o FILE|- [--force]
               bird-inspect --help | --version

          doctor                    check each layer of a connection (DNS, TCP, TLS, upgrade, handshake,
                                    ping, subscribe, auth, sign-in): which one broke, and what to do;
                                    the same connection flags; see bird-inspect doctor --help
          report                    turn a recording into one self-contained HTML page: timeline of states,
                                    closes, retries, channels, auth, errors, replay command; see
                                    bird-inspect report --help

          --sandbox                 run an embedded sandbox on a free loopback port, with demo channels
          --app-key K               application key (BIRD_APP_KEY); required unless --sandbox
          --region R                region / cluster, default us1 (BIRD_REGION)
          --host H, --port P        edge host and port (BIRD_HOST, BIRD_PORT)
          --insecure                plain ws:// — loopback hosts only (BIRD_INSECURE=1)
          --ca-file F               extra CA certificate file (BIRD_CA_FILE)
          --no-network-monitor      do not watch the routing table: back off whatever the network does
                                    (an edge reached without a default route) (BIRD_NO_NETWORK_MONITOR=1)
          --auth-endpoint URL       channel auth endpoint (BIRD_AUTH_ENDPOINT)
          --auth-header 'N: v'      header for auth requests, repeatable (BIRD_AUTH_HEADERS, one per line)
          --member-auth-endpoint U  sign-in endpoint (BIRD_MEMBER_AUTH_ENDPOINT)
          --dialect bird|pusher     wire dialect, default bird (BIRD_DIALECT)
          --subscribe CH            subscribe at start, repeatable (BIRD_SUBSCRIBE, space-separated)
          --signin                  sign in at start (BIRD_SIGNIN=1)
          --user-id ID              the member to sign in as: i's default, --signin's id; the sandbox's
                                    demo endpoint signs it (BIRD_USER_ID; default inspector)
          --profile NAME            settings from $XDG_CONFIG_HOME/bird-inspect/profiles.json (else
                                    ~/.config/…): {"NAME": {"app_key": …, "host": …, "auth_endpoint": …,
                                    "auth_headers_env": {"Authorization": "ENV_VAR"}, …}}; secrets only
                                    as environment variable names; flags override it (BIRD_PROFILE)
          --sandbox-control URL     attach k (close with a code) to a running bird-sandbox (BIRD_SANDBOX_CONTROL)
          --scenario NAME|FILE      with --sandbox: play a fault scenario (edge-restart, flaky-network,
                                    over-capacity, terminated-member, stale-connection, auth-outage,
                                    outage-publish, rate-limited-client-events, or a JSON file)
                                    (BIRD_SCENARIO)
          --demo-rate N             demo events per second with --sandbox, 0–10000, default 3 (BIRD_DEMO_RATE)
          --jsonl                   headless: JSON lines on stdout, a script of commands on stdin, run
                                    in order, each when what it needs exists (BIRD_JSONL=1); exit 0 when
                                    every command succeeded, 1 when one failed (a command_error line)
          --wait-timeout S          with --jsonl: how long a command waits for what it needs and a
                                    wait's default timeout, 0.1–86400, default 10 (BIRD_WAIT_TIMEOUT)
          --duration S              exit after S seconds, 0.001–1000000000 (BIRD_DURATION)
          --log-size N              event log entries kept, 1–10000000, default 10000 (BIRD_LOG_SIZE)
          --record FILE             also write a recording of the session to FILE (docs/RECORDING.md;
                                    secrets redacted); with --jsonl stdout carries the same lines (BIRD_RECORD)
          --replay FILE             play a recording: no client, no network (BIRD_REPLAY)
          --speed X                 with --replay: playback speed, 0.001–10000, default 1; 0 plays without
                                    waiting (BIRD_SPEED)
          --theme default|mono      colours, or none at all (bold and reverse stay); default mono when
                                    NO_COLOR is set (BIRD_THEME)
          --no-mouse                leave the mouse to the terminal (select text as usual); without
                                    it a click focuses a pane and selects an entry, the wheel
                                    scrolls (BIRD_NO_MOUSE=1)
          --help, --version

        exit codes: 0 ok (with --jsonl: every command succeeded, or stdout was closed), 1 a command
        failed (--jsonl) or the session / recording could not start, 2 a bad flag or no terminal
        """

    /// Parses arguments (without the program name) over `environment`; flags win over BIRD_*.
    /// With `--profile NAME` (or `BIRD_PROFILE`), `profiles` is the profiles file the executable
    /// read: the profile's settings come first, so flags on the command line override them.
    public static func parse(
        _ args: [String], environment: [String: String] = [:], profiles: ProfilesFile? = nil
    ) -> Result<ParsedArguments, ArgumentError> {
        var o = InspectorOptions()
        var args = args
        if let name = Profiles.requested(args, environment: environment) {
            guard let file = profiles else {
                return .failure(ArgumentError("--profile \(name): no profiles file (set XDG_CONFIG_HOME or HOME)"))
            }
            switch Profiles.flags(profile: name, file: file, environment: environment) {
            case .success(let flags): args = Profiles.merge(profile: flags, commandLine: args)
            case .failure(let error): return .failure(error)
            }
            o.profile = name
        }
        do {
            try applyEnvironment(environment, &o)
            var envSubscribe = true
            var envHeaders = true
            var given: [String] = []
            var reader = ArgumentReader(args)
            while reader.next() {
                let flag = reader.flag
                func value() throws(ArgumentError) -> String { try reader.value(ArgumentError.init) }
                func noValue() throws(ArgumentError) { try reader.noValue(ArgumentError.init) }
                switch flag {
                case "--help", "-h": return .success(.help)
                case "--version": return .success(.version)
                case "--keys-markdown": return .success(.keyReference)
                case "--sandbox": try noValue(); o.sandbox = true
                case "--app-key": o.appKey = try value()
                case "--region": o.region = try value()
                case "--host": o.host = try value()
                case "--port": o.port = try EdgeFlags.port(try value(), flag)
                case "--insecure": try noValue(); o.insecure = true
                case "--ca-file": o.caFile = try value()
                case "--no-network-monitor": try noValue(); o.noNetworkMonitor = true
                case "--auth-endpoint": o.authEndpoint = try url(try value(), flag)
                case "--auth-header":
                    if envHeaders { o.authHeaders = []; envHeaders = false }
                    o.authHeaders.append(try header(try value()))
                case "--member-auth-endpoint": o.memberAuthEndpoint = try url(try value(), flag)
                case "--dialect": o.dialect = try dialect(try value())
                case "--subscribe":
                    if envSubscribe { o.subscribe = []; envSubscribe = false }
                    o.subscribe.append(try channel(try value()))
                case "--signin": try noValue(); o.signin = true
                case "--user-id": o.userId = try memberId(try value(), flag)
                case "--profile": _ = try value()  // applied above
                case "--sandbox-control": o.sandboxControl = try url(try value(), flag)
                case "--scenario": o.scenario = try value()
                case "--demo-rate": o.demoRate = try number(try value(), flag, min: 0, max: 10_000)
                case "--jsonl": try noValue(); o.jsonl = true
                case "--wait-timeout": o.waitTimeout = try number(try value(), flag, min: 0.1, max: 86_400)
                case "--duration": o.duration = try number(try value(), flag, min: 0.001, max: 1e9)
                case "--log-size": o.logSize = try integer(try value(), flag, min: 1, max: 10_000_000)
                case "--record": o.record = try path(try value(), flag)
                case "--replay": o.replay = try path(try value(), flag)
                case "--speed": o.speed = try speed(try value(), flag)
                case "--theme": o.theme = try theme(try value(), flag)
                case "--no-mouse": try noValue(); o.mouse = false
                default:
                    throw ArgumentError(reader.unknown)
                }
                given.append(flag)
            }
            try checkReplay(o, given: given)
            if o.replay != nil { return .success(.run(o)) }
            try check(o)
        } catch let error as ArgumentError {
            return .failure(error)
        } catch {
            return .failure(ArgumentError("\(error)"))
        }
        return .success(.run(o))
    }

    // MARK: - Values

    static func applyEnvironment(_ env: [String: String], _ o: inout InspectorOptions) throws {
        func flag(_ name: String) -> Bool { EdgeFlags.isOn(name, in: env) }
        try o.edge.apply(environment: env)
        o.noNetworkMonitor = flag("BIRD_NO_NETWORK_MONITOR")
        if let u = env["BIRD_AUTH_ENDPOINT"], !u.isEmpty { o.authEndpoint = try url(u, "BIRD_AUTH_ENDPOINT") }
        if let hs = env["BIRD_AUTH_HEADERS"] {
            o.authHeaders = try hs.split(separator: "\n").map { try header(String($0)) }
        }
        if let u = env["BIRD_MEMBER_AUTH_ENDPOINT"], !u.isEmpty {
            o.memberAuthEndpoint = try url(u, "BIRD_MEMBER_AUTH_ENDPOINT")
        }
        if let d = env["BIRD_DIALECT"], !d.isEmpty { o.dialect = try dialect(d) }
        if let s = env["BIRD_SUBSCRIBE"] { o.subscribe = try s.split(separator: " ").map { try channel(String($0)) } }
        o.signin = flag("BIRD_SIGNIN")
        if let u = env["BIRD_USER_ID"], !u.isEmpty { o.userId = try memberId(u, "BIRD_USER_ID") }
        if let u = env["BIRD_SANDBOX_CONTROL"], !u.isEmpty { o.sandboxControl = try url(u, "BIRD_SANDBOX_CONTROL") }
        if let n = env["BIRD_SCENARIO"], !n.isEmpty { o.scenario = n }
        if let r = env["BIRD_DEMO_RATE"], !r.isEmpty {
            o.demoRate = try number(r, "BIRD_DEMO_RATE", min: 0, max: 10_000)
        }
        o.jsonl = flag("BIRD_JSONL")
        if let d = env["BIRD_DURATION"], !d.isEmpty {
            o.duration = try number(d, "BIRD_DURATION", min: 0.001, max: 1e9)
        }
        if let n = env["BIRD_LOG_SIZE"], !n.isEmpty {
            o.logSize = try integer(n, "BIRD_LOG_SIZE", min: 1, max: 10_000_000)
        }
        if let f = env["BIRD_RECORD"], !f.isEmpty { o.record = f }
        if let f = env["BIRD_REPLAY"], !f.isEmpty { o.replay = f }
        if let x = env["BIRD_SPEED"], !x.isEmpty { o.speed = try speed(x, "BIRD_SPEED") }
        if let n = env["NO_COLOR"], !n.isEmpty { o.theme = "mono" }
        if let t = env["BIRD_THEME"], !t.isEmpty { o.theme = try theme(t, "BIRD_THEME") }
        o.mouse = !flag("BIRD_NO_MOUSE")
        if let t = env["BIRD_WAIT_TIMEOUT"], !t.isEmpty {
            o.waitTimeout = try number(t, "BIRD_WAIT_TIMEOUT", min: 0.1, max: 86_400)
        }
    }

    /// Flags that make no sense with `--replay` (it has no client and no network).
    static let liveFlags = [
        "--sandbox", "--host", "--port", "--record", "--subscribe", "--scenario", "--signin",
        "--sandbox-control", "--no-network-monitor",
    ]

    /// `--replay` and `--speed` rules. With `--replay`, the live settings that came from BIRD_*
    /// variables are ignored; the same settings given as flags are errors.
    static func checkReplay(_ o: InspectorOptions, given: [String]) throws {
        guard o.replay != nil else {
            if given.contains("--speed") { throw ArgumentError("--speed needs --replay FILE") }
            return
        }
        if let flag = liveFlags.first(where: given.contains) {
            throw ArgumentError("--replay plays a recording without a network: \(flag) cannot be used with it")
        }
    }

    static func check(_ o: InspectorOptions) throws {
        if !o.sandbox && (o.appKey ?? "").isEmpty {
            throw ArgumentError("--app-key is required (or BIRD_APP_KEY) unless --sandbox")
        }
        if o.sandbox && o.sandboxControl != nil {
            throw ArgumentError("use either --sandbox or --sandbox-control, not both")
        }
        if let scenario = o.scenario {
            // The scenario itself (a built-in name, or a file to read) is checked by bird-inspect,
            // which owns the sandbox: this core reads no files.
            guard o.sandbox else {
                throw ArgumentError(
                    "--scenario needs --sandbox (for a separate edge: bird-sandbox --scenario \(scenario))")
            }
        }
        if o.insecure && !Loopback.isLoopback(host: o.effectiveHost) {
            throw ArgumentError(
                "--insecure (plain ws://) is refused for \(o.effectiveHost): only loopback hosts (localhost, 127.x.y.z, [::1])"
            )
        }
        for endpoint in [o.authEndpoint, o.memberAuthEndpoint].compactMap({ $0 }) where endpoint.hasPrefix("http://") {
            if !o.insecure && !o.sandbox {
                throw ArgumentError("plain http:// auth endpoint \(endpoint) needs --insecure")
            }
            if !Loopback.isLoopback(host: URLComponents(string: endpoint)?.host ?? "") {
                throw ArgumentError("plain http:// auth endpoint refused for a non-loopback host: \(endpoint)")
            }
        }
        if let control = o.sandboxControl, !Loopback.isLoopback(host: URLComponents(string: control)?.host ?? "") {
            throw ArgumentError("--sandbox-control must be a loopback URL (the control API is loopback only)")
        }
    }

    static func integer(_ s: String, _ name: String, min: Int, max: Int) throws -> Int {
        guard let n = Int(s), n >= min, n <= max else {
            throw ArgumentError("\(name) must be a whole number \(min)–\(max), not “\(s)”")
        }
        return n
    }

    static func number(_ s: String, _ name: String, min: Double, max: Double) throws -> Double {
        guard let n = Double(s), n.isFinite, n >= min, n <= max else {
            throw ArgumentError("\(name) must be a number from \(plain(min)) to \(plain(max)), not “\(s)”")
        }
        return n
    }

    /// The slowest replay speed above 0 (slower ones would make waits of centuries).
    public static let minSpeed = 0.001
    /// The fastest replay speed other than 0 (no waits).
    public static let maxSpeed = 10_000.0

    static func speed(_ s: String, _ name: String) throws -> Double {
        guard let n = Double(s), n.isFinite, n == 0 || (n >= minSpeed && n <= maxSpeed) else {
            throw ArgumentError(
                "\(name) must be 0 (no waits) or a number from \(plain(minSpeed)) to \(plain(maxSpeed)), not “\(s)”")
        }
        return n
    }

    /// A bound as people write it: "10000", "0.001", "1000000000".
    static func plain(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Checked.int(x)) : String(x)
    }

    static func url(_ s: String, _ name: String) throws -> String {
        guard let c = URLComponents(string: s), let scheme = c.scheme?.lowercased(),
            scheme == "http" || scheme == "https",
            let host = c.host, !host.isEmpty
        else { throw ArgumentError("\(name) must be an http(s) URL, not “\(s)”") }
        return s
    }

    /// A member id to sign in as: what a presence id may be (the channel-name characters, up to 200).
    static func memberId(_ s: String, _ flag: String) throws -> String {
        if let problem = MemberIdRules.problem(s) { throw ArgumentError("\(flag) \(s): \(problem)") }
        return s
    }

    static func theme(_ s: String, _ flag: String) throws -> String {
        guard s == "default" || s == "mono" else { throw ArgumentError("\(flag) must be default or mono, not “\(s)”") }
        return s
    }

    static func dialect(_ s: String) throws -> String {
        guard s == "bird" || s == "pusher" else { throw ArgumentError("--dialect must be bird or pusher, not “\(s)”") }
        return s
    }

    static func channel(_ s: String) throws -> String {
        if let problem = ChannelRules.nameProblem(s) { throw ArgumentError("--subscribe \(s): \(problem)") }
        return s
    }

    static func path(_ s: String, _ name: String) throws -> String {
        guard !s.trimmingCharacters(in: .whitespaces).isEmpty else { throw ArgumentError("\(name) needs a file name") }
        if s.hasPrefix("-") && s.count > 1 { throw ArgumentError("\(name) needs a file name, not the flag “\(s)”") }
        return s
    }

    static func header(_ s: String) throws -> String {
        // Never echo the value: it is usually a token.
        guard let colon = s.firstIndex(of: ":"), !s[..<colon].trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ArgumentError("--auth-header must look like 'Name: value'")
        }
        // A CR or LF would end the header line early (and was silently not sent); other control
        // characters are no better. Tabs are allowed in the value.
        if s.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) {
            throw ArgumentError("--auth-header must be one line: it contains a CR or LF (value not shown)")
        }
        if s.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) {
            throw ArgumentError("--auth-header contains a control character (value not shown)")
        }
        let name = s[..<colon].trimmingCharacters(in: .whitespaces)
        let token = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        guard name.allSatisfy({ token.contains($0) }) else {
            throw ArgumentError("--auth-header name “\(name)” is not an HTTP header name")
        }
        return s
    }
}
