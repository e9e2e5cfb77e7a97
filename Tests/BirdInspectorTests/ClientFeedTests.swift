// Issue 14: the library's callbacks become the inspector's messages in the core (`ClientFeed`),
// checked here with the library's own values — through `update` to the screen where it matters.

import BirdRecording
import BirdWire
import Foundation
import Testing

@testable import BirdInspector
@testable import BirdRealtime

@Suite("The client's callbacks as the inspector's messages (ClientFeed)")
struct ClientFeedTests {

    @Test("a server close with its code, then a retry: the Connection pane shows both")
    func serverCloseAndRetry() {
        var h = Harness(size: Size(width: 200, height: 50))
        feed(&h, .stateChange(StateChange(previous: .initialized, current: .connecting, cause: .start)), at: 0)
        feed(
            &h,
            .stateChange(
                StateChange(
                    previous: .connecting, current: .connected, cause: .handshake,
                    connectionId: "77.88", activityTimeout: .seconds(60))), at: 0.2)
        #expect(h.model.connection.state == .connected && h.model.connection.connectionId == "77.88")

        let close = StateChange(
            previous: .connected, current: .unavailable,
            cause: .serverClose(code: 4201, reason: "pong reply not received"))
        #expect(
            ClientFeed.item(.stateChange(close), recording: false)
                == .client(
                    .stateChanged(
                        StateChangeRecord(
                            previous: .connected, current: .unavailable,
                            cause: .closed(code: 4201, reason: "pong reply not received", by: .server)))))
        feed(&h, .stateChange(close), at: 5)
        let retry = RetrySchedule(
            delay: .milliseconds(1500), attempt: 2, cause: .serverClose(code: 4201, reason: ""),
            at: t0.addingTimeInterval(6.5))
        feed(&h, .retryScheduled(retry), at: 5)

        let text = connectionText(h)
        #expect(h.model.connection.state == .unavailable)
        #expect(text.contains("server closed 4201"), "\(text)")
        #expect(text.contains("pong reply not received"), "\(text)")
        #expect(text.contains("attempt 2 in 1.5s"), "\(text)")
        #expect(h.model.connection.attempt == 2)
    }

    @Test("every cause of the library has its own cause in the inspector; a protocol violation is closed by the client")
    func causes() {
        let pairs: [(StateChangeCause, TransitionCause)] = [
            (.start, .started), (.connectCalled, .connectCalled), (.handshake, .handshake),
            (.retry(attempt: 1), .retryDue),
            (.serverClose(code: 4009, reason: "gone"), .closed(code: 4009, reason: "gone", by: .server)),
            (.pongTimeout, .pongTimeout), (.networkError("refused"), .networkError("refused")),
            (.protocolViolation(code: 1002, reason: "masked"), .closed(code: 1002, reason: "masked", by: .client)),
            (.handshakeWithoutId, .handshakeWithoutId), (.disconnectCalled, .disconnectCalled), (.dropped, .dropped),
            (.signout, .signout), (.configuration("no key"), .other("configuration error: no key")),
        ]
        for (library, inspector) in pairs {
            #expect(ClientFeed.cause(library) == inspector, "\(library)")
        }
    }

    @Test("a channel event keeps its payload's exact text: digits, member order, spacing; not JSON stays as sent")
    func exactPayload() {
        let spaced = "{ \"id\" : 9007199254740993,\r\n  \"b\" : 1.50, \"a\" : [1e3, -0.0] }"
        for text in [spaced, "not json {", #""a string""#] {
            let event = ChannelEvent(channel: "chat", name: "order", payload: EventPayload(text: text), memberId: "u1")
            #expect(
                ClientFeed.events(event, roster: nil)
                    == [.event(ChannelEventRecord(channel: "chat", event: "order", data: text, memberId: "u1"))])
        }
        let none = ChannelEvent(channel: "chat", name: "ping", payload: nil)
        #expect(
            ClientFeed.events(none, roster: nil) == [
                .event(ChannelEventRecord(channel: "chat", event: "ping", data: nil))
            ])

        var h = Harness(size: Size(width: 200, height: 50))
        h.connectAndSubscribe()
        let event = ChannelEvent(channel: "chat", name: "order", payload: EventPayload(text: spaced))
        for mapped in ClientFeed.events(event, roster: nil) { h.client(mapped, at: 7) }
        #expect(
            line(h.render(), containing: " order ")?.contains(#"{"id":9007199254740993,"b":1.50,"a":[1e3,-0.0]}"#)
                == true)
    }

    @Test(
        "isAppEvent is true exactly for the events that become one `.event` (which the inbox may drop unmade)",
        arguments: [
            "order", "client-typing", "tick", BirdProtocol.Event.subscriptionSucceeded,
            BirdProtocol.Event.subscriptionError, BirdProtocol.Event.memberAdded, BirdProtocol.Event.memberRemoved,
            BirdProtocol.Event.connectionCount,
        ])
    func appEvents(name: String) {
        let data: JSONValue = .object([
            "member_id": .string("bo"), "connection_count": .number(JSONNumber(2)), "type": .string("AuthError"),
        ])
        let event = ChannelEvent(channel: "presence-room", name: name, data: data)
        var becomesEvent = false
        if case .event? = ClientFeed.events(event, roster: nil).first { becomesEvent = true }
        #expect(ClientFeed.isAppEvent(event) == becomesEvent)
        #expect(ClientFeed.isAppEvent(event) == !name.contains(":"))
    }

    @Test("a presence subscription brings its roster, sorted, a null info as none; a public one only subscribed")
    func subscriptionAndRoster() {
        let ok = ChannelEvent(
            channel: "presence-room", name: BirdProtocol.Event.subscriptionSucceeded, data: .object([:]))
        #expect(ClientFeed.events(ok, roster: nil) == [.subscribed(channel: "presence-room")])
        let roster: [String: JSONValue] = ["zed": .null, "amy": .object(["name": .string("Amy")])]
        #expect(
            ClientFeed.events(ok, roster: (roster, "amy")) == [
                .subscribed(channel: "presence-room"),
                .membersSnapshot(
                    channel: "presence-room",
                    members: [
                        PresenceMember(id: "amy", info: #"{"name":"Amy"}"#), PresenceMember(id: "zed", info: nil),
                    ],
                    myId: "amy"),
            ])
    }

    @Test("a subscription error keeps type, status and message, and its endpoint without the query")
    func subscriptionError() {
        let data: JSONValue = .object([
            "type": .string("AuthError"), "status": .number(JSONNumber(403)),
            "endpoint": .string("https://app.example/auth?token=s3cret"), "error": .string("forbidden"),
        ])
        let event = ChannelEvent(channel: "private-x", name: BirdProtocol.Event.subscriptionError, data: data)
        let mapped = ClientFeed.events(event, roster: nil)
        #expect(
            mapped == [
                .subscriptionError(
                    channel: "private-x",
                    SubscriptionFailure(
                        type: "AuthError", status: 403, endpoint: "https://app.example/auth", message: "forbidden"))
            ])
        #expect(!"\(mapped)".contains("s3cret"))
    }

    @Test("member and count events map their ids and numbers; one missing its id or count becomes nothing")
    func membersAndCounts() {
        func event(_ name: String, _ data: JSONObject) -> ChannelEvent {
            ChannelEvent(channel: "presence-room", name: name, data: .object(data))
        }
        #expect(
            ClientFeed.events(
                event(
                    BirdProtocol.Event.memberAdded,
                    [
                        "member_id": .string("bo"),
                        "member_info": .object(["n": .number(JSONNumber(1))]),
                    ]),
                roster: nil)
                == [.memberAdded(channel: "presence-room", PresenceMember(id: "bo", info: #"{"n":1}"#))])
        #expect(
            ClientFeed.events(event(BirdProtocol.Event.memberRemoved, ["member_id": .string("bo")]), roster: nil)
                == [.memberRemoved(channel: "presence-room", memberId: "bo")])
        #expect(
            ClientFeed.events(
                event(BirdProtocol.Event.connectionCount, ["connection_count": .number(JSONNumber(12))]),
                roster: nil)
                == [.connectionCount(channel: "presence-room", count: 12)])
        for name in [
            BirdProtocol.Event.memberAdded, BirdProtocol.Event.memberRemoved, BirdProtocol.Event.connectionCount,
        ] {
            #expect(ClientFeed.events(event(name, [:]), roster: nil).isEmpty, "\(name)")
        }
    }

    @Test("errors, sign-in results and wire messages (recorded only when recording)")
    func errorsSigninAndWire() {
        let error = RealtimeError(kind: .serverError, code: 4100, message: "over capacity", reason: "try later")
        #expect(
            ClientFeed.item(.error(error), recording: false)
                == .client(.error(ErrorReport(code: 4100, message: "over capacity", reason: "try later"))))
        #expect(
            ClientFeed.item(.signinError(ConfigurationError(message: "no member endpoint")), recording: false)
                == .client(.signinFailed(message: "no member endpoint")))
        #expect(
            ClientFeed.signin(.success(Member(memberId: "amy", info: .object(["n": .number(JSONNumber(2))]))))
                == .signinSucceeded(memberId: "amy", info: #"{"n":2}"#))
        #expect(
            ClientFeed.signin(.failure(RealtimeAuthError(endpoint: "x", status: 401, message: "refused (401)")))
                == .signinFailed(message: "refused (401)"))

        let wire = ClientActivity.wireMessage(.inbound, #"{"event":"pusher:pong","data":{}}"#)
        #expect(ClientFeed.item(wire, recording: false) == nil)
        #expect(
            ClientFeed.item(wire, recording: true)
                == .recorded(.wire(direction: .inbound, text: #"{"event":"pusher:pong","data":{}}"#)))
        #expect(
            ClientFeed.item(.wireMessage(.outbound, "{}"), recording: true)
                == .recorded(.wire(direction: .outbound, text: "{}")))
    }

    @Test("recorded auth: kind, channel, status or error — the endpoint and the error text without the query")
    func recordingAuth() async throws {
        let endpoint = try #require(URL(string: "https://app.example/auth?token=s3cret"))
        let request = AuthHTTPRequest(
            method: "POST", url: endpoint, headers: ["Authorization": "Bearer s3cret"],
            body: Array(#"{"channel_name":"private-x","socket_id":"1.2"}"#.utf8),
            timeout: .seconds(5), caFile: nil)
        let entries = Entries()
        let answered = ClientFeed.recordingAuth(
            { _ in AuthHTTPResponse(status: 200, text: #"{"auth":"k:sig"}"#) },
            channelEndpoint: endpoint, signinEndpoint: nil
        ) { entries.add($0) }
        #expect(try await answered(request).status == 200)
        struct Refused: Error, CustomStringConvertible {
            let url: String
            var description: String { "connection refused: \(url)" }
        }
        let failing = ClientFeed.recordingAuth(
            { throw Refused(url: $0.url.absoluteString) },
            channelEndpoint: endpoint, signinEndpoint: nil
        ) { entries.add($0) }
        await #expect(throws: Refused.self) { try await failing(request) }

        let recorded = entries.all
        try #require(recorded.count == 2)
        guard case .auth(let ok) = recorded[0], case .auth(let failed) = recorded[1] else {
            Issue.record("not auth entries: \(recorded)")
            return
        }
        #expect(ok.kind == .channel && ok.channel == "private-x" && ok.status == 200 && ok.error == nil)
        #expect(ok.endpoint == "https://app.example/auth")
        #expect(failed.status == nil && failed.error == "connection refused: https://app.example/auth")
        #expect(!"\(recorded)".contains("s3cret") && !"\(recorded)".contains("sig"))
    }
}

/// Entries handed to a `record` callback, in order (any thread).
private final class Entries: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [RecordedEntry] = []

    func add(_ entry: RecordedEntry) { lock.withLock { entries.append(entry) } }
    var all: [RecordedEntry] { lock.withLock { entries } }
}
