// `update`: keys become commands, prompts validate, client events change the model.

import Foundation
import Testing

@testable import BirdInspector

@Suite("Update")
struct UpdateTests {
    @Test("s prompts for a channel and subscribes; bad names are refused with the reason")
    func subscribePrompt() {
        var h = Harness()
        h.connectAndSubscribe()
        h.commands = []
        h.type("sbad name\n")
        #expect(h.commands.isEmpty)
        #expect(h.model.flash?.text.contains("may not contain") == true)
        if case .prompt = h.model.mode {} else { Issue.record("prompt should stay open after a refusal") }
        h.press(.ctrl("u"))
        h.type("presence-lobby\n")
        #expect(h.commands == [.subscribe("presence-lobby")])
        #expect(h.model.currentChannel?.name == "presence-lobby")
        #expect(h.model.currentChannel?.status == .subscribing)
        #expect(contains(h.render(), "presence-lobby"))
    }

    @Test("t validates: channel kind, subscription, client- prefix, JSON")
    func triggerValidation() {
        var h = Harness()
        h.connectAndSubscribe()
        h.commands = []
        // chat is public: refused before any prompt.
        h.model.selectedChannel = h.model.channelIndex("chat") ?? 0
        h.type("t")
        #expect(h.model.mode == .normal)
        #expect(h.model.flash?.text.contains("private- or presence-") == true)
        // private-orders: name without client- is refused, then invalid JSON is refused.
        h.model.selectedChannel = h.model.channelIndex("private-orders") ?? 0
        h.type("t")
        h.press(.ctrl("u"))
        h.type("typing\n")
        #expect(h.model.flash?.text.contains("must start with client-") == true)
        h.press(.ctrl("u"))
        h.type("client-typing\n")
        h.type("{oops\n")
        #expect(h.model.flash?.text.contains("invalid JSON") == true)
        #expect(h.commands.isEmpty)
        h.press(.ctrl("u"))
        h.type(#"{"on":true}"# + "\n")
        #expect(h.commands == [.trigger(channel: "private-orders", event: "client-typing", data: #"{"on":true}"#)])
        // Not subscribed right now (connection lost): refused.
        h.client(.stateChanged(StateChangeRecord(previous: .connected, current: .unavailable, cause: .dropped)), at: 9)
        h.commands = []
        h.type("t")
        #expect(h.model.flash?.text.contains("not subscribed right now") == true)
        #expect(h.commands.isEmpty)
    }

    @Test(": runs the headless commands; errors are logged and shown")
    func commandLine() {
        var h = Harness()
        h.connectAndSubscribe()
        h.commands = []
        for (text, command) in [
            ("disconnect", Command.disconnect), ("connect", .connect), ("drop", .drop),
            ("signin", .signin), ("unsubscribe chat", .unsubscribe("chat")),
        ] {
            h.type(":\(text)\n")
            #expect(h.commands.last == command, "\(text)")
        }
        #expect(h.model.channelIndex("chat") == nil)
        h.type(":frobnicate\n")
        #expect(h.model.flash?.text.contains("unknown command frobnicate") == true)
        if case .commandError(let c, _) = h.model.log.entry(seq: h.model.log.lastSeq)?.event {
            #expect(c == "frobnicate")
        } else {
            Issue.record("command error not logged")
        }
        h.type(":trigger chat client-x {}\n")
        #expect(
            h.model.flash?.text.contains("not subscribed") == true || h.model.flash?.text.contains("private-") == true)
        h.type(":quit\n")
        #expect(h.commands.last == .quit)
        #expect(h.model.quitting)
    }

    @Test("keys map to client commands: d c x i o q")
    func commands() {
        var h = Harness()
        h.connectAndSubscribe()
        h.commands = []
        h.type("x")
        #expect(h.commands == [.drop])
        h.client(.stateChanged(StateChangeRecord(previous: .connected, current: .unavailable, cause: .dropped)), at: 2)
        h.type("d")
        h.client(
            .stateChanged(StateChangeRecord(previous: .unavailable, current: .disconnected, cause: .disconnectCalled)),
            at: 3)
        h.type("c")
        h.type("i")
        h.client(.signinSucceeded(memberId: "m-9", info: nil), at: 4)
        #expect(contains(h.render(), "member: m-9"))
        h.type("o")
        h.type("q")
        #expect(h.commands == [.drop, .disconnect, .connect, .signin, .signout, .quit])
    }

    @Test("Tab cycles panes; arrows move the channel selection and the roster follows it")
    func panes() {
        var h = Harness()
        h.connectAndSubscribe()
        #expect(h.model.focus == .events)
        h.type("\t")
        #expect(h.model.focus == .members)
        h.type("\t\t")
        #expect(h.model.focus == .channels)
        h.press(.home)
        #expect(h.model.currentChannel?.name == "chat")
        h.press(.down)
        h.press(.down)
        #expect(h.model.currentChannel?.name == "presence-room")
        h.press(.down)
        #expect(h.model.currentChannel?.name == "presence-room")
    }

    @Test("up in Events pauses and selects; Enter opens that entry")
    func selection() {
        var h = Harness()
        h.connectAndSubscribe()
        h.events(10)
        h.press(.up)
        h.press(.up)
        #expect(h.model.paused)
        h.press(.enter)
        guard case .detail(let seq, _, _) = h.model.mode else {
            Issue.record("no detail")
            return
        }
        #expect(seq == h.model.log.lastSeq - 2)
        #expect(contains(h.render(), #""n": 7"#))
    }

    @Test("state changes: channels wait for reconnect, resubscribe; subscription errors show the reason")
    func channelsAcrossReconnects() {
        var h = Harness()
        h.connectAndSubscribe()
        h.client(
            .stateChanged(StateChangeRecord(previous: .connected, current: .unavailable, cause: .pongTimeout)), at: 3)
        #expect(h.model.channels.allSatisfy { $0.status == .waitingForReconnect })
        #expect(h.model.connection.lastClose?.code == 4201)
        h.client(
            .stateChanged(StateChangeRecord(previous: .unavailable, current: .connecting, cause: .retryDue)), at: 4)
        h.client(
            .stateChanged(
                StateChangeRecord(previous: .connecting, current: .connected, cause: .handshake, connectionId: "9.9")),
            at: 5)
        #expect(h.model.channels.allSatisfy { $0.status == .subscribing })
        #expect(h.model.connection.connectionId == "9.9")
        h.client(
            .subscriptionError(
                channel: "private-orders",
                SubscriptionFailure(
                    type: "AuthError", status: 403, endpoint: "http://127.0.0.1/auth",
                    message: "forbidden")), at: 6)
        h.model.selectedChannel = h.model.channelIndex("private-orders") ?? 0
        let g = h.render()
        #expect(contains(g, "✗ AuthError 403: forbidden"))
        #expect(contains(g, "✗ sub"))
    }

    @Test("footer messages expire on ticks")
    func flashExpires() {
        var h = Harness()
        h.type("o")
        #expect(h.model.flash != nil)
        h.tick(10)
        #expect(h.model.flash == nil)
    }
}
