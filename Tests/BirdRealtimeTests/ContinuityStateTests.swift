import Testing

@testable import BirdRealtime

/// A channel's continuity as a value (docs/LIFECYCLE.md § Continuity): the position sent, the
/// edge's answer turned into what the app is told, and duplicates never admitted twice.
@Suite("ContinuityState: resume positions, answers and duplicates as a value")
struct ContinuityStateTests {
    /// A state that subscribed once (fresh, head `head` in epoch `epoch`) and admitted `offsets`.
    static func running(epoch: String = "e1", head: Int = 0, admitted offsets: ClosedRange<Int>? = nil)
        -> ContinuityState
    {
        var state = ContinuityState()
        #expect(state.subscribing(dialectHasOffsets: true) == nil)
        #expect(state.subscribed(head: head, continuity: WireContinuity(epoch: epoch)) == .fresh)
        for offset in offsets.map(Array.init) ?? [] {
            let admitted = state.admit(offset: offset)
            #expect(admitted)
        }
        return state
    }

    @Test("the first subscription is fresh and starts at the head")
    func fresh() {
        let state = Self.running(head: 7)
        #expect(state.position == StreamPosition(epoch: "e1", offset: 7))
    }

    @Test("every resubscribe sends the last processed position")
    func sendsPosition() {
        var state = Self.running(admitted: 1...5)
        #expect(state.subscribing(dialectHasOffsets: true) == StreamPosition(epoch: "e1", offset: 5))
        #expect(state.asked == StreamPosition(epoch: "e1", offset: 5))
        #expect(state.subscribing(dialectHasOffsets: false) == nil, "the Pusher dialect sends none")
    }

    @Test("recovered: the replay is admitted once, duplicates of delivered events never")
    func recoveredWithoutDuplicates() {
        var state = Self.running(admitted: 1...5)
        _ = state.subscribing(dialectHasOffsets: true)
        #expect(state.subscribed(head: 9, continuity: WireContinuity(epoch: "e1", recovered: true)) == .recovered)
        // An edge that replays too much (3…9): 3, 4, 5 were delivered already.
        let admitted = (3...9).filter { state.admit(offset: $0) }
        #expect(admitted == [6, 7, 8, 9])
        #expect((1...9).filter { state.admit(offset: $0) }.isEmpty, "nothing twice")
        let admitted10 = state.admit(offset: 10)
        #expect(admitted10)
    }

    @Test("missed N: told exactly N, the replay after the gap admitted, the gap not counted again")
    func missed() {
        var state = Self.running(admitted: 1...5)
        _ = state.subscribing(dialectHasOffsets: true)
        #expect(
            state.subscribed(head: 40, continuity: WireContinuity(epoch: "e1", recovered: false, missed: 25))
                == .missed(25))
        #expect((31...40).allSatisfy { state.admit(offset: $0) })
        #expect(state.position == StreamPosition(epoch: "e1", offset: 40))

        // All missed, nothing replayed: the next resume starts after the gap.
        var empty = Self.running(admitted: 1...5)
        _ = empty.subscribing(dialectHasOffsets: true)
        #expect(
            empty.subscribed(head: 9, continuity: WireContinuity(epoch: "e1", recovered: false, missed: 4))
                == .missed(4))
        #expect(empty.subscribing(dialectHasOffsets: true)?.offset == 9)
    }

    @Test("a missed count beyond the head cannot silence live events")
    func hostileMissed() {
        var state = Self.running(admitted: 1...5)
        _ = state.subscribing(dialectHasOffsets: true)
        _ = state.subscribed(head: 6, continuity: WireContinuity(epoch: "e1", recovered: false, missed: .max))
        let admitted7 = state.admit(offset: 7)
        #expect(admitted7)
    }

    @Test("another epoch: unknown, and the new stream's offsets (from 1 again) are delivered")
    func epochChanged() {
        var state = Self.running(admitted: 1...100)
        _ = state.subscribing(dialectHasOffsets: true)
        #expect(
            state.subscribed(head: 0, continuity: WireContinuity(epoch: "e2", recovered: false))
                == .unknown(.epochChanged))
        let admitted1 = state.admit(offset: 1)
        #expect(admitted1)
        #expect(state.position == StreamPosition(epoch: "e2", offset: 1))
    }

    @Test("an edge without continuity: fresh the first time, then unknown (not supported); offsets forgotten")
    func notSupported() {
        var state = ContinuityState()
        _ = state.subscribing(dialectHasOffsets: false)
        #expect(state.subscribed(head: nil, continuity: nil) == .fresh)
        _ = state.subscribing(dialectHasOffsets: false)
        #expect(state.subscribed(head: nil, continuity: nil) == .unknown(.notSupported))
        #expect(state.position == nil)
    }

    @Test("an edge that ignores the position: unknown (not answered)")
    func notAnswered() {
        var state = Self.running(admitted: 1...3)
        _ = state.subscribing(dialectHasOffsets: true)
        #expect(state.subscribed(head: 8, continuity: WireContinuity(epoch: "e1")) == .unknown(.notAnswered))
        #expect(state.position == StreamPosition(epoch: "e1", offset: 8))
    }

    @Test("a position supplied by the app: the first subscription resumes from it")
    func suppliedPosition() {
        var state = ContinuityState(resumingFrom: StreamPosition(epoch: "e1", offset: 42))
        #expect(state.subscribing(dialectHasOffsets: true) == StreamPosition(epoch: "e1", offset: 42))
        #expect(state.subscribed(head: 50, continuity: WireContinuity(epoch: "e1", recovered: true)) == .recovered)
        let admitted42 = state.admit(offset: 42)
        #expect(!admitted42)
        let admitted43 = state.admit(offset: 43)
        #expect(admitted43)

        var pusher = ContinuityState(resumingFrom: StreamPosition(epoch: "e1", offset: 42))
        #expect(pusher.subscribing(dialectHasOffsets: false) == nil)
        #expect(pusher.subscribed(head: nil, continuity: nil) == .unknown(.notSupported))
    }

    @Test("the public summary: recovered and missed")
    func summary() {
        #expect(ChannelContinuity.recovered.recovered == true && ChannelContinuity.recovered.missed == 0)
        #expect(ChannelContinuity.missed(3).recovered == false && ChannelContinuity.missed(3).missed == 3)
        #expect(ChannelContinuity.unknown(.epochChanged).recovered == nil)
        #expect(ChannelContinuity.fresh.missed == nil)
    }
}
