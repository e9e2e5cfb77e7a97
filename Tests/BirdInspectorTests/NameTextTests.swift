// Shortened names keep their start and their distinguishing end.

import Testing

@testable import BirdInspector

@Suite("Shortened names")
struct NameTextTests {
    @Test("a name that fits is whole; a long one keeps its start and its last part")
    func shorten() {
        #expect(DisplayWidth.shorten("demo-orders", to: 11) == "demo-orders")
        #expect(DisplayWidth.shorten("presence-support-escalations-emea", to: 18) == "presence-sup…-emea")
        #expect(DisplayWidth.shorten("presence-support-escalations-apac", to: 18) == "presence-sup…-apac")
        #expect(DisplayWidth.shorten("ticket-escalated-to-second-line", to: 14) == "ticket-e…-line")
        // The start keeps 7 columns, else the name is cut at its end.
        #expect(DisplayWidth.shorten("ticket-escalated-to-second-line", to: 12) == "ticket-esca…")
        #expect(DisplayWidth.shorten("presence-support-escalations-emea", to: 13) == "presenc…-emea")
        // No short last part: the start.
        #expect(DisplayWidth.shorten("abcdefghijklmnopqrstuvwxyz", to: 10) == "abcdefghi…")
        #expect(DisplayWidth.shorten("order-created", to: 10) == "order-cre…")
        // Very narrow: cut at the end.
        #expect(DisplayWidth.shorten("presence-demo", to: 5) == "pres…")
        for w in 1...40 {
            #expect(DisplayWidth.of(DisplayWidth.shorten("presence-support-escalations-emea", to: w)) <= w)
        }
    }
}
