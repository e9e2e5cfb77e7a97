import BirdDoctor
import BirdWire
import Testing

/// `bird-inspect doctor`'s flags and BIRD_* environment.
@Suite struct ArgumentsTests {
    private func options(
        _ args: [String], env: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation
    )
        -> DoctorOptions?
    {
        switch DoctorArguments.parse(args, environment: env) {
        case .success(.run(let o)): return o
        case .success(.help):
            Issue.record("parsed as --help", sourceLocation: sourceLocation)
            return nil
        case .failure(let error):
            Issue.record("unexpected error: \(error.message)", sourceLocation: sourceLocation)
            return nil
        }
    }

    private func error(_ args: [String], env: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation)
        -> String
    {
        if case .failure(let error) = DoctorArguments.parse(args, environment: env) { return error.message }
        Issue.record("parsed without an error: \(args)", sourceLocation: sourceLocation)
        return ""
    }

    @Test func connectionFlagsBuildTheTarget() throws {
        let o = try #require(
            options([
                "--app-key", "k1", "--region", "eu1", "--auth-endpoint", "https://app.example/pusher/auth",
                "--auth-header", "Authorization: Bearer t0k3n", "--member-auth-endpoint", "https://app.example/user",
                "--dialect", "pusher", "--timeout", "2.5", "--json", "--color", "never",
            ]))
        let target = o.target
        #expect(target.host == "ws-eu1.pusher.com")
        #expect(target.port == 443 && target.tls)
        #expect(target.appKey == "k1" && target.dialect == .pusher)
        #expect(target.region == "eu1")
        #expect(target.authHeaders == [HeaderLine(name: "Authorization", value: "Bearer t0k3n")])
        #expect(target.timeout == .milliseconds(2500))
        #expect(target.requestTarget == "/app/k1?protocol=7&client=bird-doctor&version=0.1.0")
        #expect(target.hostHeader == "ws-eu1.pusher.com")
        #expect(o.json && o.color == .never)
    }

    @Test func hostAndPortOverrideTheRegion() throws {
        let o = try #require(options(["--app-key", "k", "--host", "localhost", "--port", "6001", "--insecure"]))
        #expect(o.target.url == "ws://localhost:6001/app/k")
        #expect(o.target.region == nil)
    }

    @Test func channelsSplitIntoPublicAndPrivate() throws {
        #expect(try #require(options(["--app-key", "k"])).target.publicChannel == "doctor")
        #expect(try #require(options(["--app-key", "k"])).target.authChannel == "private-doctor")
        let a = try #require(options(["--app-key", "k", "--channel", "news"]))
        #expect(a.publicChannel == "news" && a.authChannel == "private-news")
        let b = try #require(options(["--app-key", "k", "--channel", "presence-room"]))
        #expect(b.publicChannel == "room" && b.authChannel == "presence-room")
        let c = try #require(options(["--app-key", "k", "--channel", "private-x", "--channel", "lobby"]))
        #expect(c.publicChannel == "lobby" && c.authChannel == "private-x")
    }

    @Test func environmentIsReadAndFlagsWin() throws {
        let env = ["BIRD_APP_KEY": "from-env", "BIRD_REGION": "ap1", "BIRD_AUTH_HEADERS": "X-A: 1\nX-B: 2"]
        let fromEnv = try #require(options([], env: env))
        #expect(fromEnv.appKey == "from-env" && fromEnv.region == "ap1")
        #expect(fromEnv.authHeaders.map(\.name) == ["X-A", "X-B"])
        let flags = try #require(options(["--app-key", "flag", "--auth-header", "X-C: 3"], env: env))
        #expect(flags.appKey == "flag")
        #expect(flags.authHeaders.map(\.name) == ["X-C"])
    }

    @Test func profileDefaultsAreTheSeamFlagsOverride() throws {
        var profile = DoctorOptions()
        profile.appKey = "profile-key"
        profile.host = "edge.example"
        guard case .success(.run(let o)) = DoctorArguments.parse(["--port", "8443"], defaults: profile) else {
            Issue.record("did not parse")
            return
        }
        #expect(o.appKey == "profile-key" && o.host == "edge.example" && o.port == 8443)
    }

    @Test func sandboxNeedsNoKeyAndRefusesEdgeFlags() throws {
        let o = try #require(options(["--sandbox"]))
        #expect(o.sandbox && o.appKey == nil)
        #expect(error(["--sandbox", "--host", "x.example"]).contains("--host cannot be used"))
        #expect(error(["--sandbox", "--ca-file", "ca.pem"]).contains("--ca-file"))
    }

    @Test func badInputIsOneClearLine() {
        #expect(error([]).contains("--app-key is required"))
        #expect(error(["--app-key", "k", "--insecure", "--host", "edge.example"]).contains("refused for edge.example"))
        #expect(error(["--app-key", "k", "--auth-endpoint", "http://app.example/auth"]).contains("needs --insecure"))
        #expect(
            error(["--app-key", "k", "--insecure", "--host", "localhost", "--auth-endpoint", "http://app.example/auth"])
                .contains("non-loopback"))
        #expect(error(["--app-key", "k", "--channel", "bad name"]).contains("not a valid channel name"))
        #expect(error(["--app-key", "k", "--timeout", "0"]).contains("--timeout"))
        #expect(error(["--app-key", "k", "--timeout", "nan"]).contains("--timeout"))
        #expect(error(["--app-key", "k", "--color", "sometimes"]).contains("--color"))
        #expect(error(["--app-key", "k", "--port", "70000"]).contains("--port"))
        #expect(error(["--app-key", "k", "--dialect", "ably"]).contains("--dialect"))
        #expect(error(["--app-key", "k", "--bogus"]).contains("unknown flag --bogus"))
        #expect(error(["--app-key"]).contains("needs a value"))
    }

    /// The forms the shared `ArgumentReader` reads (the doctor, the inspector and the report
    /// read flags alike): `--flag=value`, a value in the next argument, bare flags.
    @Test func flagsTakeValuesInlineOrNextAndBareFlagsRefuseOne() throws {
        let o = try #require(options(["--app-key=k", "--region", "eu1", "--timeout=2.5", "--json"]))
        #expect(o.appKey == "k" && o.region == "eu1" && o.timeoutSeconds == 2.5 && o.json)
        #expect(error(["--app-key", "k", "--json=yes"]) == "--json takes no value")
        #expect(error(["--app-key", "k", "--timeout"]) == "--timeout needs a value")
        #expect(error(["--app-key", "k", "extra"]) == "unexpected argument extra")
    }

    @Test func headerValuesAreNeverEchoed() {
        let message = error(["--app-key", "k", "--auth-header", "no-colon-s3cr3t-token"])
        #expect(message.contains("--auth-header"))
        #expect(!message.contains("s3cr3t"))
        let urlMessage = error(["--app-key", "k", "--auth-endpoint", "ftp://host/?token=s3cr3t"])
        #expect(!urlMessage.contains("s3cr3t"))
    }

    @Test func anUnusableTimeoutFallsBackInsteadOfTrapping() {
        var o = DoctorOptions()
        for bad in [Double.nan, .infinity, -1, 0] {
            o.timeoutSeconds = bad
            #expect(o.timeout == .seconds(5), "\(bad)")
        }
        o.timeoutSeconds = 1e300
        #expect(o.timeout == .seconds(86_400))
    }

    @Test func helpIsHelp() {
        #expect(DoctorArguments.parse(["--app-key", "k", "--help"]) == .success(.help))
        #expect(DoctorArguments.usage.contains("11 resolve … 19 signin"))
    }

    @Test func colorFollowsTheConventions() {
        #expect(ColorChoice.auto.enabled(isTerminal: true, environment: [:]))
        #expect(!ColorChoice.auto.enabled(isTerminal: false, environment: [:]))
        #expect(!ColorChoice.auto.enabled(isTerminal: true, environment: ["NO_COLOR": "1"]))
        #expect(ColorChoice.auto.enabled(isTerminal: true, environment: ["NO_COLOR": ""]))
        #expect(!ColorChoice.auto.enabled(isTerminal: true, environment: ["TERM": "dumb"]))
        #expect(ColorChoice.always.enabled(isTerminal: false, environment: ["NO_COLOR": "1"]))
        #expect(!ColorChoice.never.enabled(isTerminal: true, environment: [:]))
    }
}
