// The `:` line: close CODE [REASON], help, unique prefixes, history, Tab completion, errors said once.

import Foundation
import Testing

@testable import BirdInspector

@Suite("Command line")
struct CommandLineTests {
    @Test("close CODE [REASON] closes this connection through the sandbox, as k does")
    func close() {
        var h = Harness()
        h.connectAndSubscribe()
        h.commands = []
        h.type(":close 4100\n")
        #expect(h.commands.last == .closeConnection(connectionId: "123.456", code: 4100, reason: "over capacity"))
        h.type(":close 4009\n")
        #expect(
            h.commands.last == .closeConnection(connectionId: "123.456", code: 4009, reason: "terminated by the app"))
        h.type(":close 4200 edge restarting now\n")
        #expect(h.commands.last == .closeConnection(connectionId: "123.456", code: 4200, reason: "edge restarting now"))
        h.commands = []
        h.type(":close 1006\n")
        #expect(h.commands.isEmpty)
        #expect(h.model.flash?.text.contains("CODE must be") == true)
        var bare = Harness(sandbox: false)
        bare.connectAndSubscribe()
        bare.commands = []
        bare.type(":close 4009\n")
        #expect(bare.commands.isEmpty)
        #expect(bare.model.flash?.text.contains("not attached to a sandbox") == true)
    }

    @Test("unique prefixes stand for commands; an ambiguous one names the candidates")
    func prefixes() throws {
        #expect(try CommandText.parse("sub chat").get() == .subscribe("chat"))
        #expect(try CommandText.parse("unsub chat").get() == .unsubscribe("chat"))
        #expect(try CommandText.parse("dis").get() == .disconnect)
        #expect(try CommandText.parse("dr").get() == .drop)
        #expect(try CommandText.parse("q").get() == .quit)
        #expect(
            try CommandText.parse("cl 4009").get()
                == .closeConnection(connectionId: "", code: 4009, reason: "terminated by the app"))
        guard case .failure(let e) = CommandText.parse("s chat") else { Issue.record("s is ambiguous"); return }
        #expect(e.message == "“s” could be subscribe, signin, signout, search: type more of it")
    }

    @Test("help opens the key help; an error says what is wrong once, and the log keeps the line")
    func helpAndErrors() {
        var h = Harness()
        h.connectAndSubscribe()
        h.type(":he\n")
        #expect(h.model.mode == .help(scroll: 0))
        h.type("\u{1B}")
        h.type(":frobnicate now\n")
        let flash = h.model.flash?.text ?? ""
        #expect(flash.hasPrefix("unknown command frobnicate"), "\(flash)")
        #expect(flash.components(separatedBy: "frobnicate").count == 2, "said once: \(flash)")
        // Too long for 80 columns: cut, and the footer says the whole text is in the log.
        let footer = h.render().lines[23]
        #expect(footer.hasSuffix("(whole text in the log)"), "\(footer)")
        if case .commandError(let c, let m) = h.model.log.entry(seq: h.model.log.lastSeq)?.event {
            #expect(c == "frobnicate now")
            #expect(m.hasSuffix("export, copy)"), "the whole message: \(m)")
        } else {
            Issue.record("command error not logged")
        }
    }

    @Test("↑/↓ recall earlier commands; Tab completes command and channel names")
    func historyAndCompletion() {
        var h = Harness()
        h.connectAndSubscribe()
        h.type(":")
        h.press(.up)
        #expect(h.model.mode == .prompt(Prompt(purpose: .command, text: "subscribe presence-room", historyIndex: 2)))
        h.press(.up)
        h.press(.up)
        h.press(.up)
        #expect(h.model.mode == .prompt(Prompt(purpose: .command, text: "subscribe chat", historyIndex: 0)))
        h.press(.down)
        #expect(h.model.mode == .prompt(Prompt(purpose: .command, text: "subscribe private-orders", historyIndex: 1)))
        h.press(.down)
        h.press(.down)
        #expect(h.model.mode == .prompt(Prompt(purpose: .command, text: "")))
        h.type("uns")
        h.press(.tab)
        #expect(h.model.mode == .prompt(Prompt(purpose: .command, text: "unsubscribe ")))
        h.type("pr")
        h.press(.tab)
        #expect(h.model.mode == .prompt(Prompt(purpose: .command, text: "unsubscribe pr")))
        #expect(h.model.flash?.text == "private-orders · presence-room")
        h.type("e")
        h.press(.tab)
        #expect(h.model.mode == .prompt(Prompt(purpose: .command, text: "unsubscribe presence-room ")))
        h.press(.ctrl("u"))
        h.type("s")
        h.press(.tab)
        #expect(
            h.model.mode == .prompt(Prompt(purpose: .command, text: "s")), "subscribe, signin, signout share only s")
        h.type("ig")
        h.press(.tab)
        #expect(h.model.mode == .prompt(Prompt(purpose: .command, text: "sign")))
        h.type("o\t")
        #expect(h.model.mode == .prompt(Prompt(purpose: .command, text: "signout ")))
    }

    @Test("a script's close CODE waits for the connection and closes it")
    func scriptClose() {
        var runner = ScriptRunner(defaultTimeout: .seconds(10))
        var actions = runner.input(line: "close 4200", at: .zero)
        #expect(!actions.contains { if case .perform = $0 { return true } else { return false } })
        actions = runner.observe(
            .stateChanged(
                StateChangeRecord(
                    previous: .connecting, current: .connected, cause: .handshake,
                    connectionId: "7.8")), at: .seconds(1))
        actions += runner.tick(at: .seconds(1))
        #expect(
            actions.contains(
                .perform(.closeConnection(connectionId: "7.8", code: 4200, reason: "generic reconnect immediately"))))
    }
}
