import BirdWire
import Testing

@testable import BirdSandbox

@Suite struct PresenceRosterTests {
    @Test func firstConnectionAddsLaterOnesDoNot() {
        var roster = PresenceRoster()
        #expect(roster.add(memberId: "a", info: ["n": 1], connection: "1.1") == .added)
        #expect(roster.add(memberId: "a", info: ["n": 2], connection: "1.2") == .alreadyPresent)
        #expect(roster.count == 1)
        #expect(roster.connectionCount(of: "a") == 2)
        #expect(roster.info(of: "a") == ["n": 1])
    }

    @Test func removedOnlyWithTheLastConnection() {
        var roster = PresenceRoster()
        _ = roster.add(memberId: "a", info: nil, connection: "1.1")
        _ = roster.add(memberId: "a", info: nil, connection: "1.2")
        #expect(roster.remove(memberId: "a", connection: "1.1") == false)
        #expect(roster.contains("a"))
        #expect(roster.remove(memberId: "a", connection: "1.2") == true)
        #expect(roster.isEmpty)
        #expect(roster.remove(memberId: "a", connection: "1.2") == false)
    }

    @Test func capacityRefusesNewMembersButNotNewConnections() {
        var roster = PresenceRoster(capacity: 2)
        #expect(roster.add(memberId: "a", info: nil, connection: "1") == .added)
        #expect(roster.add(memberId: "b", info: nil, connection: "2") == .added)
        #expect(roster.add(memberId: "c", info: nil, connection: "3") == .full)
        #expect(roster.add(memberId: "a", info: nil, connection: "4") == .alreadyPresent)
    }

    @Test func presenceObjectListsIdsHashAndCount() {
        var roster = PresenceRoster()
        _ = roster.add(memberId: "b", info: ["name": "B"], connection: "1")
        _ = roster.add(memberId: "a", info: nil, connection: "2")
        let object = roster.presenceObject
        #expect(object["ids"] == ["b", "a"])
        #expect(object["count"] == 2)
        #expect(object["hash"]?["b"] == ["name": "B"])
        #expect(object["hash"]?["a"] == .null)
    }
}

@Suite struct ClientEventRateLimiterTests {
    @Test func tenPerSlidingSecond() {
        var limiter = ClientEventRateLimiter()
        var results: [Bool] = []
        for i in 0..<10 { results.append(limiter.allow(now: 100 + Double(i) * 0.05)) }
        #expect(results == Array(repeating: true, count: 10))
        let late = [100.6, 100.99, 101.0, 101.01].map { limiter.allow(now: $0) }
        #expect(late == [false, false, true, false])  // at 101.0 the first event left the window
    }
}
