import Testing

@testable import BirdWire

/// The package's one redaction policy (`Redaction+Policy.swift`): the rules the library, the
/// inspector, recordings, the sandbox's log, the doctor and the report all apply.
@Suite("Redaction policy")
struct RedactionPolicyTests {
    static let hex = String(repeating: "0f", count: 32)

    @Test("one placeholder everywhere")
    func placeholder() {
        #expect(Redaction.placeholder == "<redacted>")
    }

    @Test("free text: signature shapes, bearer tokens, URL queries and user info (the report's rules)")
    func freeText() {
        let signature = Self.hex
        #expect(Redaction.scrub("bad sig app:\(signature)!") == "bad sig app:<redacted>!")
        #expect(Redaction.scrub("header Bearer abc.def rejected") == "header Bearer <redacted> rejected")
        #expect(Redaction.scrub("BEARER xyz") == "BEARER <redacted>")
        #expect(Redaction.scrub("see https://h/p?token=x&y=2 now") == "see https://h/p now")
        #expect(Redaction.scrub("no secrets? fine") == "no secrets? fine")
        #expect(Redaction.scrub("(http://u:pw@h/a?x=1)") == "(http://u:<redacted>@h/a)")
        #expect(Redaction.scrub("a:\(signature)0 is 65 digits") == "a:\(signature)0 is 65 digits")
        #expect(Redaction.endpoint("https://u:p@h.example:8443/auth?x=1#f") == "https://h.example:8443/auth")
    }

    @Test("free text: secret JSON members, plain, spaced, double-encoded and in broken JSON; the auth key kept")
    func members() {
        let sig = "key:" + String(repeating: "ab", count: 32)
        let raw = Redaction.scrub(#"broken {"auth": "\#(sig)", "password":"hunter2" and \#(sig)"#)
        #expect(!raw.contains("abab") && !raw.contains("hunter2") && raw.contains("broken"))
        #expect(raw.contains(#""auth": "key:<redacted>""#) && raw.contains(#""password":"<redacted>""#))
        #expect(
            Redaction.scrub(#"{"shared_secret" : "c2VjcmV0a2V5","x":1}"#) == #"{"shared_secret" : "<redacted>","x":1}"#)
        #expect(
            Redaction.scrub(#"{"data":"{\"shared_secret\":\"k3y\\/+=\",\"n\":1}"}"#)
                == #"{"data":"{\"shared_secret\":\"<redacted>\",\"n\":1}"}"#)
        #expect(
            Redaction.scrub(#"{"refresh_token":"r","Token":"t","tokens":"kept"}"#)
                == #"{"refresh_token":"<redacted>","Token":"<redacted>","tokens":"kept"}"#)
        #expect(
            Redaction.scrub(#"{"channel_data":"{\"user_id\":\"a\"}"}"#) == #"{"channel_data":"{\"user_id\":\"a\"}"}"#)
        #expect(Redaction.scrub(#"{"token":"a\"b"}"#) == #"{"token":"<redacted>"}"#)
    }

    @Test("the library's wire rule stays the entry point for protocol text, and scrub applies it")
    func wire() {
        let text = #"{"event":"bird:subscribe","data":{"channel":"private-a","auth":"key:\#(Self.hex)"}}"#
        #expect(Redaction.scrub(text, urls: .keep) == Redaction.redactWireText(text))
        #expect(
            Redaction.scrub("/apps/1/events?auth_signature=\(Self.hex)&x=1").contains("auth_signature=<redacted>&x=1"))
    }

    @Test("URLs: dropped in messages, kept in data, per parameter for the doctor")
    func urls() {
        let text = "GET https://h/auth?member=alice&token=t0k3n&sig=abc failed"
        #expect(Redaction.scrub(text) == "GET https://h/auth failed")
        #expect(Redaction.scrub(text, urls: .keep) == text)
        #expect(
            Redaction.scrub(text, urls: .redactSecretQueryValues)
                == "GET https://h/auth?member=alice&token=<redacted>&sig=<redacted> failed")
        #expect(
            Redaction.diagnosticEndpoint("https://u:pw@h/auth?member=a&token=t#frag")
                == "https://u:<redacted>@h/auth?member=a&token=<redacted>")
        #expect(Redaction.endpointSecrets("https://u:pw@h/auth?member=a&api_key=a%2Fb") == ["pw", "a%2Fb", "a/b"])
        // The bug the report helper found: a subscription_error's endpoint kept its query.
        #expect(
            Redaction.endpoint("http://127.0.0.1:4000/auth?member=inspector&token=x") == "http://127.0.0.1:4000/auth")
    }

    @Test("headers and literal secrets")
    func headers() {
        #expect(Redaction.redactHeader(name: "Authorization", value: "Bearer tok123") == "Bearer <redacted>")
        #expect(Redaction.redactHeader(name: "X-Api-Key", value: "k") == "<redacted>")
        #expect(Redaction.redactHeader(name: "accept", value: "json") == "json")
        #expect(Redaction.headerLine(name: "X-Team", value: "blue") == "X-Team: <redacted>")
        #expect(
            Redaction.headerLine(name: "Authorization", value: "Basic dXNlcjpwdw==")
                == "Authorization: Basic <redacted>")
        #expect(Redaction.scrub("secret is s3cr3t!", secrets: ["s3cr3t", "abc"]) == "secret is <redacted>!")
    }

    @Test(
        "JSON values: secret members replaced whole (auth keeps its app key), signature-shaped strings, nested; nil when clean"
    )
    func values() throws {
        let sig = "key:" + String(repeating: "ab", count: 32)
        let value = try JSONValue(
            parsing:
                #"{"id":9007199254740993,"auth":"\#(sig)","z":{"s":"\#(sig)"},"SECRET":{"a":1},"l":["\#(sig)"],"a":1.50}"#
        )
        #expect(
            Redaction.redacted(value)?.description
                == #"{"id":9007199254740993,"auth":"key:<redacted>","z":{"s":"key:<redacted>"},"SECRET":"<redacted>","l":["key:<redacted>"],"a":1.50}"#
        )
        #expect(Redaction.redacted(try JSONValue(parsing: #"{"a":[1,"x"],"b":null}"#)) == nil)
        #expect(Redaction.redacted(try JSONValue(parsing: #"{"auth":"key:<redacted>"}"#)) == nil, "already redacted")
        #expect(
            Redaction.redacted(try JSONValue(parsing: #"{"shared_secret":"k"}"#))?.description
                == #"{"shared_secret":"<redacted>"}"#)
    }

    @Test("scrub is idempotent and never grows a clean text")
    func idempotent() {
        let texts = [
            #"{"auth":"k:\#(Self.hex)","token":"t","u":"https://a:b@h/p?q=1"} Bearer x :\#(Self.hex)"#, "plain", "",
            #"{"a":"\"token\":\"x\""}"#, "\"", "bearer ", "http://", "\\\"auth\\\":\\\"k:v\\\"",
        ]
        for text in texts {
            for urls in [Redaction.URLPolicy.dropQueries, .keep, .redactSecretQueryValues] {
                let once = Redaction.scrub(text, urls: urls)
                #expect(Redaction.scrub(once, urls: urls) == once, "\(text)")
            }
        }
        #expect(Redaction.scrub("nothing secret here: 12:34") == "nothing secret here: 12:34")
    }
}
