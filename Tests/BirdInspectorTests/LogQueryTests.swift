// The filter / search query language: each field, regex, invalid regex, AND, negation, quoting.

import Foundation
import Testing

@testable import BirdInspector

@Suite("Log query")
struct LogQueryTests {
    static let t = Date(timeIntervalSince1970: 1_700_000_000)

    static func entry(_ event: ClientEvent) -> LogEntry { LogEntry(seq: 1, time: t, event: event) }

    static let received = entry(
        .event(ChannelEventRecord(channel: "presence-room", event: "client-typing", data: #"{"who":"Alice"}"#)))
    static let other = entry(.event(ChannelEventRecord(channel: "chat", event: "message", data: #"{"n":1}"#)))
    static let sent = entry(.sent(channel: "presence-room", event: "client-hi", data: #"{"x":1}"#))
    static let state = entry(
        .stateChanged(StateChangeRecord(previous: .connecting, current: .connected, cause: .handshake)))
    static let error = entry(.error(ErrorReport(code: 4009, message: "unauthorized")))
    static let subscribed = entry(.subscribed(channel: "presence-room"))
    static let all = [received, other, sent, state, error, subscribed]

    /// The entries (by their index in `all`) the query matches.
    func hits(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [Int] {
        guard case .success(let q) = LogQuery.parse(text) else {
            Issue.record("“\(text)” did not parse", sourceLocation: sourceLocation)
            return []
        }
        return Self.all.indices.filter { q.matches(Self.all[$0]) }
    }

    func refusal(_ text: String) -> String? {
        if case .failure(let e) = LogQuery.parse(text) { return e.message }
        return nil
    }

    @Test("a bare word is a case-insensitive substring of channel, event or data, as before")
    func bareWord() {
        #expect(hits("") == [0, 1, 2, 3, 4, 5])
        #expect(hits("ALICE") == [0])
        #expect(hits("room") == [0, 2, 5])
        #expect(hits("message") == [1])
    }

    @Test("ch: is the channel's whole name, * and ? wildcards; entries without a channel never match")
    func channelField() {
        #expect(hits("ch:presence-room") == [0, 2, 5])
        #expect(hits("ch:presence") == [])
        #expect(hits("ch:presence-*") == [0, 2, 5])
        #expect(hits("channel:c?at") == [1])
        #expect(hits("ch:*") == [0, 1, 2, 5])
    }

    @Test("ev: is the event name (received and sent), glob or exact")
    func eventField() {
        #expect(hits("ev:client-*") == [0, 2])
        #expect(hits("ev:message") == [1])
        #expect(hits("event:CLIENT-TYPING") == [0])
    }

    @Test("dir:in is what came from the edge, dir:out what this inspector sent; a list ORs")
    func direction() {
        #expect(hits("dir:out") == [2])
        #expect(hits("dir:in") == [0, 1, 5])
        #expect(hits("dir:in,out") == [0, 1, 2, 5])
    }

    @Test("kind: state, event, error, wire")
    func kind() {
        #expect(hits("kind:event") == [0, 1, 2])
        #expect(hits("kind:state") == [3])
        #expect(hits("kind:error") == [4])
        #expect(hits("kind:wire") == [5])
        #expect(hits("kind:state,error") == [3, 4])
    }

    @Test("terms are AND-ed; ! negates a term")
    func andAndNot() {
        #expect(hits("ch:presence-room dir:in") == [0, 5])
        #expect(hits("ch:presence-room ev:client-* dir:out") == [2])
        #expect(hits("ch:presence-room kind:event alice") == [0])
        #expect(hits("kind:event !ch:chat") == [0, 2])
        #expect(hits("!kind:event") == [3, 4, 5])
    }

    @Test("/regex/ anywhere a value goes; case is ignored unless the regex says (?-i)")
    func regex() {
        #expect(hits("/^client-(typing|hi)$/") == [0, 2])
        #expect(hits("/\"n\":\\d/") == [1])
        #expect(hits("ch:/^pres/") == [0, 2, 5])
        #expect(hits("/ALICE/") == [0])
        #expect(hits("/(?-i)ALICE/") == [])
        // Spaces inside a regex and a quoted phrase belong to it.
        #expect(hits("/signed in|unauth/") == [4])
        #expect(hits("\"4009 unauth\"") == [4])
    }

    @Test("an invalid query is refused with a message naming the term; parseOrLiteral falls back to text")
    func invalid() {
        #expect(refusal("/(unclosed/")?.contains("invalid regex /(unclosed/") == true)
        #expect(refusal("ch:presence-* /[z-a]/")?.contains("invalid regex") == true)
        #expect(refusal("dir:sideways") == "dir: “sideways” is not one of in, out")
        #expect(refusal("kind:wires")?.contains("kind: “wires” is not one of state, event, error, wire") == true)
        #expect(refusal("ch:")?.contains("ch: needs a value") == true)
        #expect(refusal("//")?.contains("empty regex") == true)
        let literal = LogQuery.parseOrLiteral("/(unclosed/")
        #expect(literal.text == "/(unclosed/")
        #expect(!literal.matches(Self.received))
        // A slash that opens no regex is plain text (a path, a URL).
        #expect(hits("/sandbox") == [])
        #expect(LogQuery.parse("http://x").map(\.isEmpty) == .success(false))
    }

    @Test("glob matching")
    func glob() {
        #expect(LogQuery.glob("a*c", matches: "abbbc"))
        #expect(LogQuery.glob("a*c", matches: "ac"))
        #expect(!LogQuery.glob("a*c", matches: "acb"))
        #expect(LogQuery.glob("*", matches: ""))
        #expect(LogQuery.glob("a?c", matches: "abc"))
        #expect(!LogQuery.glob("a?c", matches: "ac"))
        #expect(LogQuery.glob("*-*-*", matches: "x-y-z"))
    }
}
