import BirdCommandLine
import BirdWire
import Foundation

/// What `bird-inspect doctor …` asks for.
public enum DoctorCommand: Sendable, Equatable {
    /// Run the checks.
    case run(DoctorOptions)
    /// `--help`.
    case help
}

/// A bad flag or value of `bird-inspect doctor`: one line for the user (values of secret flags
/// are never echoed).
public typealias DoctorArgumentError = CommandLineError

/// The parser of `bird-inspect doctor`'s flags (pure).
public enum DoctorArguments {
    /// The help text of `bird-inspect doctor --help`.
    public static let usage = """
        usage: bird-inspect doctor [--sandbox] [--app-key K] [--region R] [--host H] [--port P] [--insecure]
                                   [--ca-file F] [--auth-endpoint URL] [--auth-header 'Name: value']...
                                   [--member-auth-endpoint URL] [--dialect bird|pusher] [--channel NAME]...
                                   [--timeout S] [--json] [--color auto|always|never]

        Checks each layer of a connection in order and says which one broke and what to do:
          1 resolve  2 connect  3 tls  4 upgrade  5 handshake  6 ping  7 subscribe  8 auth  9 signin

          --sandbox                 check an embedded sandbox (loopback, demo auth endpoints, secret known)
          --app-key K               application key (BIRD_APP_KEY); required unless --sandbox
          --region R                region / cluster, default us1 (BIRD_REGION)
          --host H, --port P        edge host and port (BIRD_HOST, BIRD_PORT)
          --insecure                plain ws:// — loopback hosts only (BIRD_INSECURE=1)
          --ca-file F               extra CA certificate file, PEM (BIRD_CA_FILE)
          --auth-endpoint URL       channel auth endpoint: layer 8 (BIRD_AUTH_ENDPOINT)
          --auth-header 'N: v'      header for auth requests, repeatable (BIRD_AUTH_HEADERS, one per line)
          --member-auth-endpoint U  sign-in endpoint: layer 9 (BIRD_MEMBER_AUTH_ENDPOINT)
          --dialect bird|pusher     wire dialect, default bird (BIRD_DIALECT)
          --channel NAME            channel to try, repeatable: a public one (layer 7) and a private- or
                                    presence- one (layer 8); default doctor and private-doctor
          --timeout S               seconds each step may take, default 5
          --json                    one JSON document on stdout (for tickets and scripts)
          --color WHEN              auto (a terminal, NO_COLOR unset), always or never; default auto

        Exit status: 0 every layer passed · 1 the doctor could not run · 2 bad flags ·
                     10 + the first failing layer (11 resolve … 19 signin). See docs/DOCTOR.md.
        """

    /// Parses the arguments after `doctor` over `environment` (BIRD_*), starting from
    /// `defaults` (where connection profiles will plug in); flags win over the environment,
    /// which wins over the defaults.
    public static func parse(
        _ args: [String], environment: [String: String] = [:], defaults: DoctorOptions = DoctorOptions()
    ) -> Result<DoctorCommand, DoctorArgumentError> {
        var o = defaults
        do throws(DoctorArgumentError) {
            try applyEnvironment(environment, &o)
            var envHeaders = true
            var given: Set<String> = []
            var reader = ArgumentReader(args)
            while reader.next() {
                let flag = reader.flag
                func value() throws(DoctorArgumentError) -> String { try reader.value(DoctorArgumentError.init) }
                func noValue() throws(DoctorArgumentError) { try reader.noValue(DoctorArgumentError.init) }
                switch flag {
                case "--help", "-h": return .success(.help)
                case "--sandbox": try noValue(); o.sandbox = true
                case "--app-key": o.appKey = try nonEmpty(try value(), flag)
                case "--region": o.region = try nonEmpty(try value(), flag)
                case "--host": o.host = try nonEmpty(try value(), flag)
                case "--port": o.port = try EdgeFlags.port(try value(), flag)
                case "--insecure": try noValue(); o.insecure = true
                case "--ca-file": o.caFile = try nonEmpty(try value(), flag)
                case "--auth-endpoint": o.authEndpoint = try url(try value(), flag)
                case "--auth-header":
                    if envHeaders {
                        o.authHeaders = []
                        envHeaders = false
                    }
                    o.authHeaders.append(try header(try value()))
                case "--member-auth-endpoint": o.memberAuthEndpoint = try url(try value(), flag)
                case "--dialect": o.dialect = try dialect(try value())
                case "--channel":
                    if !given.contains(flag) { o.channels = [] }
                    o.channels.append(try channel(try value()))
                case "--timeout": o.timeoutSeconds = try seconds(try value(), flag)
                case "--json": try noValue(); o.json = true
                case "--color", "--colour":
                    let text = try value()
                    guard let choice = ColorChoice(rawValue: text) else {
                        throw DoctorArgumentError("--color must be auto, always or never, not “\(text)”")
                    }
                    o.color = choice
                default:
                    throw DoctorArgumentError(reader.unknown)
                }
                given.insert(flag)
            }
            try check(o, given: given)
        } catch {
            return .failure(error)
        }
        return .success(.run(o))
    }

    // MARK: - Rules

    /// Flags that describe a remote edge, which `--sandbox` replaces.
    static let edgeFlags = ["--host", "--port", "--insecure", "--ca-file", "--region"]

    static func check(_ o: DoctorOptions, given: Set<String>) throws(DoctorArgumentError) {
        if o.sandbox {
            if let flag = edgeFlags.first(where: given.contains) {
                throw DoctorArgumentError("--sandbox checks the embedded sandbox: \(flag) cannot be used with it")
            }
        } else if (o.appKey ?? "").isEmpty {
            throw DoctorArgumentError("--app-key is required (or BIRD_APP_KEY) unless --sandbox")
        }
        if !o.sandbox && o.insecure && !Loopback.isLoopback(host: o.effectiveHost) {
            throw DoctorArgumentError(
                "--insecure (plain ws://) is refused for \(o.effectiveHost): only loopback hosts (localhost, 127.x.y.z, [::1])"
            )
        }
        for endpoint in [o.authEndpoint, o.memberAuthEndpoint].compactMap({ $0 })
        where endpoint.lowercased().hasPrefix("http://") {
            if !o.insecure && !o.sandbox {
                throw DoctorArgumentError("plain http:// auth endpoint \(endpoint) needs --insecure")
            }
            if !Loopback.isLoopback(host: URLComponents(string: endpoint)?.host ?? "") {
                throw DoctorArgumentError("plain http:// auth endpoint refused for a non-loopback host: \(endpoint)")
            }
        }
        for name in [o.publicChannel, o.authChannel] where !Limits.isValidChannelName(name) {
            throw DoctorArgumentError("--channel: the derived channel \(name) is not a valid name; give both channels")
        }
    }

    static func applyEnvironment(_ env: [String: String], _ o: inout DoctorOptions) throws(DoctorArgumentError) {
        func text(_ name: String) -> String? { EdgeFlags.text(name, in: env) }
        try o.edge.apply(environment: env)
        if let u = text("BIRD_AUTH_ENDPOINT") { o.authEndpoint = try url(u, "BIRD_AUTH_ENDPOINT") }
        if let lines = text("BIRD_AUTH_HEADERS") {
            var headers: [HeaderLine] = []
            for line in lines.split(separator: "\n") { headers.append(try header(String(line))) }
            o.authHeaders = headers
        }
        if let u = text("BIRD_MEMBER_AUTH_ENDPOINT") { o.memberAuthEndpoint = try url(u, "BIRD_MEMBER_AUTH_ENDPOINT") }
        if let d = text("BIRD_DIALECT") { o.dialect = try dialect(d) }
    }

    // MARK: - Values

    static func nonEmpty(_ s: String, _ name: String) throws(DoctorArgumentError) -> String {
        guard !s.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw DoctorArgumentError("\(name) needs a value")
        }
        if s.hasPrefix("--") { throw DoctorArgumentError("\(name) needs a value, not the flag “\(s)”") }
        return s
    }

    static func seconds(_ s: String, _ name: String) throws(DoctorArgumentError) -> Double {
        guard let n = Double(s), n.isFinite, n >= 0.05, n <= 600 else {
            throw DoctorArgumentError("\(name) must be a number of seconds 0.05–600, not “\(s)”")
        }
        return n
    }

    static func url(_ s: String, _ name: String) throws(DoctorArgumentError) -> String {
        guard let c = URLComponents(string: s), let scheme = c.scheme?.lowercased(),
            scheme == "http" || scheme == "https",
            let host = c.host, !host.isEmpty
        else { throw DoctorArgumentError("\(name) must be an http(s) URL") }
        return s
    }

    static func dialect(_ s: String) throws(DoctorArgumentError) -> Dialect {
        guard let d = Dialect(rawValue: s) else {
            throw DoctorArgumentError("--dialect must be bird or pusher, not “\(s)”")
        }
        return d
    }

    static func channel(_ s: String) throws(DoctorArgumentError) -> String {
        guard Limits.isValidChannelName(s) else {
            throw DoctorArgumentError(
                "--channel \(s): not a valid channel name (1–200 characters of A-Z a-z 0-9 _ - = @ , . ;)")
        }
        return s
    }

    static func header(_ s: String) throws(DoctorArgumentError) -> HeaderLine {
        // Never echo the value: it is usually a token.
        guard let line = HeaderLine(parsing: s) else {
            throw DoctorArgumentError("--auth-header must look like 'Name: value'")
        }
        return line
    }
}
