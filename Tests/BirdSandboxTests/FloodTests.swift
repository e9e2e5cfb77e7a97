import BirdWire
import Foundation
import Testing

@testable import BirdSandbox

/// Four persistent flooders (raw sockets, reconnecting after every close) against the sandbox,
/// while a well-behaved client pings: each flood connection is closed with its documented code
/// (1008 for the budgets, 1009 for messages over 1 MiB), and the calm client's every `bird:ping`
/// is answered within a generous functional bound (2 s). The round trips are printed; they are
/// not a speed claim.
@Suite(.serialized) struct FloodTests {
    static let floods: [(name: String, payload: String, code: Int)] = [
        ("invalid JSON", "{x", 1008),
        ("valid pings", #"{"event":"bird:ping"}"#, 1008),
        ("60 KB messages", #"{"event":"bird:pong","data":""# + String(repeating: "p", count: 60_000) + #""}"#, 1008),
        (
            "oversized 1.1 MB messages",
            #"{"event":"bird:pong","data":""# + String(repeating: "p", count: 1_100_000) + #""}"#, 1009
        ),
    ]

    @Test(arguments: floods)
    func aFloodingClientIsClosedAndACalmClientKeepsWorking(name: String, payload: String, code: Int) async throws {
        // A budget well below what even a TSan build on a loaded machine reads per second: with the
        // defaults (2 MiB/s) a sandbox slowed that far never falls behind its own budget, so no flood
        // connection was ever closed. The mechanism under test is the same at any budget.
        var configuration = SandboxConfiguration(port: 0)
        configuration.inboundBudget = InboundBudget(
            messageBurst: 200, messagesPerSecond: 50, byteBurst: 1024 * 1024, bytesPerSecond: 128 * 1024)
        let sandbox = try Sandbox(configuration: configuration)
        try sandbox.start()
        defer { sandbox.stop(grace: 0) }
        let calm = TestClient(sandbox.endpoints.webSocketURL + "?protocol=7")
        _ = try #require(await calm.connectionId())

        let crew = FloodCrew(count: 4, port: sandbox.endpoints.port, frame: Flooder.frame(payload))
        // Wait for the flood to be under way (a first flood connection closed) before measuring.
        #expect(await eventually(seconds: 20) { crew.closeCodes.contains { $0 != nil } })
        var roundTrips: [Double] = []
        for n in 1...10 {
            let start = Date()
            calm.send("bird:ping")
            let answered = await calm.wait(2) { $0.messages.filter { $0.event == "bird:pong" }.count >= n }
            #expect(answered, "ping \(n) during the \(name) flood not answered within 2 s")
            roundTrips.append(Date().timeIntervalSince(start) * 1000)
            if !answered { break }
        }
        crew.stop()
        let codes = crew.closeCodes
        let sorted = roundTrips.sorted()
        print(
            "flood of \(name): \(codes.count) flood connections, \(codes.filter { $0 == code }.count) closed with \(code); "
                + "calm ping→pong ms: median \(String(format: "%.0f", sorted[sorted.count / 2])), "
                + "max \(String(format: "%.0f", sorted.last ?? 0))")
        #expect(codes.contains(code))
        #expect(codes.allSatisfy { $0 == nil || $0 == code }, "\(codes)")
        #expect(calm.closeInfo == nil)
        #expect(sandbox.connections().count >= 1)
    }
}
