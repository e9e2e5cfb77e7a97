// `--profile NAME` (issue 17 item 7): profiles.json parsed and merged under the command line;
// secrets only as environment variable names.

import Foundation
import Testing

@testable import BirdInspector

@Suite("Profiles: --profile NAME")
struct ProfileTests {
    static let text = """
        {
          "prod": {
            "app_key": "prod-key",
            "cluster": "eu1",
            "auth_endpoint": "https://app.example/pusher/auth",
            "auth_headers_env": {"Authorization": "PROD_AUTH"},
            "dialect": "pusher",
            "subscribe": ["orders", "presence-ops"],
            "log_size": 500,
            "mouse": false
          },
          "local": {"sandbox": true, "user_id": "carol", "theme": "mono"}
        }
        """
    static let file = ProfilesFile(path: "/home/u/.config/bird-inspect/profiles.json", text: text)

    func parse(_ args: [String], _ env: [String: String] = ["PROD_AUTH": "Bearer t0k3n"], file: ProfilesFile = file)
        -> Result<ParsedArguments, ArgumentError>
    {
        Arguments.parse(args, environment: env, profiles: file)
    }

    func options(
        _ args: [String], _ env: [String: String] = ["PROD_AUTH": "Bearer t0k3n"],
        sourceLocation: SourceLocation = #_sourceLocation
    )
        -> InspectorOptions?
    {
        switch parse(args, env) {
        case .success(.run(let o)): return o
        case let other:
            Issue.record("\(args) gave \(other)", sourceLocation: sourceLocation)
            return nil
        }
    }

    func error(
        _ args: [String], _ env: [String: String] = ["PROD_AUTH": "Bearer t0k3n"], file: ProfilesFile = file,
        sourceLocation: SourceLocation = #_sourceLocation
    )
        -> String
    {
        guard case .failure(let e) = parse(args, env, file: file) else {
            Issue.record("\(args) was accepted", sourceLocation: sourceLocation)
            return ""
        }
        return e.message
    }

    @Test("a profile sets the flags it names; the header value comes from the variable it names")
    func applies() throws {
        let o = try #require(options(["--profile", "prod"]))
        #expect(o.appKey == "prod-key")
        #expect(o.region == "eu1")
        #expect(o.authEndpoint == "https://app.example/pusher/auth")
        #expect(o.authHeaders == ["Authorization: Bearer t0k3n"])
        #expect(o.dialect == "pusher")
        #expect(o.subscribe == ["orders", "presence-ops"])
        #expect(o.logSize == 500)
        #expect(o.mouse == false)
        #expect(o.profile == "prod")
        let local = try #require(options(["--profile=local"]))
        #expect(local.sandbox && local.userId == "carol" && local.theme == "mono")
        #expect(local.config().signinId == "carol")
        // BIRD_PROFILE names one too.
        #expect(options([], ["BIRD_PROFILE": "local"])?.sandbox == true)
    }

    @Test("flags on the command line override the profile; a repeatable flag replaces its list")
    func commandLineWins() throws {
        let o = try #require(options(["--profile", "prod", "--region", "ap1", "--subscribe", "chat", "--log-size=7"]))
        #expect(o.region == "ap1")
        #expect(o.subscribe == ["chat"])
        #expect(o.logSize == 7)
        #expect(o.appKey == "prod-key")
        // Before or after --profile: the command line still wins.
        #expect(options(["--dialect", "bird", "--profile", "prod"])?.dialect == "bird")
    }

    @Test("an unknown profile lists the known ones; a missing file says where it was looked for")
    func unknownProfile() {
        let message = error(["--profile", "staging"])
        #expect(message.contains("no such profile") && message.contains("known: local, prod"), "\(message)")
        let missing = error(["--profile", "prod"], file: ProfilesFile(path: "/x/profiles.json", text: nil))
        #expect(missing.contains("no profiles file at /x/profiles.json"), "\(missing)")
    }

    @Test("malformed JSON is an error with the file, line and column")
    func malformed() {
        let bad = ProfilesFile(path: "/p.json", text: "{\n  \"prod\": {\n    \"app_key\": \"k\",,\n  }\n}")
        let message = error(["--profile", "prod"], file: bad)
        #expect(message.hasPrefix("/p.json:3:20: malformed JSON"), "\(message)")
        let notObject = error(["--profile", "prod"], file: ProfilesFile(path: "/p.json", text: "[1]"))
        #expect(notObject.contains("must be a JSON object of profiles"), "\(notObject)")
    }

    @Test("a literal secret is refused, saying how to reference an environment variable, never showing it")
    func literalSecrets() {
        for (key, value) in [
            ("secret", "\"s3cr3t-value\""), ("auth_headers", "{\"Authorization\": \"Bearer s3cr3t-value\"}"),
            ("api_token", "\"s3cr3t-value\""),
        ] {
            let file = ProfilesFile(path: "/p.json", text: "{\"prod\": {\"app_key\": \"k\", \"\(key)\": \(value)}}")
            let message = error(["--profile", "prod"], file: file)
            #expect(message.contains("refused") && message.contains("environment variable"), "\(message)")
            #expect(message.contains("_env"), "\(message)")
            #expect(!message.contains("s3cr3t"), "\(message)")
        }
        let unset = error(["--profile", "prod"], [:])
        #expect(unset.contains("environment variable PROD_AUTH is not set"), "\(unset)")
    }

    @Test("unknown settings and wrong types are named")
    func badSettings() {
        let typo = error(["--profile", "p"], file: ProfilesFile(path: "/p.json", text: #"{"p": {"app-key": "k"}}"#))
        #expect(typo.contains("unknown setting app-key") && typo.contains("app_key"), "\(typo)")
        let type = error(["--profile", "p"], file: ProfilesFile(path: "/p.json", text: #"{"p": {"port": "x"}}"#))
        #expect(type.contains("port"), "\(type)")
        // A value a flag would refuse is refused the same way.
        let port = error(
            ["--profile", "p", "--sandbox"], file: ProfilesFile(path: "/p.json", text: #"{"p": {"port": 70000}}"#))
        #expect(port.contains("--port must be a port"), "\(port)")
    }

    @Test("the path: XDG_CONFIG_HOME, else ~/.config")
    func path() {
        #expect(
            ProfilesFile.path(environment: ["XDG_CONFIG_HOME": "/xdg", "HOME": "/h"])
                == "/xdg/bird-inspect/profiles.json")
        #expect(ProfilesFile.path(environment: ["HOME": "/h"]) == "/h/.config/bird-inspect/profiles.json")
        #expect(
            ProfilesFile.path(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"])
                == "/h/.config/bird-inspect/profiles.json")
        #expect(Arguments.usage.contains("--profile NAME"))
    }
}
