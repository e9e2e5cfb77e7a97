// PayloadText skips the redaction walk for payloads that cannot hold a secret (every event written
// to a recording or shown goes through it): the shortcut must never let a secret through.

import BirdWire
import Foundation
import Testing

@testable import BirdInspector

@Suite("The redaction shortcut never lets a secret through")
struct RedactionShortcutTests {
    static let signature = String(repeating: "0123456789abcdef", count: 4)

    /// Payloads holding something `Redaction.redacted` replaces, in each way it can be spelled.
    static let secret = [
        #"{"auth":"app-key:\#(signature)"}"#, #"{"AUTH":"k"}"#, #"{"token":"t"}"#, #"{"refresh_token":"t"}"#,
        #"{"Client_Secret":"s"}"#, #"{"x_password":"p"}"#, #"{"my_signature":"s"}"#, #"{"shared_secret":"s"}"#,
        #"{"access_token":"t"}"#, #"{"Authorization":"Bearer x"}"#, #"{"password":"p"}"#, #"{"signature":"s"}"#,
        #"{"secret":"s"}"#, #"{"\u0074oken":"t"}"#, #"{"a":["k:\#(signature)"]}"#, #"{"n":{"deep":"x:\#(signature)"}}"#,
        #""app:\#(signature)""#, #""{\"token\":\"t\"}""#, #"{"sig":"app:\#(signature.uppercased())"}"#,
    ]

    /// Payloads with nothing to redact.
    static let plain = [
        #"{"seq":1,"text":"flood event payload for the inspector bench"}"#, "[1,2,3]", "42", #""hello""#, "null",
        #"{"price":9007199254740993,"tags":["a","b"]}"#, #"{"hash":"\#(signature.dropLast())"}"#,
    ]

    @Test("every payload Redaction.redacted changes is one the shortcut sends through it", arguments: secret + plain)
    func agrees(text: String) throws {
        let value = try JSONValue(parsing: text)
        let redacted = Redaction.redacted(PayloadText.unwrapped(value)) ?? Redaction.redacted(value)
        if redacted != nil {
            #expect(PayloadText.mayHoldSecret(text), "the shortcut would skip a secret in \(text)")
        }
    }

    @Test("JSONL data and the log line are what the full redaction walk makes", arguments: secret + plain)
    func sameAsFullWalk(text: String) throws {
        let value = try JSONValue(parsing: text)
        #expect(PayloadText.embedded(text) == (Redaction.redacted(value)?.description ?? text))
        let shown = PayloadText.unwrapped(value)
        #expect(PayloadText.oneLine(text) == (Redaction.redacted(shown) ?? shown).description)
    }

    @Test("a secret member's value never reaches JSONL", arguments: secret.filter { $0.hasPrefix("{") })
    func secretHidden(text: String) {
        let out = PayloadText.embedded(text)
        #expect(out.contains(Redaction.placeholder), "\(text) → \(out)")
    }

    @Test("plain payloads take the shortcut and come out as before", arguments: plain)
    func plainUnchanged(text: String) throws {
        #expect(!PayloadText.mayHoldSecret(text))
        #expect(PayloadText.embedded(text) == text)
        let value = try JSONValue(parsing: text)
        #expect(PayloadText.oneLine(text) == PayloadText.unwrapped(value).description)
    }
}
