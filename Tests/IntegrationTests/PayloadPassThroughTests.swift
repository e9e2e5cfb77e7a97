import BirdRealtime
import BirdSandbox
import BirdWire
import Foundation
import Testing
import TestSupport
import WebSocket

/// Issue 12: a payload published as `{"id":9007199254740993,"b":1,"a":2}` arrived as
/// `{"a":2,"b":1,"id":9007199254740992.0}`. Through the sandbox's control API and its Pusher HTTP
/// API to a real client over loopback, it must arrive as exactly that text, the id exact.
extension Integration {
    @Suite(.serialized) struct PayloadPassThroughTests {
        static let payload = #"{"id":9007199254740993,"b":1,"a":2}"#

        struct Order: Decodable, Sendable {
            var id: Int64
        }

        /// A subscribed client on `orders`, with a typed handler collecting ids.
        static func subscribedClient(_ sandbox: SandboxFixture) async -> (ClientFixture, Box<[Int64]>) {
            let dialect = sandbox.sandbox.configuration.dialect
            let client = ClientFixture(sandbox: sandbox) { $0.dialect = dialect }
            let ids = Box<[Int64]>([])
            client.bird.subscribe("orders").bind("order-updated", as: Order.self) { order in
                ids.withLock { $0.append(order.id) }
            }
            await client.connected()
            await client.subscribed(["orders"])
            return (client, ids)
        }

        static func post(_ url: String, body: String) async throws -> (status: Int, body: String) {
            let answer = try await HTTPClient.send(
                method: "POST", url: try #require(URL(string: url)), headers: ["Content-Type": "application/json"],
                body: Array(body.utf8))
            return (answer.status, String(decoding: answer.body, as: UTF8.self))
        }

        /// Waits for the event and checks its text, its value and the typed handler.
        static func expectExact(
            _ client: ClientFixture, _ ids: Box<[Int64]>, sourceLocation: SourceLocation = #_sourceLocation
        ) async {
            await eventually("order-updated delivered", sourceLocation: sourceLocation) {
                !client.recorder.events("order-updated").isEmpty && !ids.withLock({ $0 }).isEmpty
            }
            let event = client.recorder.events("order-updated").first
            #expect(event?.payload?.text == payload, sourceLocation: sourceLocation)
            #expect(event?.data?["id"]?.int64Value == 9_007_199_254_740_993, sourceLocation: sourceLocation)
            #expect(event?.data?.description == payload, sourceLocation: sourceLocation)
            #expect(ids.withLock { $0 } == [9_007_199_254_740_993], sourceLocation: sourceLocation)
            #expect(client.recorder.errors.isEmpty, sourceLocation: sourceLocation)
        }

        @Test(
            "POST /sandbox/publish with an object: the client gets its exact text", arguments: [Dialect.bird, .pusher])
        func controlPublish(_ dialect: Dialect) async throws {
            let sandbox = try SandboxFixture { $0.dialect = dialect }
            defer { sandbox.stop() }
            let (client, ids) = await Self.subscribedClient(sandbox)
            defer { client.bird.disconnect() }
            let answer = try await Self.post(
                sandbox.endpoints.controlBase + "/publish",
                body: #"{"channel":"orders","event":"order-updated","data":\#(Self.payload)}"#)
            #expect(answer.status == 200)
            #expect(try JSONValue(parsing: answer.body)["delivered"]?.intValue == 1)
            await Self.expectExact(client, ids)
        }

        @Test("the Pusher HTTP API (signed POST /apps/ID/events): the client gets its exact text")
        func httpAPIPublish() async throws {
            let sandbox = try SandboxFixture { $0.dialect = .pusher }
            defer { sandbox.stop() }
            let (client, ids) = await Self.subscribedClient(sandbox)
            defer { client.bird.disconnect() }
            let body = JSONValue.object(["name": "order-updated", "channel": "orders", "data": .string(Self.payload)])
                .description
            let path = "/apps/\(sandbox.endpoints.appId)/events"
            var query: [(name: String, value: String)] = [
                ("auth_key", sandbox.endpoints.appKey), ("auth_timestamp", String(Int(Date().timeIntervalSince1970))),
                ("auth_version", "1.0"), ("body_md5", Signature.md5Hex(Array(body.utf8))),
            ]
            let string = Signature.httpAPIString(method: "POST", path: path, query: query)
            query.append(
                (
                    "auth_signature",
                    Signature.hmacSHA256Hex(key: sandbox.sandbox.configuration.appSecret, message: string)
                ))
            let url =
                sandbox.endpoints.httpBase + path + "?" + query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            let answer = try await Self.post(url, body: body)
            #expect(answer.status == 200, "\(answer.body)")
            await Self.expectExact(client, ids)
        }
    }
}
