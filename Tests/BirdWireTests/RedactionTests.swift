import Testing
@testable import BirdWire

@Suite("Redaction")
struct RedactionTests {
    @Test("auth signatures are redacted, keys kept")
    func wire() {
        let text = #"{"event":"bird:subscribe","data":{"channel":"private-a","auth":"key:abcdef0123"}}"#
        let redacted = Redaction.redactWireText(text)
        #expect(!redacted.contains("abcdef0123"))
        #expect(redacted.contains("key:"))
        #expect(redacted.contains(Redaction.placeholder))
    }

    @Test("double-encoded auth is redacted too")
    func doubleEncoded() {
        let text = #"{"event":"bird:signin","data":"{\"auth\":\"key:deadbeef\",\"member_data\":\"{}\"}"}"#
        #expect(!Redaction.redactWireText(text).contains("deadbeef"))
    }

    @Test("text without secrets is unchanged")
    func unchanged() {
        let text = #"{"event":"e","data":{"x":1}}"#
        #expect(Redaction.redactWireText(text) == text)
    }

    @Test("the quick scan for \"auth\" finds it anywhere and only where it is")
    func scan() {
        for text in [
            "auth", "xauth", "authx", "é auth é", String(repeating: "a", count: 99) + "auth", #"{"auth":"k:s"}"#,
        ] {
            #expect(Redaction.mentionsAuth(text), "\(text)")
        }
        for text in ["", "aut", "uth", "a uth", "AUTH", "autH", String(repeating: "aut", count: 50), "é"] {
            #expect(!Redaction.mentionsAuth(text), "\(text)")
        }
    }

    @Test("secret-bearing headers and known secrets")
    func headers() {
        #expect(
            Redaction.redactHeader(name: "Authorization", value: "Bearer tok123") == "Bearer \(Redaction.placeholder)")
        #expect(Redaction.redactHeader(name: "accept", value: "json") == "json")
        #expect(!Redaction.redact("secret is s3cr3t!", secrets: ["s3cr3t"]).contains("s3cr3t"))
    }
}

@Suite("Redaction: encrypted channels' keys")
struct SharedSecretRedactionTests {
    static let key = "u8PoX0hWVIfJmmrFTRnl7TfXyJcbz/m+pAWLzAoe60E="

    @Test(
        "every spelling of a shared_secret value is redacted whole; the rest is kept",
        arguments: [
            #"{"auth":"k:abc","shared_secret":"KEY"}"#,
            #"{"shared_secret": "KEY", "auth": "k:abc"}"#,
            "{\"shared_secret\" :\t\"KEY\"}",
            #"{"shared_secret":"KEY"}"#,
            #"{"data":"{\"shared_secret\":\"KEY\",\"x\":1}"}"#,
            #"{"shared_secret":"KEY_WITH_PHP_SLASHES"}"#,
            #"log: answered {"shared_secret":"KEY"} for private-encrypted-a"#,
        ])
    func redacted(template: String) {
        let phpKey = Self.key.replacingOccurrences(of: "/", with: #"\/"#)
        let text = template.replacingOccurrences(of: "KEY_WITH_PHP_SLASHES", with: phpKey)
            .replacingOccurrences(of: "KEY", with: Self.key)
        let redacted = Redaction.redactWireText(text)
        #expect(!redacted.contains(Self.key), "\(redacted)")
        // No piece of the key survives either (a value cut short at an escape would leave some).
        for piece in [String(Self.key.prefix(8)), String(Self.key.suffix(8)), "pAWLzAoe60E", "Jmm"] {
            #expect(!redacted.contains(piece), "\(piece) in \(redacted)")
        }
        #expect(redacted.contains("shared_secret"))
        #expect(redacted.contains(Redaction.placeholder))
        if text.contains("k:abc") { #expect(!redacted.contains("abc")) }
    }

    @Test(
        "a shared_secret that is not a string value, or the bare word, is left alone",
        arguments: [
            #"{"shared_secret":null}"#, #"{"shared_secret":[1,2]}"#, "the shared_secret field", "shared_secret",
            #"{"not_shared_secret_at_all":1}"#,
        ])
    func untouched(text: String) {
        #expect(Redaction.redactWireText(text) == text)
    }

    @Test("the one scan finds auth and shared_secret wherever they are")
    func scan() {
        func found(_ text: String) -> [Bool] {
            let m = Redaction.secretMentions(text)
            return [m.auth, m.sharedSecret]
        }
        #expect(found("xx shared_secret") == [false, true])
        #expect(found("auth shared_secret") == [true, true])
        #expect(found("shared_secre auth") == [true, false])
        #expect(found("shared_secret") == [false, true])
        #expect(found("") == [false, false])
        #expect(found("é shared_secret é") == [false, true])
    }
}
