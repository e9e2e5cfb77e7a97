@testable import BirdRealtime
import BirdRealtimeTestSupport
import Foundation
import Testing

/// A scripted socket that says whether it holds back reads (as `WebSocketTransport` does while
/// its handlers are behind).
private final class HoldingTransport: Transport, InboundFlowControl, @unchecked Sendable {
    let inner: ScriptedConnection
    private let lock = NSLock()
    private var held = false
    private(set) var fenceSet = false

    init(_ inner: ScriptedConnection) { self.inner = inner }

    var isHoldingBack: Bool {
        get {
            lock.lock()
            defer { lock.unlock() }
            return held
        }
        set {
            lock.lock()
            held = newValue
            lock.unlock()
        }
    }

    func setDeliveryFence(_ fence: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        lock.lock()
        fenceSet = true
        lock.unlock()
    }

    func connect() { inner.connect() }
    func send(texts: [String]) throws { try inner.send(texts: texts) }
    func close(code: Int, reason: String) { inner.close(code: code, reason: reason) }
    func abort() { inner.abort() }
}

@Suite("Liveness under flow control: a held-back backlog counts as activity")
struct FlowControlLivenessTests {
    /// A client on a manual clock whose sockets can report holding back.
    final class Rig: @unchecked Sendable {
        let clock = ManualClock()
        let scripted = ScriptedTransport()
        /// The transports made, recorded by the factory itself: the client may make its first
        /// before `init` returns, so nothing here may wait for `self`.
        private let made = Made()
        let bird: BirdRealtime

        init() {
            let environment = scripted.environment(clock: clock)
            let base = environment.makeTransport
            var options = BirdRealtime.Options(
                appKey: "k", host: "127.0.0.1", allowInsecure: true,
                deliveryQueue: DispatchQueue(label: "test.delivery"))
            options.random = SeededRandom.constant(1)
            let made = self.made
            bird = BirdRealtime(
                options: options,
                environment: RealtimeEnvironment(
                    clock: clock,
                    makeTransport: { configuration, queue, onEvents in
                        let transport = HoldingTransport(
                            base(configuration, queue, onEvents) as! ScriptedConnection)  // our own factory's type
                        made.append(transport)
                        return transport
                    }, http: environment.http))
        }

        fileprivate var last: HoldingTransport? { made.last }

        func advance(_ duration: Duration) async {
            await bird.settle()
            clock.advance(by: duration)
            await bird.settle()
        }

        fileprivate final class Made: @unchecked Sendable {
            private let lock = NSLock()
            private var transports: [HoldingTransport] = []

            func append(_ transport: HoldingTransport) {
                lock.lock()
                transports.append(transport)
                lock.unlock()
            }

            var last: HoldingTransport? {
                lock.lock()
                defer { lock.unlock() }
                return transports.last
            }
        }
    }

    @Test(
        "held back at the activity timeout: no ping; held back at the pong timeout: no 4201; released: liveness as before"
    )
    func heldBackIsActivity() async throws {
        let rig = Rig()
        await rig.bird.settle()
        let transport = try #require(rig.last)
        #expect(transport.fenceSet, "the client sets the delivery fence on a flow-controlled transport")
        transport.inner.handshake(connectionId: "1.1", activityTimeout: 120, dialect: .bird)
        await rig.bird.settle()
        #expect(rig.bird.connectionState == .connected)

        transport.isHoldingBack = true
        await rig.advance(.seconds(120))
        #expect(transport.inner.sent(event: "bird:ping").isEmpty, "a backlog waiting for handlers is activity")
        await rig.advance(.seconds(240))
        #expect(transport.inner.sent(event: "bird:ping").isEmpty)

        // A ping already out when reading is held back: its pong may wait behind the backlog.
        transport.isHoldingBack = false
        await rig.advance(.seconds(120))
        #expect(transport.inner.sent(event: "bird:ping").count == 1)
        transport.isHoldingBack = true
        await rig.advance(.seconds(30))
        #expect(transport.inner.closedWith == nil, "no pong timeout while held back")
        #expect(rig.bird.connectionState == .connected)

        // Released and silent: the ordinary ping, then 4201 after the pong timeout.
        transport.isHoldingBack = false
        await rig.advance(.seconds(120))
        #expect(transport.inner.sent(event: "bird:ping").count == 2)
        await rig.advance(.seconds(30))
        #expect(transport.inner.closedWith?.code == 4201)
    }
}
