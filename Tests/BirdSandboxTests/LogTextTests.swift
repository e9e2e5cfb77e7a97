import BirdWire
import Foundation
import Testing
import TestSupport

@testable import BirdSandbox

/// Log lines hold what clients send; nothing in it may forge a line or reach the terminal raw.
@Suite struct LogTextTests {
    @Test(arguments: [
        ("plain ascii: 4200 edge restarting", "plain ascii: 4200 edge restarting"),
        ("two\nlines", "two\\nlines"),
        ("cr\rlf\r\n", "cr\\rlf\\r\\n"),
        ("tab\there", "tab\\there"),
        ("\u{1B}[2J\u{1B}[31mred", "\\u001b[2J\\u001b[31mred"),
        ("nul\u{0}bell\u{7}", "nul\\u0000bell\\u0007"),
        ("del\u{7F}", "del\\u007f"),
        ("c1 \u{85} \u{9B}31m", "c1 \\u0085 \\u009b31m"),
        ("sep\u{2028}par\u{2029}", "sep\\u2028par\\u2029"),
        ("bidi \u{202E}txt.exe\u{2066}", "bidi \\u202etxt.exe\\u2066"),
        ("é ü 漢字 🙂 \\ kept", "é ü 漢字 🙂 \\ kept"),
    ])
    func controlCharactersAreEscaped(input: String, expected: String) {
        let escaped = LogText.sanitize(input)
        #expect(escaped == expected)
        #expect(!escaped.unicodeScalars.contains { LogText.needsEscape($0) })
        #expect(LogText.sanitize(escaped) == escaped)  // escaping twice changes nothing
    }

    @Test func longLinesAreCutAndSaySo() {
        let line = String(repeating: "x", count: 10_000)
        let cut = LogText.sanitize(line, maxBytes: 100)
        #expect(cut.hasPrefix(String(repeating: "x", count: 100)))
        #expect(cut.hasSuffix("… (9900 more bytes)"))
        // Never in the middle of a character.
        let wide = LogText.sanitize(String(repeating: "漢", count: 50), maxBytes: 10)
        #expect(wide.hasPrefix("漢漢漢…"))
    }

    @Test func theSandboxLogEscapesWhatAClientSent() throws {
        let lines = LockedList<String>()
        var configuration = SandboxConfiguration(clientEvents: true)
        configuration.log = { lines.append($0) }
        // The sandbox's own edge, with the log sink Sandbox gives it (not started: no sockets).
        let edge = try Sandbox(configuration: configuration).edge
        let id = try #require(
            edge.open(link: FakeLink(), path: "/app/sandbox-key", query: [("protocol", "7")], remote: "127.0.0.1:1"))
        let forged = "news\n[12:00:00.000] close 1.1: 4200 forged\u{1B}[2J"
        let data: JSONValue = ["channel": .string(forged)]
        let subscribe = WireMessage(event: "bird:subscribe", data: .json(data.description))
        edge.receive(text: subscribe.encode(), from: id)
        edge.connectionEnded(id: id, code: 4000, reason: "bye\r\n\u{1B}]0;title\u{7}")
        let all = lines.all
        #expect(all.count >= 3)
        for line in all {
            #expect(!line.unicodeScalars.contains { LogText.needsEscape($0) }, "raw control character in \(line)")
        }
        #expect(all.contains { $0.contains("news\\n[12:00:00.000] close 1.1: 4200 forged\\u001b[2J") })
        #expect(all.contains { $0.contains("bye\\r\\n\\u001b]0;title\\u0007") })
    }

    @Test func theSandboxLogGoesThroughTheRedactionPolicy() throws {
        let lines = LockedList<String>()
        var configuration = SandboxConfiguration(clientEvents: true)
        configuration.log = { lines.append($0) }
        let edge = try Sandbox(configuration: configuration).edge
        let id = try #require(
            edge.open(link: FakeLink(), path: "/app/sandbox-key", query: [("protocol", "7")], remote: "127.0.0.1:1"))
        // A close reason is whatever a client sent: secrets in it must not reach the operator's log.
        let signature = String(repeating: "ab", count: 32)
        edge.connectionEnded(
            id: id, code: 4000,
            reason: #"{"shared_secret":"k3y","auth":"sandbox-key:\#(signature)"} Bearer t0k3n https://h/a?token=q"#)
        let all = lines.all.joined(separator: "\n")
        for secret in ["k3y", signature, "t0k3n", "token=q", configuration.appSecret] {
            #expect(!all.contains(secret), "\(secret) in \(all)")
        }
        #expect(all.contains("sandbox-key:<redacted>"))
    }
}
