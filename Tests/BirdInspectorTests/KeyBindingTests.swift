// The key table: every binding documented, none shadowed, and it really drives dispatch.

import Foundation
import Testing

@testable import BirdInspector

@Suite("Key bindings")
struct KeyBindingTests {
    @Test("no key is bound twice in one scope")
    func noneShadowed() {
        for scope in KeyScope.allCases {
            var seen: [Key: Action] = [:]
            for b in KeyBindings.scope(scope) {
                for key in b.keys {
                    #expect(seen[key] == nil, "\(key.name) in \(scope.rawValue) is bound to \(seen[key]?.rawValue ?? "") and \(b.action.rawValue)")
                    seen[key] = b.action
                }
            }
        }
    }

    @Test("every binding has keys, a label and help; every action appears once per scope")
    func documented() {
        for b in KeyBindings.all {
            #expect(!b.keys.isEmpty)
            #expect(!b.label.isEmpty, "\(b.action)")
            #expect(b.help.count >= 6, "\(b.action) help")
        }
        for scope in KeyScope.allCases {
            let actions = KeyBindings.scope(scope).map(\.action)
            #expect(Set(actions).count == actions.count, "\(scope.rawValue) repeats an action")
        }
    }

    @Test("the issue's keys are all in the main table")
    func issueKeys() {
        let expected: [(Key, Action)] = [
            (.char("s"), .subscribe), (.char("u"), .unsubscribe), (.char("t"), .trigger), (.char("i"), .signin),
            (.char("o"), .signout), (.char("d"), .disconnect), (.char("c"), .connect), (.char("x"), .drop),
            (.char("k"), .closeMenu), (.char("/"), .filter), (.char("p"), .pause), (.char("G"), .follow), (.end, .follow),
            (.enter, .detail), (.tab, .nextPane), (.char(":"), .commandLine), (.char("?"), .help), (.char("q"), .quit),
        ]
        for (key, action) in expected { #expect(KeyBindings.binding(for: key, in: .main)?.action == action, "\(key.name)") }
    }

    @Test("docs/INSPECTOR.md carries the generated key reference")
    func docsMatchTable() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let docs = try String(contentsOf: root.appendingPathComponent("docs/INSPECTOR.md"), encoding: .utf8)
        #expect(docs.contains(KeyBindings.markdown), "regenerate the key reference: bird-inspect --keys-markdown")
    }

    @Test("an unavailable key does nothing and the footer says why")
    func unavailableRefuses() {
        var h = Harness(sandbox: false)
        h.client(.stateChanged(StateChangeRecord(previous: .initialized, current: .connecting, cause: .started)), at: 0)
        h.type("k")
        #expect(h.commands.isEmpty)
        #expect(h.model.mode == .normal)
        #expect(h.model.flash?.isError == true)
        #expect(h.model.flash?.text.contains("not attached to a sandbox") == true)
        #expect(contains(h.render(), "not attached to a sandbox"))
        h.type("o")
        #expect(h.model.flash?.text.contains("not signed in") == true)
    }

    @Test("the footer shows keys, dims unavailable ones and always keeps ? and q", arguments: screenSizes)
    func footer(size: Size) {
        var h = Harness(size: size)
        h.connectAndSubscribe()
        let g = h.render()
        let footer = g.lines[size.height - 1]
        #expect(footer.contains(" ? help"))
        #expect(footer.contains(" q quit"))
        #expect(footer.contains(" s subscribe"))
        if size.width >= 200 { #expect(footer.contains(" x drop") && footer.contains(" : command")) }
        // "o sign out" is unavailable (not signed in): drawn dim when shown.
        if let x = footer.range(of: " o ").map({ footer.distance(from: footer.startIndex, to: $0.lowerBound) }) {
            #expect(g[x + 1, size.height - 1].style.role == .dim)
        }
    }
}
