import BirdRealtime
import BirdWire
import Foundation
import Testing
import TestSupport

/// A server that sends garbage (the sandbox's raw-frame injection): typed errors or documented
/// handling, never a crash; RFC 6455 violations fail the connection with the right close code.
extension Integration {
    @Suite(.serialized) struct HostileServerTests {
        /// Frames the client survives on the same connection, and the error kind each must raise.
        static let survivable: [(String, String, RealtimeError.Kind?)] = [
            ("invalid JSON", "this is { not json", .invalidJSON),
            ("truncated JSON", #"{"event":"x","channel":"news""#, .invalidJSON),
            ("a JSON array", "[1,2,3]", .notAnObject),
            ("a JSON string", #""just a string""#, .notAnObject),
            ("a JSON number", "42", .notAnObject),
            ("missing event", #"{"channel":"news","data":{}}"#, .missingField),
            ("event not a string", #"{"event":42,"channel":"news"}"#, .missingField),
            ("channel not a string", #"{"event":"x","channel":7}"#, .missingField),
            ("unknown protocol event", #"{"event":"bird:no_such_event"}"#, .unknownEvent),
            ("unknown internal event", #"{"event":"bird_internal:no_such_event","channel":"news"}"#, .unknownEvent),
            ("a client-to-server event", #"{"event":"bird:subscribe","data":{"channel":"news"}}"#, .unknownEvent),
            ("an app event without channel", #"{"event":"orphan-event","data":"{}"}"#, .missingField),
            ("an event for a channel not subscribed", #"{"event":"stray","channel":"not-mine","data":"{}"}"#, nil),
            (
                "a presence event without member id",
                #"{"event":"bird_internal:member_added","channel":"news","data":"{}"}"#, nil
            ),
            (
                "a second handshake", #"{"event":"bird:connection_established","data":"{\"connection_id\":\"1.2\"}"}"#,
                nil
            ),
            // The JSON parser refuses nesting deeper than 256 levels (no stack overflow).
            (
                "deeply nested data",
                #"{"event":"deep","channel":"news","data":"# + String(repeating: "[", count: 5000)
                    + String(repeating: "]", count: 5000) + "}", .invalidJSON
            ),
        ]

        /// `data` of every JSON type on a subscribed channel, and what the handler must receive.
        static let payloads: [(String, JSONValue?)] = [
            (#""data":null"#, nil),
            ("", nil),
            (#""data":true"#, .bool(true)),
            (#""data":false"#, .bool(false)),
            (#""data":1.5"#, .number(1.5)),
            (#""data":-7"#, .number(-7)),
            (#""data":"plain text""#, .string("plain text")),
            (#""data":"42""#, .number(42)),
            (#""data":"{\"a\":1}""#, ["a": 1]),
            (#""data":[1,"x",null]"#, [1, "x", nil]),
            (#""data":{"o":{"p":null,"q":[true]}}"#, ["o": ["p": nil, "q": [true]]]),
            (#""data":"\u00e9\ud83d\ude00""#, .string("é😀")),
        ]

        @Test("garbage frames: typed errors, documented handling, the connection survives")
        func survivableGarbage() async throws {
            let sandbox = try SandboxFixture()
            defer { sandbox.stop() }
            let client = ClientFixture(sandbox: sandbox)
            let recorder = client.recorder
            let news = client.bird.subscribe("news")
            let received = Box<[(String, JSONValue?)]>([])
            news.bindAll { name, data in received.withLock { $0.append((name, data)) } }
            guard let id = await client.connected() else { return }
            await client.subscribed(["news"])
            await eventually("news on the sandbox") { sandbox.connection(id)?.channels == ["news"] }

            var sentinel = 0
            /// Publishes a sentinel after the hostile frame; frames arrive in order, so once it is
            /// delivered the client has handled the frame.
            func sentinelDelivered() async -> Bool {
                sentinel += 1
                let n = sentinel
                #expect(
                    sandbox.sandbox.publish(channel: "news", event: "sentinel", data: ["n": .number(JSONNumber(n))])
                        == 1)
                return await eventually("sentinel \(n)") {
                    received.snapshot.contains { $0.0 == "sentinel" && $0.1?["n"]?.intValue == n }
                }
            }

            for (label, text, kind) in Self.survivable {
                let mark = recorder.mark
                #expect(sandbox.sandbox.send(id: id, text: text), "\(label)")
                guard await sentinelDelivered() else { return }
                let errors = recorder.errors(since: mark)
                if let kind {
                    #expect(errors.map(\.kind) == [kind], "\(label): \(errors)")
                } else {
                    #expect(errors.isEmpty, "\(label): \(errors)")
                }
                #expect(client.bird.connectionId == id, "\(label): the connection survives")
                #expect(recorder.changes(since: mark).isEmpty, "\(label): \(recorder.changes(since: mark))")
            }
            #expect(!received.snapshot.contains { $0.0 == "stray" || $0.0 == "orphan-event" })

            for (index, (fragment, expected)) in Self.payloads.enumerated() {
                let name = "typed-\(index)"
                let text =
                    fragment.isEmpty
                    ? #"{"event":"\#(name)","channel":"news"}"#
                    : #"{"event":"\#(name)","channel":"news",\#(fragment)}"#
                let mark = recorder.mark
                #expect(sandbox.sandbox.send(id: id, text: text))
                guard await sentinelDelivered() else { return }
                let got = received.snapshot.filter { $0.0 == name }
                #expect(got.count == 1, "\(name) delivered once")
                #expect(got.first?.1 == expected, "\(fragment) → \(String(describing: got.first?.1))")
                #expect(recorder.errors(since: mark).isEmpty)
            }

            // A binary frame: reported (code 1003), ignored, the connection stays.
            let mark = recorder.mark
            #expect(sandbox.sandbox.send(id: id, binary: true, payload: [0, 1, 2, 255]))
            guard await sentinelDelivered() else { return }
            let binaryErrors = recorder.errors(since: mark)
            #expect(binaryErrors.map(\.kind) == [.binaryMessage])
            #expect(binaryErrors.first?.code == 1003)
            #expect(client.bird.connectionId == id)
            await client.shutdown()
        }

        enum Violation: String, CaseIterable, Sendable { case invalidUTF8, tenMiB }

        @Test(
            "RFC 6455 violations fail the connection with 1007 / 1009, then the backoff path",
            arguments: Violation.allCases)
        func violations(violation: Violation) async throws {
            let sandbox = try SandboxFixture()
            defer { sandbox.stop() }
            let client = ClientFixture(sandbox: sandbox)
            let recorder = client.recorder
            client.bird.subscribe("news")
            guard let id = await client.connected() else { return }
            await client.subscribed(["news"])
            let mark = recorder.mark
            let expectedCode: Int
            switch violation {
            case .invalidUTF8:
                expectedCode = 1007
                let bytes =
                    Array(#"{"event":"x","channel":"news","data":""#.utf8) + [0xC3, 0x28, 0xFF] + Array(#""}"#.utf8)
                #expect(sandbox.sandbox.send(id: id, binary: false, payload: bytes))
            case .tenMiB:
                expectedCode = 1009
                let filler = String(repeating: "a", count: 10 << 20)
                #expect(
                    sandbox.sandbox.send(id: id, text: #"{"event":"big","channel":"news","data":""# + filler + #""}"#))
            }
            guard let second = await client.connected(other: id, within: 20) else { return }
            await client.bird.settle()
            let changes = recorder.changes(since: mark)
            #expect(changes.map(\.current) == [.unavailable, .connecting, .connected], "\(changes)")
            #expect(changes.first?.cause.closeCode == expectedCode, "\(String(describing: changes.first?.cause))")
            if case .protocolViolation? = changes.first?.cause {
            } else {
                Issue.record("cause should be a protocol violation: \(String(describing: changes.first?.cause))")
            }
            #expect(recorder.retries(since: mark).map(\.attempt) == [0])
            #expect(!recorder.events(since: mark).contains { $0.name == "big" || $0.name == "x" })
            // The client sent a close frame with the RFC's code, which the sandbox saw.
            await eventually("the sandbox saw close \(expectedCode) from \(id)") {
                sandbox.logLines.snapshot.contains { $0.contains("close \(id): \(expectedCode)") }
            }
            await client.subscribed(["news"])
            #expect(sandbox.connection(second)?.channels == ["news"])
            await client.shutdown()
        }
    }
}
