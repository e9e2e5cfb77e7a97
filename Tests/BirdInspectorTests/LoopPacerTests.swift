// The TUI main loop's schedule (LoopPacer): a key never waits behind a whole inbox, turns stay
// bounded, client redraws are coalesced to 30 per second and ticks come 10 times a second — on a
// given clock, no real time.

import Foundation
import Testing

@testable import BirdInspector

@Suite("Main loop schedule: keys first, bounded batches, coalesced frames")
struct LoopPacerTests {
    let start = Date(timeIntervalSince1970: 1_000_000)

    /// Plays one turn against an inbox of `waiting` items with a key arriving once `keyAfter`
    /// items have been handled: how many items were handled before the key was, and in all.
    func turn(_ pacer: inout LoopPacer, waiting: Int, keyAfter: Int) -> (beforeKey: Int?, handled: Int) {
        var left = waiting
        var handled = 0
        var beforeKey: Int?
        pacer.turnBegins()
        while true {
            let taken = min(pacer.batch, left)
            left -= taken
            handled += taken
            if pacer.drained(taken, changed: taken > 0) == .done { break }
            // The loop looks for input between batches.
            if beforeKey == nil && handled >= keyAfter { beforeKey = handled }
        }
        return (beforeKey, handled)
    }

    @Test("a key that arrives during a flood is handled after one batch, not after the whole inbox")
    func keyWaitsOneBatch() {
        var pacer = LoopPacer(start: start)
        let (beforeKey, handled) = turn(&pacer, waiting: 20_000, keyAfter: 1)
        #expect(beforeKey == pacer.batch)
        #expect(pacer.batch <= 500)
        // The turn still ends, so the read, the tick and the frame get their turn.
        #expect(handled == pacer.batch * pacer.batchesPerTurn)
    }

    @Test("draining stops at a batch that was not full (the inbox is empty)")
    func shortBatchEndsTheDrain() {
        var pacer = LoopPacer(start: start, batch: 100, batchesPerTurn: 10)
        pacer.turnBegins()
        #expect(pacer.drained(100, changed: true) == .pollThenDrain)
        #expect(pacer.drained(99, changed: true) == .done)
        // A new turn counts its batches afresh.
        pacer.turnBegins()
        for _ in 0..<9 { #expect(pacer.drained(100, changed: true) == .pollThenDrain) }
        #expect(pacer.drained(100, changed: true) == .done)
    }

    @Test("client messages are drawn at most 30 times a second; a key is drawn at once and restarts the wait")
    func framesCoalesced() {
        var pacer = LoopPacer(start: start)
        _ = pacer.drained(1, changed: true)
        #expect(pacer.turnEnds(at: start) == .init(tick: false, draw: true))  // the first frame
        pacer.frameDrawn(at: start)
        _ = pacer.drained(1, changed: true)
        #expect(pacer.turnEnds(at: start.addingTimeInterval(0.02)).draw == false)
        #expect(pacer.turnEnds(at: start.addingTimeInterval(0.034)).draw == true)
        // Input drawn at 0.04: the next client frame waits a frame's time from there.
        pacer.inputDrawn(at: start.addingTimeInterval(0.04))
        _ = pacer.drained(1, changed: true)
        #expect(pacer.turnEnds(at: start.addingTimeInterval(0.06)).draw == false)
        #expect(pacer.turnEnds(at: start.addingTimeInterval(0.075)).draw == true)
    }

    @Test("nothing new: no frame, and the read waits a whole frame's time")
    func idle() {
        var pacer = LoopPacer(start: start)
        #expect(pacer.readTimeoutMilliseconds == 10)  // the first frame is owed
        pacer.frameDrawn(at: start)
        #expect(pacer.readTimeoutMilliseconds == 33)
        pacer.turnBegins()
        #expect(pacer.drained(0, changed: false) == .done)
        #expect(pacer.turnEnds(at: start.addingTimeInterval(0.05)) == .init(tick: false, draw: false))
    }

    @Test("a tick every 100 ms, and each one owes a frame (the countdown moves)")
    func ticks() {
        var pacer = LoopPacer(start: start)
        pacer.frameDrawn(at: start)
        #expect(pacer.turnEnds(at: start.addingTimeInterval(0.09)) == .init(tick: false, draw: false))
        #expect(pacer.turnEnds(at: start.addingTimeInterval(0.1)) == .init(tick: true, draw: true))
        pacer.frameDrawn(at: start.addingTimeInterval(0.1))
        #expect(pacer.turnEnds(at: start.addingTimeInterval(0.15)).tick == false)
        #expect(pacer.turnEnds(at: start.addingTimeInterval(0.2)).tick == true)
    }
}
