import BirdRealtime
import BirdRealtimeTestSupport
import Foundation
import Testing

/// docs/PROTOCOL.md § Reconnection, last row: after `disconnect()` nothing is scheduled and no socket is opened,
/// whatever the server answers or was about to trigger. Virtual time (60 s) and scripted sockets.
extension Integration {
    @Suite(.serialized) struct DeliberateDisconnectTests {
        enum When: String, CaseIterable, Sendable {
            /// The close arrived first (a retry, an immediate reconnect or a refusal is pending).
            case closeThenDisconnect
            /// `disconnect()` first; the server's close arrives late.
            case disconnectThenClose
        }

        static let codes = [1000, 1006, 1011, 4000, 4009, 4100, 4200, 4201, 4999]

        struct Setup {
            let clock = ManualClock()
            let sockets = ScriptedTransport()
            let client: ClientFixture

            init() async {
                client = ClientFixture(sandbox: nil, environment: sockets.environment(clock: clock)) { o in
                    o.random = { 1 }  // the longest backoff waits
                    o.activityTimeout = .seconds(120)
                    o.pongTimeout = .seconds(30)
                }
                await client.bird.settle()
            }

            /// How many sockets the client opened (`connect()` called).
            var opened: Int { sockets.connections.filter(\.connectCalled).count }

            /// Advances virtual time by 60 s in 1 s steps and returns how many sockets were opened meanwhile.
            func sixtySeconds() async -> Int {
                let before = opened
                for _ in 0..<60 {
                    clock.advance(by: .seconds(1))
                    await client.bird.settle()
                }
                return opened - before
            }
        }

        static func close(_ socket: ScriptedConnection, code: Int) {
            if code == 1006 {
                socket.networkFailure()
            } else {
                socket.serverClose(code: code, reason: "pending \(code)")
            }
        }

        @Test(
            "no socket for 60 s after disconnect(), whatever close was pending",
            arguments: codes, When.allCases)
        func nothingAfterDisconnect(code: Int, when: When) async throws {
            let setup = await Setup()
            let bird = setup.client.bird
            guard let first = setup.sockets.last else {
                Issue.record("the client opened no socket")
                return
            }
            first.handshake(connectionId: "1.1")
            await bird.settle()
            #expect(bird.connectionState == .connected)

            switch when {
            case .closeThenDisconnect:
                Self.close(first, code: code)
                await bird.settle()
                bird.disconnect()
            case .disconnectThenClose:
                bird.disconnect()
                await bird.settle()
                Self.close(first, code: code)
            }
            await bird.settle()
            let mark = setup.client.recorder.mark
            #expect(bird.connectionState == .disconnected)
            #expect(await setup.sixtySeconds() == 0, "no socket opened after disconnect() (\(code), \(when))")
            #expect(bird.connectionState == .disconnected)
            #expect(setup.client.recorder.changes(since: mark).isEmpty)
            #expect(setup.client.recorder.retries(since: mark).isEmpty)
            #expect(bird.nextAttemptAt == nil)
            #expect(setup.clock.pendingCount == 0, "nothing is scheduled after disconnect()")
            for socket in setup.sockets.connections where socket.connectCalled {
                #expect(socket.isClosedByClient || socket === first, "every socket opened was closed")
            }
        }

        @Test("disconnect() while a ping awaits its pong, or while the socket waits for the handshake")
        func disconnectWithLivenessOrHandshakePending() async throws {
            // A ping is out; the pong timer would otherwise close with 4201 and reconnect at once.
            let setup = await Setup()
            let bird = setup.client.bird
            setup.sockets.last?.handshake(connectionId: "1.1")
            await bird.settle()
            setup.clock.advance(by: .seconds(121))
            await bird.settle()
            #expect(setup.sockets.last?.sent.contains { $0.contains("bird:ping") } == true, "the client pinged")
            bird.disconnect()
            await bird.settle()
            #expect(await setup.sixtySeconds() == 0)
            #expect(bird.connectionState == .disconnected)
            #expect(setup.clock.pendingCount == 0)

            // Socket open, handshake not yet there; the edge then refuses with 4200.
            let second = await Setup()
            second.sockets.last?.deliver(.opened)
            await second.client.bird.settle()
            second.client.bird.disconnect()
            await second.client.bird.settle()
            second.sockets.last?.serverClose(code: 4200, reason: "edge restarting")
            #expect(await second.sixtySeconds() == 0)
            #expect(second.client.bird.connectionState == .disconnected)
            #expect(second.clock.pendingCount == 0)
        }
    }
}
