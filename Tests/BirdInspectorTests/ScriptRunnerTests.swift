// The --jsonl stdin script as a value (ScriptRunner): commands run in order, each when what it
// needs exists; waits; deadlines on explicit times; the exit code.

import BirdWire
import Foundation
import Testing

@testable import BirdInspector

/// A runner driven by explicit times (seconds since the run began), collecting its actions.
struct ScriptDriver {
    var runner: ScriptRunner
    var actions: [ScriptRunner.Action] = []

    init(timeout: Duration = .seconds(10), endOfInputFinishes: Bool = true) {
        runner = ScriptRunner(defaultTimeout: timeout, endOfInputFinishes: endOfInputFinishes)
    }

    static func at(_ seconds: Double) -> Duration { .milliseconds(Checked.int(seconds * 1000)) }

    mutating func input(_ text: String, at seconds: Double = 0) {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            actions += runner.input(line: String(line), at: Self.at(seconds))
        }
    }

    mutating func end(at seconds: Double) { actions += runner.endOfInput(at: Self.at(seconds)) }
    mutating func tick(_ seconds: Double) { actions += runner.tick(at: Self.at(seconds)) }
    mutating func client(_ event: ClientEvent, at seconds: Double) {
        actions += runner.observe(event, at: Self.at(seconds))
    }

    mutating func connect(at seconds: Double, subscribing channels: [String] = []) {
        client(
            .stateChanged(StateChangeRecord(previous: .initialized, current: .connecting, cause: .started)), at: seconds
        )
        client(
            .stateChanged(
                StateChangeRecord(previous: .connecting, current: .connected, cause: .handshake, connectionId: "1.2")),
            at: seconds)
        for ch in channels { client(.subscribed(channel: ch), at: seconds) }
    }

    /// The actions since the last call.
    mutating func take() -> [ScriptRunner.Action] {
        defer { actions = [] }
        return actions
    }
}

@Suite("Scripts on stdin: commands wait for what they need")
struct ScriptRunnerTests {
    @Test("the issue's pipe: subscribe at once, the trigger when subscribed, quit after it — exit 0")
    func issuePipe() {
        var d = ScriptDriver()
        d.input(#"subscribe presence-x"# + "\n" + #"trigger presence-x client-hi {"a":1}"# + "\nquit")
        #expect(d.take() == [.perform(.subscribe("presence-x"))], "the trigger and quit wait: nothing is connected yet")
        d.connect(at: 0.2, subscribing: ["demo-orders"])
        d.tick(1)
        #expect(d.take().isEmpty, "presence-x is not subscribed yet")
        d.client(.subscribed(channel: "presence-x"), at: 1.5)
        #expect(
            d.take() == [.perform(.trigger(channel: "presence-x", event: "client-hi", data: #"{"a":1}"#)), .finished])
        #expect(d.runner.exitCode == 0 && d.runner.isFinished)
    }

    @Test("ping waits for connected, then is performed; without a connection it fails after the timeout")
    func pingWaitsForConnected() {
        var d = ScriptDriver()
        d.input("ping")
        #expect(d.take().isEmpty, "not connected yet: the ping waits")
        d.connect(at: 0.5)
        #expect(d.take() == [.perform(.ping)])
        var e = ScriptDriver()
        e.input("ping")
        e.tick(9.9)
        #expect(e.take().isEmpty)
        e.tick(10)
        #expect(
            e.take().contains { action in
                guard case .commandError(let command, let message) = action else { return false }
                return command == "ping" && message.contains("not connected")
            })
    }

    @Test("a trigger gives up after the timeout and says why, with the subscription error when known")
    func triggerTimesOut() {
        var d = ScriptDriver()
        d.input("subscribe presence-x\ntrigger presence-x client-hi {}\nquit")
        _ = d.take()
        d.connect(at: 0.1)
        d.client(
            .subscriptionError(
                channel: "presence-x", SubscriptionFailure(type: "AuthError", status: 503, message: "HTTP 503")),
            at: 0.3)
        d.tick(9.9)
        #expect(d.take().isEmpty, "it waits the whole timeout: a reconnect may still subscribe it")
        d.tick(10)
        #expect(
            d.take() == [
                .commandError(
                    command: "trigger presence-x client-hi {}",
                    message: "presence-x not subscribed after 10 s: subscription_error AuthError 503"),
                .finished,
            ])
        #expect(d.runner.exitCode == 1)
    }

    @Test("the timeout starts when the command reaches the head of the queue, not when it was read")
    func timeoutFromHead() {
        var d = ScriptDriver(timeout: .seconds(2))
        d.input("wait connected\ntrigger private-a client-x")
        d.tick(1.9)
        d.connect(at: 1.9)
        d.tick(3.8)
        #expect(d.take().isEmpty, "the trigger has waited 1.9 s of its 2")
        d.tick(3.9)
        #expect(
            d.take() == [
                .commandError(command: "trigger private-a client-x", message: "private-a not subscribed after 2 s")
            ])
    }

    @Test("a client event on a public channel is refused at once, in its place")
    func publicTrigger() {
        var d = ScriptDriver()
        d.input("trigger demo client-x {}\nsubscribe b")
        #expect(
            d.take() == [
                .commandError(
                    command: "trigger demo client-x {}", message: "client events need a private- or presence- channel"),
                .perform(.subscribe("b")),
            ])
        #expect(d.runner.exitCode == 1)
    }

    @Test("wait connected, wait state, wait subscribed, wait members: met as soon as true")
    func waits() {
        var d = ScriptDriver()
        d.input(
            "wait connected\nwait subscribed presence-r\nwait members presence-r 2\ndisconnect\nwait state disconnected 3\nquit"
        )
        d.tick(1)
        #expect(d.take().isEmpty)
        d.connect(at: 1.5)
        d.client(.subscribed(channel: "presence-r"), at: 1.6)
        d.client(.membersSnapshot(channel: "presence-r", members: [PresenceMember(id: "me")], myId: "me"), at: 1.6)
        #expect(d.take().isEmpty, "one member of two")
        d.client(.memberAdded(channel: "presence-r", PresenceMember(id: "bob")), at: 2)
        #expect(d.take() == [.perform(.disconnect)])
        d.client(
            .stateChanged(StateChangeRecord(previous: .connected, current: .disconnected, cause: .disconnectCalled)),
            at: 2.1)
        #expect(d.take() == [.finished])
        #expect(d.runner.exitCode == 0)
    }

    @Test(
        "waits that run out fail with what was seen instead",
        arguments: [
            ("wait connected", 10.0, "still connecting after 10 s, not connected (last cause: client started)"),
            ("wait state failed 0.5", 0.5, "still connecting after 0.5 s, not failed (last cause: client started)"),
            ("wait subscribed private-x 2", 2.0, "private-x not subscribed after 2 s"),
            ("wait event chat hello 1.5", 1.5, "no hello on chat within 1.5 s"),
            ("wait members presence-r 3 4s", 4.0, "presence-r has 0 members after 4 s, not 3"),
        ])
    func waitTimeouts(line: String, after: Double, message: String) {
        var d = ScriptDriver()
        d.client(.stateChanged(StateChangeRecord(previous: .initialized, current: .connecting, cause: .started)), at: 0)
        d.input(line + "\nquit")
        d.tick(after - 0.001)
        #expect(d.take().isEmpty)
        d.tick(after)
        #expect(d.take() == [.commandError(command: line, message: message), .finished])
        #expect(d.runner.exitCode == 1)
    }

    @Test("wait event counts only events after the command before it finished")
    func waitEventAfterPrevious() {
        var d = ScriptDriver()
        d.connect(at: 0, subscribing: ["private-c"])
        d.input("wait event private-c ready\ntrigger private-c client-go\nwait event private-c ready 5\nquit")
        d.client(.event(ChannelEventRecord(channel: "private-c", event: "ready")), at: 1)
        #expect(
            d.take() == [.perform(.trigger(channel: "private-c", event: "client-go", data: nil))],
            "the first wait is met; the second needs a ready after the trigger ran")
        d.client(.event(ChannelEventRecord(channel: "private-c", event: "other")), at: 2)
        d.client(.event(ChannelEventRecord(channel: "other", event: "ready")), at: 2)
        #expect(d.take().isEmpty)
        d.client(.event(ChannelEventRecord(channel: "private-c", event: "ready")), at: 3)
        #expect(d.take() == [.finished])
    }

    @Test("sign-in waits for its answer; a failure is a failed command")
    func signin() {
        var d = ScriptDriver()
        d.input("signin\nsubscribe presence-a\nquit")
        #expect(d.take() == [.perform(.signin)])
        d.client(.signinFailed(message: "auth endpoint answered HTTP 403"), at: 1)
        #expect(
            d.take() == [
                .commandError(command: "signin", message: "sign-in failed: auth endpoint answered HTTP 403"),
                .perform(.subscribe("presence-a")), .finished,
            ])
        var ok = ScriptDriver()
        ok.input("signin\nquit")
        _ = ok.take()
        ok.client(.signinSucceeded(memberId: "me", info: nil), at: 1)
        #expect(ok.take() == [.finished] && ok.runner.exitCode == 0)
    }

    @Test("end of input finishes after the commands before it; with --duration it does not")
    func endOfInput() {
        var d = ScriptDriver()
        d.input("wait connected")
        d.end(at: 0.5)
        #expect(d.take().isEmpty, "the wait is still running")
        d.connect(at: 1)
        #expect(d.take() == [.finished])
        var timed = ScriptDriver(endOfInputFinishes: false)
        timed.input("subscribe a")
        timed.end(at: 0)
        #expect(timed.take() == [.perform(.subscribe("a"))] && !timed.runner.isFinished)
    }

    @Test("bad lines fail in their turn (the output keeps the script's order); a refusal from the session counts too")
    func failures() {
        var ordered = ScriptDriver()
        ordered.input("wait connected\nfrobnicate\nsubscribe a")
        #expect(ordered.take().isEmpty, "the bad line waits for its turn")
        ordered.connect(at: 1)
        let turn = ordered.take()
        #expect(turn.count == 2 && turn.last == .perform(.subscribe("a")))
        if case .commandError(let command, _)? = turn.first {
            #expect(command == "frobnicate")
        } else {
            Issue.record("\(turn)")
        }
        var d = ScriptDriver()
        d.input("frobnicate\nwait\nwait state sleeping\nwait members p x\nwait connected 99999\nsubscribe a")
        let actions = d.take()
        #expect(actions.count == 6 && actions.last == .perform(.subscribe("a")))
        let messages = actions.compactMap { if case .commandError(_, let m) = $0 { return m } else { return nil } }
        #expect(messages.count == 5)
        #expect(messages[0].hasPrefix("unknown command frobnicate"))
        #expect(messages[2].hasPrefix("unknown state sleeping"))
        #expect(messages[3] == "wait members: N must be a whole number 0–1000000, not “x”")
        #expect(messages[4] == "a wait's timeout must be a number of seconds from 0 to 86400, not “99999”")
        var s = ScriptDriver()
        s.client(
            .commandError(command: "trigger private-a client-x", message: "private-a is not subscribed right now"),
            at: 1)
        #expect(s.runner.exitCode == 1)
    }

    @Test("stopping early (--duration, a signal) fails what is left; a pending quit just ends")
    func stop() {
        var d = ScriptDriver()
        d.input("wait connected\nsubscribe a\nquit")
        d.tick(2)
        let actions = d.runner.stop(reason: "--duration ended the run", at: .seconds(3))
        #expect(
            actions == [
                .commandError(command: "wait connected", message: "not finished after 3 s: --duration ended the run"),
                .commandError(command: "subscribe a", message: "not run: --duration ended the run"),
            ])
        #expect(d.runner.exitCode == 1 && d.runner.isFinished)
    }

    @Test("`unsubscribe` makes a later trigger wait again; leaving connected forgets subscriptions")
    func unsubscribeAndReconnect() {
        var d = ScriptDriver(timeout: .seconds(1))
        d.connect(at: 0, subscribing: ["private-a"])
        d.input("unsubscribe private-a\ntrigger private-a client-x")
        #expect(d.take() == [.perform(.unsubscribe("private-a"))])
        d.tick(1)
        #expect(
            d.take() == [
                .commandError(command: "trigger private-a client-x", message: "private-a not subscribed after 1 s")
            ])
        d.client(.subscribed(channel: "private-b"), at: 2)
        d.client(.stateChanged(StateChangeRecord(previous: .connected, current: .unavailable, cause: .dropped)), at: 3)
        d.input("trigger private-b client-y", at: 3)
        #expect(d.take().isEmpty, "private-b waits for its resubscription")
        d.client(.subscribed(channel: "private-b"), at: 3.5)
        #expect(d.take() == [.perform(.trigger(channel: "private-b", event: "client-y", data: nil))])
    }

    @Test("the TUI's command line explains that wait is for scripts")
    func waitOnTheCommandLine() {
        guard case .failure(let e) = CommandText.parse("wait connected") else {
            Issue.record("wait accepted on the : line")
            return
        }
        #expect(e.message.hasPrefix("wait … is for scripts on stdin (--jsonl)"))
        #expect(
            ScriptCommand.parse("wait event ch ev 2.5s")
                == .success(.wait(.event(channel: "ch", event: "ev"), timeout: .milliseconds(2500))))
        #expect(ScriptCommand.parse("Wait Connected") == .success(.wait(.state(.connected), timeout: nil)))
    }
}
