// JSON pretty-printing, redaction, JSONL lines, command text and the command line.

import BirdWire
import Foundation
import Testing

@testable import BirdInspector

@Suite("Event data as text (BirdWire's JSON model) and redaction")
struct PayloadTextTests {
    @Test("pretty-prints nested JSON, keeps number spelling, unwraps double encoding")
    func pretty() {
        let (lines, valid) = PayloadText.pretty(#"{"a":[1,2.50,{"b":null}],"c":"x\"y","e":{},"f":[]}"#)
        #expect(valid)
        #expect(
            lines == [
                "{", "  \"a\": [", "    1,", "    2.50,", "    {", "      \"b\": null", "    }", "  ],",
                "  \"c\": \"x\\\"y\",", "  \"e\": {},", "  \"f\": []", "}",
            ])
        let double = PayloadText.pretty(#""{\"k\":1}""#)
        #expect(double.lines == ["{", "  \"k\": 1", "}"])
    }

    @Test("invalid JSON is reported and shown raw")
    func invalid() {
        for text in ["{", "[1,]", "{\"a\" 1}", "01x", "\"unterminated", "tru", "{\"a\":1} x"] {
            #expect(!PayloadText.isJSON(text), "\(text)")
            #expect(PayloadText.pretty(text).valid == false)
        }
        #expect(PayloadText.pretty("a\nb").lines == ["a", "b"])
        #expect(PayloadText.pretty("a\r\nb").lines == ["a", "b"])
    }

    @Test("deep nesting is refused without crashing")
    func deep() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(!PayloadText.isJSON(deep))
        #expect(PayloadText.oneLine(deep).hasPrefix("[[["))
        #expect(PayloadText.isJSON(String(repeating: "[", count: 100) + String(repeating: "]", count: 100)))
    }

    @Test("unicode escapes decode in the one-line form, including surrogate pairs")
    func escapes() {
        #expect(PayloadText.oneLine(#"["\u4e2d\ud83d\udc4b"]"#) == #"["中👋"]"#)
    }

    @Test("secrets are redacted in JSON and in raw text")
    func redaction() {
        let sig = "key:" + String(repeating: "ab", count: 32)
        let compact = PayloadText.oneLine(#"{"auth":"\#(sig)","token":"t0k3n","x":"\#(sig)","ok":1}"#)
        #expect(!compact.contains("abab"))
        #expect(!compact.contains("t0k3n"))
        #expect(compact.contains(#""ok":1"#))
        let raw = Redaction.scrub(#"broken {"auth": "\#(sig)", "password":"hunter2" and \#(sig)"#)
        #expect(!raw.contains("abab"))
        #expect(!raw.contains("hunter2"))
        #expect(raw.contains("broken"))
    }
}

@Suite("JSON lines (docs/PROTOCOL.md § Headless output)")
struct JSONLinesTests {
    func decode(_ line: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(object as? [String: Any])
    }

    @Test("each line decodes with ts and type and the documented fields")
    func lines() throws {
        let state = try decode(
            JSONLines.line(
                .stateChanged(
                    StateChangeRecord(
                        previous: .connecting, current: .connected, cause: .handshake,
                        connectionId: "1.2")), at: t0.addingTimeInterval(0.123)))
        #expect(state["ts"] as? String == "2023-11-14T22:13:20.123Z")
        #expect(state["type"] as? String == "state")
        #expect(state["current"] as? String == "connected")
        #expect(state["connection_id"] as? String == "1.2")

        let retry = try decode(
            JSONLines.line(
                .retryScheduled(RetryRecord(delay: .milliseconds(1500), attempt: 3, cause: .dropped)), at: t0))
        #expect(retry["in_ms"] as? Int == 1500)
        #expect(retry["attempt"] as? Int == 3)

        let event = try decode(
            JSONLines.line(
                .event(ChannelEventRecord(channel: "c", event: "e", data: #"{"n":1}"#, memberId: "m")), at: t0))
        #expect((event["data"] as? [String: Any])?["n"] as? Int == 1)
        #expect(event["member_id"] as? String == "m")

        let raw = try decode(
            JSONLines.line(.event(ChannelEventRecord(channel: "c", event: "e", data: "not json")), at: t0))
        #expect(raw["data"] as? String == "not json")

        let members = try decode(
            JSONLines.line(
                .membersSnapshot(
                    channel: "presence-x", members: [PresenceMember(id: "a", info: #"{"k":2}"#)],
                    myId: "a"), at: t0))
        #expect(((members["members"] as? [String: Any])?["a"] as? [String: Any])?["k"] as? Int == 2)

        let subError = try decode(
            JSONLines.line(
                .subscriptionError(
                    channel: "private-x",
                    SubscriptionFailure(
                        type: "AuthError", status: 403,
                        message: "no")), at: t0))
        #expect(subError["type"] as? String == "subscription_error")
        #expect(subError["error_type"] as? String == "AuthError")
        #expect(subError["status"] as? Int == 403)
    }
}

@Suite("Command text")
struct CommandTextTests {
    @Test("parses the headless commands")
    func parse() throws {
        #expect(try CommandText.parse("subscribe presence-a").get() == .subscribe("presence-a"))
        #expect(
            try CommandText.parse("  trigger private-a client-x {\"a\": [1, 2]}").get()
                == .trigger(channel: "private-a", event: "client-x", data: #"{"a": [1, 2]}"#))
        #expect(
            try CommandText.parse("trigger private-a client-x").get()
                == .trigger(channel: "private-a", event: "client-x", data: nil))
        #expect(try CommandText.parse("quit").get() == .quit)
    }

    @Test(
        "refuses with a reason",
        arguments: [
            ("", "empty"), ("subscribe", "usage"), ("subscribe a b", "usage"), ("trigger private-a x {}", "client-"),
            ("trigger private-a client-x {no", "invalid JSON"), ("drop now", "no arguments"),
            ("launch", "unknown command"),
            ("subscribe a/b", "may not contain"),
        ])
    func refuse(line: String, reason: String) {
        guard case .failure(let error) = CommandText.parse(line) else {
            Issue.record("\(line) accepted")
            return
        }
        #expect(error.message.contains(reason), "\(line): \(error.message)")
    }
}

/// Parsing helpers shared by the argument suites.
protocol ArgumentParsing {}

extension ArgumentParsing {
    /// The options of a successful `run` parse (throws otherwise).
    func options(_ args: [String], env: [String: String] = [:]) throws -> InspectorOptions {
        guard case .run(let o) = try Arguments.parse(args, environment: env).get() else {
            throw ArgumentError("not a run")
        }
        return o
    }

    /// The error message of a failed parse, or nil when it succeeded.
    func error(_ args: [String], env: [String: String] = [:]) -> String? {
        if case .failure(let e) = Arguments.parse(args, environment: env) { return e.message }
        return nil
    }
}

@Suite("Command-line arguments")
struct ArgumentsTests: ArgumentParsing {

    @Test("every flag of the issue parses")
    func flags() throws {
        let o = try options([
            "--app-key", "k", "--region", "eu", "--host", "localhost", "--port", "6001", "--insecure",
            "--ca-file", "/tmp/ca.pem", "--auth-endpoint", "http://localhost:1/auth",
            "--auth-header", "Authorization: Bearer x", "--auth-header", "X-A: b",
            "--member-auth-endpoint", "http://localhost:1/member", "--dialect", "pusher",
            "--subscribe", "a", "--subscribe=presence-b", "--signin", "--sandbox-control", "http://127.0.0.1:9/",
            "--demo-rate", "10", "--jsonl", "--duration", "2.5", "--log-size", "500",
        ])
        #expect(o.appKey == "k" && o.region == "eu" && o.host == "localhost" && o.port == 6001 && o.insecure)
        #expect(o.authHeaders.count == 2 && o.subscribe == ["a", "presence-b"] && o.signin && o.jsonl)
        #expect(o.dialect == "pusher" && o.demoRate == 10 && o.duration == 2.5 && o.logSize == 500)
        #expect(o.config().sandboxAttached && o.config().canSignIn && !o.config().tls)
        #expect(try Arguments.parse(["--help"]).get() == .help)
        #expect(try Arguments.parse(["--version"]).get() == .version)
        #expect(try options(["--sandbox"]).sandbox)
    }

    @Test("BIRD_* environment works and flags win")
    func environment() throws {
        let env = [
            "BIRD_APP_KEY": "envkey", "BIRD_SUBSCRIBE": "a presence-b", "BIRD_LOG_SIZE": "42", "BIRD_SANDBOX": "1",
        ]
        let o = try options([], env: env)
        #expect(o.appKey == "envkey" && o.subscribe == ["a", "presence-b"] && o.logSize == 42 && o.sandbox)
        #expect(try options(["--subscribe", "c"], env: env).subscribe == ["c"])
    }

    @Test(
        "bad flags give one clear line",
        arguments: [
            (["--bogus"], "unknown flag --bogus"), (["--sandbox", "--port"], "needs a value"),
            (["--sandbox", "--port", "99999"], "port"),
            (["--sandbox", "--dialect", "x"], "bird or pusher"), (["--sandbox", "--log-size", "0"], "--log-size"),
            ([], "--app-key is required"), (["--app-key", "k", "--insecure"], "refused"),
            (["--app-key", "k", "--host", "example.com", "--insecure"], "refused for example.com"),
            (["--sandbox", "--auth-header", "novalue"], "Name: value"),
            (["--sandbox", "extra"], "unexpected argument"),
            (["--sandbox", "--sandbox-control", "http://127.0.0.1:1"], "either"),
        ])
    func bad(args: [String], message: String) {
        let e = error(args)
        #expect(e?.contains(message) == true, "\(args): \(e ?? "accepted")")
        #expect(e?.contains("\n") != true)
    }

    @Test("auth header values never appear in errors")
    func secretHeader() {
        let e = error(["--app-key", "k", "--auth-header", "Authorization: Bearer SECRET", "--bogus"])
        #expect(e?.contains("SECRET") == false)
    }
}
