import BirdRealtime
import BirdSandbox
import BirdWire
import Foundation
import Testing
import TestSupport

/// Continuity against the real sandbox (docs/LIFECYCLE.md § Continuity, docs/PROTOCOL.md
/// § Extensions): events published while the client is away are replayed once, in order; a
/// history too short says exactly how many were missed; a new sandbox (new epoch) is unknown.
/// Outages are the control API's `restart` (the port closed for 3 s): every publish during it
/// is checked to have reached no connection, so nothing depends on timing.
extension Integration {
    @Suite(.serialized) struct ContinuityTests {
        static let channel = "news"

        /// A client subscribed to `news` whose handler records every `n` event's payload and offset.
        final class Subscriber: @unchecked Sendable {
            let client: ClientFixture
            let channel: Channel
            let received = Box<[(payload: String, offset: Int?)]>([])

            init(_ client: ClientFixture, resumingFrom position: StreamPosition? = nil) {
                self.client = client
                channel = client.bird.subscribe(ContinuityTests.channel, resumingFrom: position)
                let received = self.received
                channel.bindEvent("n") { event in
                    received.withLock { $0.append((event.payload?.text ?? "", event.offset)) }
                }
            }

            var payloads: [String] { received.snapshot.map(\.payload) }
            var offsets: [Int?] { received.snapshot.map(\.offset) }

            /// Waits until `count` events arrived.
            func waitFor(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
                await eventually("\(count) events (have \(received.snapshot.count))", sourceLocation: sourceLocation) {
                    received.snapshot.count >= count
                }
            }

            /// Waits until the channel's continuity is `expected`.
            func waitFor(
                continuity expected: ChannelContinuity, sourceLocation: SourceLocation = #_sourceLocation
            ) async -> Bool {
                await eventually(
                    "continuity \(expected) (is \(channel.continuity.map { "\($0)" } ?? "nil"))",
                    sourceLocation: sourceLocation
                ) { channel.continuity == expected }
            }
        }

        /// Publishes `n` events `first…first+n-1` (payload the number) and returns how many
        /// connections each reached.
        static func publish(_ sandbox: SandboxFixture, _ range: ClosedRange<Int>) -> [Int] {
            range.map { sandbox.sandbox.publish(channel: channel, event: "n", data: .string("\($0)")) }
        }

        /// Starts an outage (every connection closed, the port closed for 3 s) and publishes
        /// `range` during it; records an issue if any publish reached a connection.
        static func publishDuringOutage(
            _ sandbox: SandboxFixture, _ range: ClosedRange<Int>, sourceLocation: SourceLocation = #_sourceLocation
        ) {
            sandbox.sandbox.restart(downSeconds: 3)
            let reached = publish(sandbox, range)
            #expect(
                reached.allSatisfy { $0 == 0 }, "published while nobody was connected", sourceLocation: sourceLocation)
        }

        @Test("100 events published during an outage: all delivered once, in order, recovered")
        func outageRecovered() async throws {
            let sandbox = try SandboxFixture()
            defer { sandbox.stop() }
            let client = ClientFixture(sandbox: sandbox)
            let subscriber = Subscriber(client)
            let firstId = await client.connected()
            #expect(await client.subscribed([Self.channel]))
            #expect(subscriber.channel.continuity == .fresh)
            #expect(Self.publish(sandbox, 1...5) == Array(repeating: 1, count: 5))
            #expect(await subscriber.waitFor(5))

            Self.publishDuringOutage(sandbox, 6...105)
            #expect(await client.connected(other: firstId) != nil)
            #expect(await subscriber.waitFor(continuity: .recovered))
            #expect(await subscriber.waitFor(105))
            // A live marker after the replay: anything delivered twice would be before it.
            #expect(Self.publish(sandbox, 106...106) == [1])
            #expect(await subscriber.waitFor(106))
            await client.bird.settle()
            #expect(subscriber.payloads == (1...106).map(String.init))
            #expect(subscriber.offsets == (1...106).map { Optional($0) })
            let succeeded = client.recorder.events(BirdProtocol.Event.subscriptionSucceeded, on: Self.channel)
            #expect(succeeded.map(\.continuity) == [.fresh, .recovered])
            let resubscribe = client.recorder.wire.filter { $0.0 == .outbound && $0.1.contains("subscribe") }.last?.1
            #expect(resubscribe?.contains("\"offset\":5") == true, "the resubscribe sends the last offset processed")
            await client.shutdown()
        }

        @Test("history exceeded: recovered false, missed exactly N, what was held replayed")
        func historyExceeded() async throws {
            let sandbox = try SandboxFixture { $0.history = HistoryLimits(maxEvents: 10) }
            defer { sandbox.stop() }
            let client = ClientFixture(sandbox: sandbox)
            let subscriber = Subscriber(client)
            let firstId = await client.connected()
            #expect(await client.subscribed([Self.channel]))
            _ = Self.publish(sandbox, 1...5)
            #expect(await subscriber.waitFor(5))

            Self.publishDuringOutage(sandbox, 6...35)  // 6…25 fall out of a 10-event history
            #expect(await client.connected(other: firstId) != nil)
            #expect(await subscriber.waitFor(continuity: .missed(20)))
            #expect(subscriber.channel.continuity?.recovered == false)
            #expect(subscriber.channel.continuity?.missed == 20)
            _ = Self.publish(sandbox, 36...36)
            #expect(await subscriber.waitFor(16))
            await client.bird.settle()
            #expect(subscriber.payloads == (Array(1...5) + Array(26...36)).map(String.init))
            await client.shutdown()
        }

        @Test("a new sandbox on the same port (new epoch): continuity unknown, its events delivered from offset 1")
        func sandboxRestartIsUnknown() async throws {
            let first = try SandboxFixture()
            let port = first.port
            let client = ClientFixture(sandbox: first)
            let subscriber = Subscriber(client)
            let firstId = await client.connected()
            #expect(await client.subscribed([Self.channel]))
            _ = Self.publish(first, 1...3)
            #expect(await subscriber.waitFor(3))
            let oldEpoch = first.sandbox.streamEpoch
            first.stop()

            let second = try SandboxFixture { $0.port = port }
            defer { second.stop() }
            #expect(second.sandbox.streamEpoch != oldEpoch)
            #expect(await client.connected(other: firstId) != nil)
            #expect(await subscriber.waitFor(continuity: .unknown(.epochChanged)))
            #expect(subscriber.channel.continuity?.recovered == nil)
            _ = Self.publish(second, 4...4)
            #expect(await subscriber.waitFor(4))
            #expect(subscriber.offsets == [1, 2, 3, 1], "the new stream's offsets are not taken for duplicates")
            await client.shutdown()
        }

        @Test("a position persisted by the app resumes a new client after it")
        func persistedPosition() async throws {
            let sandbox = try SandboxFixture()
            defer { sandbox.stop() }
            let first = ClientFixture(sandbox: sandbox)
            let positions = Box<[StreamPosition]>([])
            let a = Subscriber(first)
            a.channel.bindEvent("n") { event in
                if let position = event.position { positions.withLock { $0.append(position) } }
            }
            await first.connected()
            #expect(await first.subscribed([Self.channel]))
            _ = Self.publish(sandbox, 1...3)
            #expect(await a.waitFor(3))
            await first.shutdown()
            let saved = try #require(positions.snapshot.last)
            #expect(saved.offset == 3)
            #expect(saved.epoch == sandbox.sandbox.streamEpoch)

            _ = Self.publish(sandbox, 4...7)  // nobody subscribed
            let second = ClientFixture(sandbox: sandbox)
            let b = Subscriber(second, resumingFrom: saved)
            #expect(await b.waitFor(continuity: .recovered))
            #expect(await b.waitFor(4))
            #expect(b.payloads == ["4", "5", "6", "7"])
            await second.shutdown()
        }

        @Test("an event at or before the last offset processed is not delivered again")
        func duplicateNotDelivered() async throws {
            let sandbox = try SandboxFixture()
            defer { sandbox.stop() }
            let client = ClientFixture(sandbox: sandbox)
            let subscriber = Subscriber(client)
            let id = try #require(await client.connected())
            #expect(await client.subscribed([Self.channel]))
            _ = Self.publish(sandbox, 1...3)
            #expect(await subscriber.waitFor(3))
            // An edge repeating itself (offsets 2 and 3 again), then a live event.
            for offset in [2, 3] {
                #expect(
                    sandbox.sandbox.send(
                        id: id, text: #"{"event":"n","channel":"news","data":"dup","offset":\#(offset)}"#))
            }
            _ = Self.publish(sandbox, 4...4)
            #expect(await subscriber.waitFor(4))
            await client.bird.settle()
            #expect(subscriber.payloads == ["1", "2", "3", "4"])
            await client.shutdown()
        }

        @Test("the Pusher dialect: no offsets sent or received, a resubscription is unknown (not supported)")
        func pusherDialectIsUnknown() async throws {
            let sandbox = try SandboxFixture { $0.dialect = .pusher }
            defer { sandbox.stop() }
            let client = ClientFixture(sandbox: sandbox) { $0.dialect = .pusher }
            let subscriber = Subscriber(client)
            let firstId = await client.connected()
            #expect(await client.subscribed([Self.channel]))
            #expect(subscriber.channel.continuity == .fresh)
            _ = Self.publish(sandbox, 1...2)
            #expect(await subscriber.waitFor(2))
            Self.publishDuringOutage(sandbox, 3...4)
            #expect(await client.connected(other: firstId) != nil)
            #expect(await subscriber.waitFor(continuity: .unknown(.notSupported)))
            _ = Self.publish(sandbox, 5...5)
            #expect(await subscriber.waitFor(3))
            #expect(subscriber.payloads == ["1", "2", "5"], "nothing replayed, nothing invented")
            #expect(subscriber.offsets.allSatisfy { $0 == nil })
            #expect(!client.recorder.wire.contains { $0.1.contains("\"offset\"") })
            await client.shutdown()
        }
    }
}
