// Secret member names found in raw text by their bytes (`Redaction.isSecretName`): the same
// answer as `isSecretKey` on the name as a `String`.

import Testing

@testable import BirdWire

@Suite("Redaction: secret member names by their bytes")
struct RedactionSecretNameTests {
    @Test("isSecretName gives isSecretKey's answer for any name, in any case")
    func matchesIsSecretKey() {
        var random = SplitMix64(seed: 64)
        var names = Array(Redaction.secretKeys) + ["", "a", "AUTH", "Auth", "auth_", "_token", "x_TOKEN", "authx"]
        let pieces = [
            "auth", "AUTH", "_token", "_Secret", "_password", "_signature", "secret", "TOKEN", "a", "Z", "_", "-", "9",
        ]
        for _ in 0..<3000 {
            let n = Int(random.next() % 5)
            var name = (0..<n).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            if random.next() % 3 == 0 { name = name.uppercased() }
            names.append(name)
        }
        for name in names {
            #expect(Redaction.isSecretName(Array(name.utf8)[...]) == Redaction.isSecretKey(name), "\(name)")
        }
    }

    @Test("names in any case are redacted in raw text; an auth value keeps its app key")
    func mixedCaseInText() {
        #expect(
            Redaction.redactSecretMembers(#"{"AUTH":"key:sig","Refresh_TOKEN":"t","Password":"p","name":"n"}"#)
                == #"{"AUTH":"key:<redacted>","Refresh_TOKEN":"<redacted>","Password":"<redacted>","name":"n"}"#)
        #expect(
            Redaction.redactSecretMembers(#"{\"Shared_Secret\":\"c2Vj\",\"tokens\":\"x\"}"#)
                == #"{\"Shared_Secret\":\"<redacted>\",\"tokens\":\"x\"}"#)
    }
}
