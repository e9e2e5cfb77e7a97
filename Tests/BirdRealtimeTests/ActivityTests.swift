import BirdRealtime
import BirdRealtimeTestSupport
import Foundation
import Testing

@Suite("onActivity: every notification in one ordered stream")
struct ActivityTests {
    /// Short tags for what an activity observer saw.
    static func tag(_ activity: ClientActivity) -> String {
        switch activity {
        case .stateChange(let change): return "state:\(change.current)"
        case .retryScheduled(let schedule): return "retry:\(schedule.attempt)"
        case .error(let error): return "error:\(error.kind)"
        case .signinError: return "signin-error"
        case .wireMessage(let direction, let text):
            return "\(direction == .inbound ? "in" : "out"):\((try? WireMessage.decode(text))?.event ?? "?")"
        case .networkPath(let path): return "network:\(path.isUsable ? "usable" : "down")"
        case .endpoint(let resolution): return "endpoint:\(resolution)"
        case .roundTrip(let rtt): return "rtt:\(rtt)"
        }
    }

    @Test("registered after the handshake, it gets the connection from connecting, in order, then live")
    func lateRecorder() async throws {
        let h = Harness()
        let socket = try await h.connect()
        let seen = TestBox<[String]>([])
        h.bird.onActivity { activity in seen.mutate { $0.append(Self.tag(activity)) } }
        await h.settle()
        #expect(seen.get == ["state:connecting", "in:bird:connection_established", "state:connected"])
        socket.receive("not json")
        socket.networkFailure()
        await h.settle()
        #expect(
            seen.get.suffix(4) == ["in:?", "error:invalidJSON", "state:unavailable", "retry:0"])
    }

    @Test("unbind stops it")
    func unbind() async throws {
        let h = Harness()
        try await h.connect()
        let seen = TestBox(0)
        let token = h.bird.onActivity { _ in seen.mutate { $0 += 1 } }
        await h.settle()
        h.bird.unbind(token)
        h.bird.disconnect()
        await h.settle()
        #expect(seen.get == 3)
    }

    @Test("connected carries the negotiated activity timeout: the smaller of option and handshake")
    func negotiatedTimeout() async throws {
        let shorterServer = Harness()
        try await shorterServer.connect(activityTimeout: 30)
        #expect(shorterServer.recorder.changes.last?.activityTimeout == .seconds(30))
        #expect(shorterServer.recorder.changes.first?.activityTimeout == nil)

        let shorterOption = Harness { $0.activityTimeout = .seconds(20) }
        try await shorterOption.connect(activityTimeout: 120)
        #expect(shorterOption.recorder.changes.last?.activityTimeout == .seconds(20))

        let silentServer = Harness()
        try await silentServer.connect(activityTimeout: nil)
        #expect(silentServer.recorder.changes.last?.activityTimeout == .seconds(120))
    }
}
