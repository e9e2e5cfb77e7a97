// Sign in as a member you choose (issue 17 item 7): `i` asks for the id (the default pre-filled),
// `:signin ID` and the headless `signin ID` name it; the sandbox's demo endpoint is asked for it.

import Foundation
import Testing

@testable import BirdInspector

@Suite("Sign in as a chosen member")
struct SigninChoiceTests {
    func harness(signinId: String? = "inspector") -> Harness {
        var h = Harness()
        h.model.config.signinId = signinId
        h.connectAndSubscribe()
        h.commands = []
        return h
    }

    @Test("i prompts with the default id pre-filled; Enter signs in as it")
    func defaultId() {
        var h = harness()
        h.type("i")
        #expect(h.model.mode == .prompt(Prompt(purpose: .signin, text: "inspector")))
        #expect(contains(h.render(), "sign in as member id [info JSON]: inspector"))
        h.press(.enter)
        #expect(h.commands == [.signinAs("inspector")])
        #expect(h.model.mode == .normal)
    }

    @Test("i with another id (and info) signs in as that one, which becomes the next default; Esc cancels")
    func chosenId() {
        var h = harness()
        h.type("i")
        h.press(.ctrl("u"))
        h.type("carol\n")
        #expect(h.commands == [.signinAs("carol")])
        #expect(h.model.config.signinId == "carol")
        h.commands = []
        h.type("i")
        h.press(.ctrl("u"))
        h.type(#"dave {"team":"ops"}"# + "\n")
        #expect(h.commands == [.signinAs("dave", info: #"{"team":"ops"}"#)])
        #expect(h.model.config.signinId == "dave")
        h.commands = []
        h.type("i\u{1B}")
        #expect(h.commands.isEmpty)
        #expect(h.model.mode == .normal)
        h.type("i")
        h.press(.ctrl("u"))
        h.type("no!way\n")
        #expect(h.commands.isEmpty)
        #expect(h.model.flash?.text.contains("may not contain") == true)
        h.press(.ctrl("u"))
        h.type("erin not-json\n")
        #expect(h.commands.isEmpty)
        #expect(h.model.flash?.text.contains("INFO must be a JSON object") == true)
    }

    @Test(":signin ID chooses the id; plain :signin keeps the endpoint's choice")
    func commandLine() {
        var h = harness()
        h.type(":signin dave\n")
        #expect(h.commands == [.signinAs("dave")])
        h.commands = []
        h.type(":signin\n")
        #expect(h.commands == [.signin])
        #expect(
            CommandText.parse(#"signin erin {"role": "ops", "n": 1}"#)
                == .success(.signinAs("erin", info: #"{"role": "ops", "n": 1}"#)))
        #expect(
            CommandText.parse("signin a b")
                == .failure(CommandTextError(#"signin a: INFO must be a JSON object, e.g. {"name":"Carol"}"#)))
        #expect(CommandText.parse("signin") == .success(.signin))
    }

    @Test("where the endpoint decides (no sandbox), i signs in at once and signin ID is refused")
    func endpointDecides() {
        var h = harness(signinId: nil)
        h.type("i")
        #expect(h.commands == [.signin])
        h.commands = []
        h.model.connection.memberId = nil
        h.type(":signin dave\n")
        #expect(h.commands.isEmpty)
        #expect(h.model.flash?.text.contains("decides who signs in") == true)
    }

    @Test("headless: signin ID is a script command")
    func headless() {
        guard case .success(.run(let command)) = ScriptCommand.parse("signin erin") else {
            Issue.record("signin erin did not parse")
            return
        }
        #expect(command == .signinAs("erin"))
    }

    @Test("the demo endpoint URL asks for the chosen member, replacing the default")
    func endpointURL() throws {
        let base = try #require(URL(string: "http://127.0.0.1:9/auth/member?member=inspector&x=1"))
        let url = MemberIdRules.url(base, member: "carol")
        #expect(url.absoluteString == "http://127.0.0.1:9/auth/member?x=1&member=carol")
        #expect(
            MemberIdRules.url(try #require(URL(string: "http://h/a")), member: "b").absoluteString
                == "http://h/a?member=b")
        let withInfo = MemberIdRules.url(base, member: "carol", info: #"{"role":"ops"}"#)
        #expect(withInfo.absoluteString.contains("member=carol&info=%7B%22role%22:%22ops%22%7D"), "\(withInfo)")
    }

    @Test("--user-id sets the default (and the presence identity with --sandbox); a bad id is refused")
    func userIdFlag() {
        guard case .success(.run(let o)) = Arguments.parse(["--sandbox", "--user-id", "zoe"]) else {
            Issue.record("--user-id zoe refused")
            return
        }
        #expect(o.memberId == "zoe" && o.config().signinId == "zoe")
        guard case .success(.run(let plain)) = Arguments.parse(["--app-key", "k"]) else { return }
        #expect(plain.config().signinId == nil)
        guard case .failure(let e) = Arguments.parse(["--sandbox", "--user-id", "a b"]) else {
            Issue.record("a bad id was accepted")
            return
        }
        #expect(e.message.contains("may not contain"))
    }
}
