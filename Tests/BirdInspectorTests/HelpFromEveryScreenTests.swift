// `?` is reachable from every screen whose footer cannot show all its keys, and closing the help
// goes back to that screen.

import Testing

@testable import BirdInspector

@Suite("Help from every screen")
struct HelpFromEveryScreenTests {
    /// A harness with one log entry selected.
    static func harness() -> Harness {
        var h = Harness()
        h.connectAndSubscribe()
        h.events(3)
        return h
    }

    @Test("from the detail view: ? opens the help, Esc comes back to the same entry and scroll")
    func fromDetail() {
        var h = Self.harness()
        h.press(.enter)
        guard case .detail = h.model.mode else {
            Issue.record("Enter did not open the detail view: \(h.model.mode)")
            return
        }
        h.press(.down)
        let detail = h.model.mode
        h.type("?")
        #expect(h.model.mode == .help(scroll: 0))
        h.press(.escape)
        #expect(h.model.mode == detail)
        #expect(h.model.helpReturn == nil)
    }

    @Test("from the timeline and the close menu: ? opens the help, closing it comes back")
    func fromTimelineAndCloseMenu() {
        var h = Self.harness()
        h.type("T")
        guard case .timeline = h.model.mode else {
            Issue.record("T did not open the timeline: \(h.model.mode)")
            return
        }
        let timeline = h.model.mode
        h.type("?")
        #expect(h.model.mode == .help(scroll: 0))
        h.type("q")
        #expect(h.model.mode == timeline)

        h.press(.escape)
        h.model.mode = .closeMenu(selected: 2)
        h.type("?")
        #expect(h.model.mode == .help(scroll: 0))
        h.type("?")
        #expect(h.model.mode == .closeMenu(selected: 2))
    }

    @Test("from the main screen closing the help goes back to the main screen")
    func fromMain() {
        var h = Self.harness()
        h.type("?")
        #expect(h.model.mode == .help(scroll: 0))
        h.press(.escape)
        #expect(h.model.mode == .normal)
    }

    @Test(
        "every screen with keys its footer never shows has ? in its footer (the way to see them)",
        arguments: [KeyScope.main, .detail, .timeline, .closeMenu])
    func footerOffersHelp(scope: KeyScope) {
        let bindings = KeyBindings.scope(scope)
        let hidden = bindings.filter { !$0.inFooter }
        let help = bindings.first { $0.action == .help }
        if !hidden.isEmpty {
            #expect(help?.inFooter == true, "\(scope.rawValue) hides \(hidden.map(\.keyNames)) with no ? in its footer")
        }
    }

    @Test("the detail view's footer says ? more at 80 columns")
    func detailFooterSaysMore() {
        var h = Self.harness()
        h.press(.enter)
        let items = Inspector.footerItems(h.model, width: 80)
        #expect(items.contains { $0.key == "?" && $0.label == "more" }, "\(items)")
    }
}
