import BirdCommandLine
import BirdWire

/// The `bird-sandbox` command line: flags to a ``SandboxConfiguration``.
public enum SandboxCommandLine {
    /// What the arguments ask for.
    public enum Parsed: Sendable {
        /// Run with this configuration; `quiet` turns off the stderr connection log.
        case run(SandboxConfiguration, quiet: Bool)
        /// Print ``usage`` and exit 0.
        case help
    }

    /// What the arguments ask for, with the scenario of `--scenario` when given.
    public struct Invocation: Sendable {
        /// Run or help.
        public var parsed: Parsed
        /// The scenario to play after start (`--scenario NAME|FILE`).
        public var scenario: Scenario?
    }

    /// A bad flag or value, as one line for stderr.
    public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The message, without the program name.
        public var message: String
        /// The message.
        public var description: String { message }
    }

    /// The `--help` text.
    public static let usage = baseUsage + scenarioUsage

    private static let baseUsage = """
        bird-sandbox — a local Bird Realtime edge (WebSocket protocol 7, HTTP API, demo auth, control API)

        usage: bird-sandbox [options]

          --host ADDR             address to listen on (default 127.0.0.1; keep it on loopback)
          --port N                port, 0 for a free one (default 6001)
          --app-id ID             app id of the HTTP API paths (default sandbox)
          --app-key KEY           app key clients connect with (default sandbox-key)
          --app-secret SECRET     app secret (default sandbox-secret)
          --dialect bird|pusher   wire dialect (default bird)
          --client-events         allow client- events on private and presence channels
          --connection-count      send connection counts to channel subscribers
          --require-signin S      close connections not signed in within S seconds (4009;
                                  0 < S ≤ 86400)
          --activity-timeout S    activity_timeout announced in the handshake (default 120;
                                  whole seconds 1…86400)
          --pong-timeout S        seconds a pinged connection has to answer (default 30;
                                  0 < S ≤ 86400)
          --max-http-connections N  HTTP connections (not yet WebSocket) served at once; more
                                  wait to be accepted (default 1024; 1…65536)
          --encryption-master-key BASE64
                                  the app's encryption master key (standard base64 of 32
                                  bytes, e.g. `openssl rand -base64 32`; or the environment
                                  variable BIRD_SANDBOX_ENCRYPTION_MASTER_KEY, which keeps it
                                  off the process list): the demo auth endpoint answers
                                  private-encrypted- channels with their key and
                                  /sandbox/publish seals their data. Never printed
          --history-events N      events kept per channel for subscribers that resume
                                  (continuity, bird dialect; default 1000; 0…1000000)
          --history-seconds S     seconds an event is kept for them (default 300; 0 < S ≤ 86400)
          --tls-cert FILE         PEM certificate: serve wss:// and https:// (needs --tls-key)
          --tls-key FILE          PEM private key for --tls-cert
          --scenario NAME|FILE    play a scripted sequence of faults after start (a built-in
                                  below, or a JSON file; docs/SCENARIOS.md)
          --replay FILE           play the server side of a bird-inspect recording: the k-th
                                  connection gets the k-th recorded connection (handshake,
                                  answers, close); later ones get the normal edge. Speaks the
                                  recording's dialect unless --dialect is given; not with
                                  --scenario (docs/RECORDING.md)
          --quiet                 no connection log on stderr
          -h, --help              this text

        On start, one JSON line goes to stdout: ws, http, auth_endpoint, member_auth_endpoint,
        control, app_id, app_key, dialect (and port). SIGINT, SIGTERM and SIGHUP close every
        connection with 4200 "edge restarting" and exit 0. Docs: docs/SANDBOX.md.
        """

    private static var scenarioUsage: String {
        let width = ScenarioCatalogue.all.map(\.name.count).max() ?? 0
        let lines = ScenarioCatalogue.all.map { scenario in
            "  " + scenario.name + String(repeating: " ", count: width - scenario.name.count + 2) + scenario.description
        }
        return "\n\nBuilt-in scenarios (--scenario NAME):\n" + lines.joined(separator: "\n")
    }

    /// Parses the arguments (without the program name); `environment` supplies
    /// ``encryptionMasterKeyVariable`` when the flag is not given.
    public static func parse(_ arguments: [String], environment: [String: String] = [:]) throws(UsageError) -> Parsed {
        try parseInvocation(arguments, environment: environment).parsed
    }

    /// The environment variable that may carry the encryption master key (the flag wins).
    public static let encryptionMasterKeyVariable = "BIRD_SANDBOX_ENCRYPTION_MASTER_KEY"

    /// The longest time a flag takes: a day, in seconds.
    static let maxSeconds = 86_400

    /// Parses the arguments (without the program name), loading the `--scenario` when given;
    /// `environment` supplies ``encryptionMasterKeyVariable`` when the flag is not given.
    public static func parseInvocation(_ arguments: [String], environment: [String: String] = [:])
        throws(UsageError) -> Invocation
    {
        var configuration = SandboxConfiguration()
        var scenario: Scenario?
        var replay: ServerReplayPlan?
        var dialectGiven = false
        var quiet = false
        var reader = ArgumentReader(arguments)
        func fail(_ message: String) -> UsageError { UsageError(message: message) }
        while reader.next() {
            let flag = reader.flag
            func value() throws(UsageError) -> String { try reader.value(fail) }
            func seconds() throws(UsageError) -> Double {
                let text = try value()
                guard let number = Double(text), number > 0, number <= Double(maxSeconds) else {
                    throw fail("\(flag) needs a number of seconds > 0 and ≤ \(maxSeconds), not '\(text)'")
                }
                return number
            }
            func noValue() throws(UsageError) { try reader.noValue(fail) }
            /// A whole number in `range`; the error says "`flag` needs `what`lower…upper".
            func wholeNumber(_ range: ClosedRange<Int>, _ what: String) throws(UsageError) -> Int {
                let text = try value()
                guard let n = Int(text), range.contains(n) else {
                    throw fail("\(flag) needs \(what)\(range.lowerBound)…\(range.upperBound), not '\(text)'")
                }
                return n
            }
            switch flag {
            case "-h", "--help": return Invocation(parsed: .help, scenario: nil)
            case "--scenario":
                let text = try value()
                do {
                    scenario = try ScenarioCatalogue.load(text)
                } catch {
                    throw fail("--scenario: \(error.message)")
                }
            case "--replay":
                let path = try value()
                guard !path.isEmpty else { throw fail("--replay needs a recording file") }
                do {
                    replay = try ServerReplayPlan.load(path: path)
                } catch {
                    throw fail("--replay: \(error.message)")
                }
                if replay?.segments.isEmpty == true {
                    throw fail("--replay: \(path): nothing to replay (no connection attempt was recorded)")
                }
            case "--host":
                let host = try value()
                guard !host.isEmpty else { throw fail("--host needs an address") }
                configuration.host = host
            case "--port": configuration.port = try wholeNumber(0...65535, "")
            case "--app-id": configuration.appId = try nonEmpty(flag, value())
            case "--app-key": configuration.appKey = try nonEmpty(flag, value())
            case "--app-secret": configuration.appSecret = try nonEmpty(flag, value())
            case "--dialect":
                let text = try value()
                guard let dialect = Dialect(rawValue: text) else {
                    throw fail("--dialect must be bird or pusher, not '\(text)'")
                }
                configuration.dialect = dialect
                dialectGiven = true
            case "--client-events":
                try noValue()
                configuration.clientEvents = true
            case "--connection-count":
                try noValue()
                configuration.connectionCount = true
            case "--quiet":
                try noValue()
                quiet = true
            case "--require-signin": configuration.requireSigninSeconds = try seconds()
            case "--activity-timeout":
                configuration.activityTimeout = try wholeNumber(1...maxSeconds, "whole seconds in ")
            case "--max-http-connections":
                configuration.maxHTTPConnections = try wholeNumber(1...65536, "a whole number in ")
            case "--pong-timeout": configuration.pongTimeout = try seconds()
            case "--history-events":
                configuration.history.maxEvents = try wholeNumber(
                    0...HistoryLimits.maxEventsLimit, "a whole number in ")
            case "--history-seconds": configuration.history.maxAgeSeconds = try seconds()
            case "--encryption-master-key":
                configuration.encryptionMasterKey = try masterKey(try value(), source: flag)
            case "--tls-cert": configuration.tlsCertificateFile = try nonEmpty(flag, value())
            case "--tls-key": configuration.tlsPrivateKeyFile = try nonEmpty(flag, value())
            default:
                throw fail("unknown option '\(flag)'")
            }
        }
        if configuration.encryptionMasterKey == nil, let text = environment[encryptionMasterKeyVariable],
            !text.isEmpty
        {
            configuration.encryptionMasterKey = try masterKey(text, source: encryptionMasterKeyVariable)
        }
        if (configuration.tlsCertificateFile == nil) != (configuration.tlsPrivateKeyFile == nil) {
            throw fail("--tls-cert and --tls-key go together")
        }
        if let replay {
            guard scenario == nil else {
                throw fail("--replay and --scenario do not go together (a replay drives the connections itself)")
            }
            configuration.replay = replay
            if !dialectGiven { configuration.dialect = replay.dialect }
        }
        return Invocation(parsed: .run(configuration, quiet: quiet), scenario: scenario)
    }

    /// A master key from `text`; the error names `source` and why, never the text (it may be a key).
    private static func masterKey(_ text: String, source: String) throws(UsageError) -> EncryptionMasterKey {
        do {
            return try EncryptionMasterKey(base64: text)
        } catch {
            throw UsageError(message: "\(source): \(error) — e.g. the output of `openssl rand -base64 32`")
        }
    }

    private static func nonEmpty(_ flag: String, _ text: String) throws(UsageError) -> String {
        guard !text.isEmpty else { throw UsageError(message: "\(flag) must not be empty") }
        return text
    }
}
