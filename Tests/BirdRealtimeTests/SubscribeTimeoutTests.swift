import BirdRealtimeTestSupport
import Foundation
import Testing

@testable import BirdRealtime

@Suite("Subscribe timeouts: one timer for every pending subscription")
struct SubscribeTimeoutTests {
    /// Binds `subscription_error` on `channels`, recording each error's channel and type.
    private static func recordErrors(_ channels: [Channel]) -> TestBox<[String]> {
        let errors = TestBox<[String]>([])
        for channel in channels {
            let name = channel.name
            channel.bind(BirdProtocol.Event.subscriptionError) { data in
                errors.mutate { $0.append("\(name) \(data?["type"]?.stringValue ?? "?")") }
            }
        }
        return errors
    }

    @Test(
        "300 pending subscriptions put one timer on the clock; answered, refused and unsubscribed ones never time out")
    func manyChannels() async throws {
        let h = Harness()
        let early = (0..<200).map { h.bird.subscribe(String(format: "early-%03d", $0)) }
        let errors = Self.recordErrors(early)
        let socket = try await h.connect(activityTimeout: 600)
        // The activity check and the subscribe timer: not a timer per subscription.
        #expect(h.clock.pendingCount == 2)
        await h.advance(.seconds(3))
        let late = (0..<100).map { h.bird.subscribe(String(format: "late-%03d", $0)) }
        let lateErrors = Self.recordErrors(late)
        await h.settle()
        #expect(h.subscribed(on: socket).count == 300)
        #expect(h.clock.pendingCount == 2)

        // Of each ten: 0 and 7 stay unanswered, 3 is refused, 5 is unsubscribed, the rest succeed.
        for (index, channel) in (early + late).enumerated() {
            switch index % 10 {
            case 0, 7: break
            case 3:
                socket.receive(
                    event: "bird:error", channel: channel.name, data: ["code": 4009, "message": "refused"])
            case 5: h.bird.unsubscribe(channel.name)
            default: try await h.succeed(channel.name)
            }
        }
        await h.settle()
        let refused = (early + late).enumerated().filter { $0.offset % 10 == 3 }.map {
            "\($0.element.name) ServerError"
        }
        let unanswered = { (channels: [Channel]) in
            channels.enumerated().filter { [0, 7].contains($0.offset % 10) }.map { "\($0.element.name) Timeout" }
        }
        let refusedEarly = refused.filter { $0.hasPrefix("early") }
        let refusedLate = refused.filter { $0.hasPrefix("late") }

        await h.advance(.milliseconds(6_999))  // t = 9.999 s
        #expect(errors.get == refusedEarly)
        #expect(lateErrors.get == refusedLate)
        await h.advance(.milliseconds(1))  // t = 10 s: the first subscriptions' deadline
        #expect(errors.get == refusedEarly + unanswered(early), "the unanswered early ones, in subscription order")
        #expect(lateErrors.get == refusedLate)
        await h.advance(.milliseconds(2_999))  // t = 12.999 s
        #expect(lateErrors.get == refusedLate)
        await h.advance(.milliseconds(1))  // t = 13 s
        #expect(lateErrors.get == refusedLate + unanswered(late))
        #expect(errors.get == refusedEarly + unanswered(early))
        // Every deadline has been served: only the activity check is left.
        #expect(h.clock.pendingCount == 1)
        await h.advance(.seconds(60))
        #expect(errors.get.count == refusedEarly.count + 40)
        #expect(lateErrors.get.count == refusedLate.count + 20)
    }

    @Test("the earliest deadline answered: the next one still times out at its own deadline")
    func earliestRemoved() async throws {
        let h = Harness()
        let a = h.bird.subscribe("a")
        let errors = Self.recordErrors([a])
        try await h.connect(activityTimeout: 600)
        await h.advance(.seconds(4))
        let b = h.bird.subscribe("b")
        let bErrors = Self.recordErrors([b])
        await h.settle()
        await h.advance(.seconds(1))  // t = 5 s
        try await h.succeed("a")
        await h.advance(.seconds(5))  // t = 10 s: a's deadline, nothing due
        #expect(errors.get.isEmpty)
        #expect(bErrors.get.isEmpty)
        await h.advance(.milliseconds(3_999))  // t = 13.999 s
        #expect(bErrors.get.isEmpty)
        await h.advance(.milliseconds(1))  // t = 14 s: b's deadline
        #expect(bErrors.get == ["b Timeout"])
        #expect(errors.get.isEmpty)
        #expect(h.clock.pendingCount == 1, "the activity check only")
    }

    @Test("the last pending subscription answered: the subscribe timer is cancelled")
    func lastAnsweredCancels() async throws {
        let h = Harness()
        h.bird.subscribe("a")
        h.bird.subscribe("b")
        try await h.connect(activityTimeout: 600)
        #expect(h.clock.pendingCount == 2)
        try await h.succeed("a")
        #expect(h.clock.pendingCount == 2)
        try await h.succeed("b")
        #expect(h.clock.pendingCount == 1)
    }

    // MARK: - The value types

    @Test("SubscribeTimeouts: armed for the first deadline, not re-armed for later ones, cancelled when none is left")
    func timerActions() {
        var t = SubscribeTimeouts()
        #expect(t.start("a", token: 1, now: .seconds(0), timeout: .seconds(10)) == .arm(after: .seconds(10)))
        #expect(t.start("b", token: 1, now: .seconds(4), timeout: .seconds(10)) == nil)
        #expect(t.start("c", token: 1, now: .seconds(4), timeout: .seconds(10)) == nil)
        #expect(t.stop("a") == nil, "the armed timer stays; it finds nothing due")
        #expect(t.count == 2 && !t.isWaiting("a"))
        let atTen = t.timerFired(now: .seconds(10))
        #expect(atTen.due.isEmpty)
        #expect(atTen.next == .arm(after: .seconds(4)))
        #expect(t.stop("c") == nil)
        let atFourteen = t.timerFired(now: .seconds(14))
        #expect(atFourteen.due == [SubscribeTimeouts.Due(channel: "b", token: 1)])
        #expect(atFourteen.next == nil)
        #expect(t.armedFor == nil && t.count == 0)
        // A fresh deadline arms again; answering it cancels.
        #expect(t.start("d", token: 2, now: .seconds(20), timeout: .seconds(10)) == .arm(after: .seconds(10)))
        #expect(t.stop("d") == .cancel)
        #expect(t.stop("d") == nil)
        #expect(t.armedFor == nil)
    }

    @Test("SubscribeTimeouts: an earlier deadline re-arms; a timer that fires early re-arms for the rest")
    func earlierAndEarly() {
        var t = SubscribeTimeouts()
        #expect(t.start("a", token: 1, now: .zero, timeout: .seconds(10)) == .arm(after: .seconds(10)))
        #expect(t.start("b", token: 1, now: .seconds(1), timeout: .seconds(2)) == .arm(after: .seconds(2)))
        #expect(t.start("c", token: 7, now: .seconds(1), timeout: .seconds(-5)) == .arm(after: .zero))
        // c's deadline is t = 1 s (a negative timeout counts as zero); the timer fires 1 ms early.
        let early = t.timerFired(now: .milliseconds(999))
        #expect(early.due.isEmpty)
        #expect(early.next == .arm(after: .milliseconds(1)))
        let atOne = t.timerFired(now: .seconds(1))
        #expect(atOne.due == [SubscribeTimeouts.Due(channel: "c", token: 7)])
        #expect(atOne.next == .arm(after: .seconds(2)))
        let atThree = t.timerFired(now: .seconds(3))
        #expect(atThree.due == [SubscribeTimeouts.Due(channel: "b", token: 1)])
        #expect(atThree.next == .arm(after: .seconds(7)))
        #expect(t.stopAll() == .cancel)
        #expect(t.count == 0)
        #expect(t.timerFired(now: .seconds(10)).due.isEmpty)
    }

    @Test("DeadlineQueue agrees with a sorted list through 20,000 random sets, removals and expiries")
    func deadlineQueueModel() {
        var random = SeededRandom(seed: 19)
        var queue = DeadlineQueue<Int, Int>()
        // The model: (deadline, order, key, value), kept sorted by deadline then order.
        var model: [(deadline: Int, order: Int, key: Int, value: Int)] = []
        var order = 0
        var now = 0
        for step in 0..<20_000 {
            let key = Int(random.next() % 64)
            switch random.next() % 4 {
            case 0, 1:
                let deadline = now + Int(random.next() % 50)
                queue.set(key, at: .milliseconds(deadline), value: step)
                model.removeAll { $0.key == key }
                model.append((deadline, order, key, step))
                order += 1
                model.sort { $0.deadline != $1.deadline ? $0.deadline < $1.deadline : $0.order < $1.order }
            case 2:
                let removed = queue.remove(key)
                let expected = model.first { $0.key == key }?.value
                model.removeAll { $0.key == key }
                #expect(removed == expected, "step \(step)")
            default:
                now += Int(random.next() % 20)
                let due = queue.removeDue(now: .milliseconds(now))
                let expected = model.prefix { $0.deadline <= now }
                model.removeFirst(expected.count)
                #expect(due.map(\.key) == expected.map(\.key), "step \(step)")
                #expect(due.map(\.value) == expected.map(\.value), "step \(step)")
            }
            #expect(queue.count == model.count)
            #expect(queue.earliest == model.first.map { .milliseconds($0.deadline) })
            if queue.count != model.count { return }
        }
    }
}
