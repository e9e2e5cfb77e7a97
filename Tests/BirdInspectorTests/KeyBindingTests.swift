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
                    #expect(
                        seen[key] == nil,
                        "\(key.name) in \(scope.rawValue) is bound to \(seen[key]?.rawValue ?? "") and \(b.action.rawValue)"
                    )
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
            (.char("k"), .closeMenu), (.char("/"), .filter), (.char("p"), .pause), (.char("G"), .follow),
            (.end, .follow),
            (.enter, .detail), (.tab, .nextPane), (.char(":"), .commandLine), (.char("?"), .help), (.char("q"), .quit),
        ]
        for (key, action) in expected {
            #expect(KeyBindings.binding(for: key, in: .main)?.action == action, "\(key.name)")
        }
    }

    @Test("docs/INSPECTOR.md carries the generated key reference")
    func docsMatchTable() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
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

    @Test(
        "the footer shows every footer key at 80, 120 and 200 columns, abbreviating labels to fit",
        arguments: [Size(width: 80, height: 24), Size(width: 120, height: 40), Size(width: 200, height: 50)])
    func footer(size: Size) {
        var h = Harness(size: size)
        h.connectAndSubscribe()
        let g = h.render()
        let footer = g.lines[size.height - 1]
        let items = Inspector.footerItems(h.model, width: size.width)
        // Every footer key of the main table is there, in table order, available or not.
        let keys = KeyBindings.scope(.main).filter(\.inFooter).map { $0.keys[0].name }
        #expect(items.map(\.key) == keys)
        // Keys the footer never shows (f find, w write…) are behind `?`, and the footer says so.
        #expect(footer.contains("? more"), "\(footer)")
        #expect(footer.hasPrefix("s "), "\(footer)")
        // The letters that act on the connection keep at least their abbreviation when available.
        for (key, short) in [
            ("s", "sub"), ("u", "unsub"), ("t", "trig"), ("i", "in"), ("d", "disc"), ("x", "drop"), ("k", "close"),
        ] {
            let item = items.first { $0.key == key }
            #expect(item?.ok == true, "\(key) available")
            let b = KeyBindings.binding(for: .char(Character(key)), in: .main)
            #expect(b?.short == short)
            #expect(
                item.map { $0.label == b?.label || $0.label == short } == true, "\(key): \(String(describing: item))")
            #expect(footer.contains("\(key) \(item?.label ?? "?")"), "\(footer)")
        }
        #expect(DisplayWidth.of(footer.trimmingCharacters(in: .whitespaces)) <= size.width)
        if size.width >= 200 {
            #expect(footer.contains("x drop") && footer.contains(": command") && footer.contains("q quit"))
        }
        if size.width == 80 {
            #expect(footer.contains("d disc") && footer.contains("k close") && footer.contains("u unsub"))
        }
        // "o" (sign out) is unavailable (not signed in): shown, dimmed.
        let o = items.first { $0.key == "o" }
        #expect(o?.ok == false)
        if let x = footer.range(of: " o").map({ footer.distance(from: footer.startIndex, to: $0.lowerBound) }) {
            #expect(g[x + 1, size.height - 1].style.role == .dim)
        } else {
            Issue.record("o missing: \(footer)")
        }
    }

    @Test("unavailable keys are dimmed, never hidden, in every state: disconnected, failed, replaying")
    func unavailableDimmedEverywhere() {
        var h = Harness(size: Size(width: 80, height: 24))
        h.connectAndSubscribe()
        h.type("d")
        h.client(
            .stateChanged(StateChangeRecord(previous: .connected, current: .disconnected, cause: .disconnectCalled)),
            at: 7)
        h.tick(14)
        for model in [h.model] {
            let items = Inspector.footerItems(model, width: 80)
            #expect(items.count == KeyBindings.scope(.main).filter(\.inFooter).count)
            #expect(items.first { $0.key == "d" }?.ok == false)
            #expect(items.first { $0.key == "c" }?.ok == true)
            #expect(items.first { $0.key == "c" }?.label.isEmpty == false, "an available letter keeps a label at 80")
        }
    }
}
