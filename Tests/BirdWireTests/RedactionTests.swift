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
        for text in ["auth", "xauth", "authx", "é auth é", String(repeating: "a", count: 99) + "auth", #"{"auth":"k:s"}"#] {
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
