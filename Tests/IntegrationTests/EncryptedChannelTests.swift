import BirdRealtime
import BirdRealtimeTestSupport
import BirdSandbox
import BirdWire
import Foundation
import Testing
import TestSupport
import WebSocket

/// End-to-end encrypted channels, live: our client and the sandbox over loopback, with events
/// sealed by the official `pusher` Python SDK (code we did not write) and by the sandbox, key
/// rotation through the control API, and hostile payloads — typed errors, never a crash, the
/// channel still subscribed (a later event proves it).
extension Integration {
    @Suite(.serialized) struct EncryptedChannelTests {
        static let channel = "private-encrypted-orders"

        /// A master key with its base64 (for the SDK; the type itself never shows its bytes).
        struct Master {
            let key: EncryptionMasterKey
            let base64: String

            static func random() -> Master {
                let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max) }
                // 32 bytes always make a key.
                guard let key = try? EncryptionMasterKey(bytes: bytes) else { preconditionFailure("32 bytes") }
                return Master(key: key, base64: Data(bytes).base64EncodedString())
            }
        }

        struct Order: Codable, Sendable, Equatable {
            var item: String
            var qty: Int
        }

        /// A sandbox whose app id is numeric (the SDK insists), with `master` as its master key.
        static func sandbox(_ dialect: Dialect, master: Master?) throws -> SandboxFixture {
            try SandboxFixture { c in
                c.dialect = dialect
                c.appId = "4242"
                c.encryptionMasterKey = master?.key
            }
        }

        /// A client subscribed to ``channel`` (waits for it on both sides); nil after a recorded issue.
        static func subscribedClient(
            _ sandbox: SandboxFixture, configure: (inout BirdRealtime.Options) -> Void = { _ in },
            environment: RealtimeEnvironment = .live, sourceLocation: SourceLocation = #_sourceLocation
        ) async -> (ClientFixture, String)? {
            let dialect = sandbox.sandbox.configuration.dialect
            let client = ClientFixture(sandbox: sandbox, environment: environment) { options in
                options.dialect = dialect
                configure(&options)
            }
            client.bird.subscribe(channel)
            guard let id = await client.connected(sourceLocation: sourceLocation) else { return nil }
            guard await client.subscribed([channel], sourceLocation: sourceLocation) else { return nil }
            await eventually("\(channel) subscribed on the sandbox", sourceLocation: sourceLocation) {
                sandbox.connection(id)?.channels.contains(channel) == true
            }
            return (client, id)
        }

        static func decryptionErrors(_ client: ClientFixture, since mark: ClientRecorder.Mark = .init())
            -> [RealtimeError]
        {
            client.recorder.errors(since: mark).filter { $0.kind == .decryption }
        }

        /// The auth requests for ``channel`` (every one is a key fetch).
        static func keyFetches(_ client: ClientFixture) -> [AuthLog.Entry] {
            client.authLog.all.filter { $0.channel == channel }
        }

        /// Publishes `data` on ``channel`` through the sandbox's control API (sealed by the
        /// sandbox unless `encrypted` is false); returns the HTTP status.
        @discardableResult
        static func controlPublish(
            _ sandbox: SandboxFixture, event: String, data: JSONValue, encrypted: Bool = true,
            sourceLocation: SourceLocation = #_sourceLocation
        ) async throws -> Int {
            var body: JSONObject = ["channel": .string(channel), "event": .string(event), "data": data]
            if !encrypted { body["encrypted"] = false }
            let answer = try await HTTPClient.send(
                method: "POST", url: try #require(URL(string: sandbox.endpoints.controlBase + "/publish")),
                headers: ["Content-Type": "application/json"], body: Array(JSONValue.object(body).description.utf8))
            #expect(answer.status == 200, "publish answered \(answer.status)", sourceLocation: sourceLocation)
            return answer.status
        }

        /// `POST /sandbox/encryption/rotate` (a fresh random key); returns the answer's text.
        static func rotate(_ sandbox: SandboxFixture) async throws -> String {
            let answer = try await HTTPClient.send(
                method: "POST", url: try #require(URL(string: sandbox.endpoints.controlBase + "/encryption/rotate")),
                headers: [:], body: [])
            #expect(answer.status == 200)
            return String(decoding: answer.body, as: UTF8.self)
        }

        /// Publishes `later` and waits until the client delivered it: the channel still works.
        static func laterEventArrives(
            _ sandbox: SandboxFixture, _ client: ClientFixture, _ name: String = "later",
            sourceLocation: SourceLocation = #_sourceLocation
        ) async throws {
            try await controlPublish(sandbox, event: name, data: ["still": "here"], sourceLocation: sourceLocation)
            await eventually("\(name) delivered", sourceLocation: sourceLocation) {
                client.recorder.events(name, on: channel).contains { $0.data?["still"] == "here" }
            }
        }

        // MARK: - The official SDK

        @Test(
            "the pusher SDK seals (trigger, trigger_batch); our client hands handlers the plaintext",
            arguments: [Dialect.pusher, .bird])
        func sdkTrigger(dialect: Dialect) async throws {
            let master = Master.random()
            let sandbox = try Self.sandbox(dialect, master: master)
            defer { sandbox.stop() }
            let orders = Box<[Order]>([])
            guard
                let (client, _) = await Self.subscribedClient(sandbox, configure: { _ in })
            else { return }
            defer { client.bird.disconnect() }
            client.bird.channel(named: Self.channel)?.bind("order-placed", as: Order.self) { order in
                orders.withLock { $0.append(order) }
            }

            let result = await PusherSDK.call(
                "trigger", sandbox: sandbox.endpoints, masterBase64: master.base64,
                ["channels": [.string(Self.channel)], "event": "order-placed", "data": ["item": "café ☕", "qty": 2]])
            #expect(result?["result"] == [:])
            await eventually("the SDK's event delivered") { !orders.snapshot.isEmpty }
            #expect(orders.snapshot == [Order(item: "café ☕", qty: 2)])
            let event = try #require(client.recorder.events("order-placed", on: Self.channel).first)
            #expect(event.wasDecrypted)
            #expect(event.data?["item"] == "café ☕")
            let envelope = try JSONValue(parsing: event.ciphertext ?? "")
            #expect(envelope["nonce"]?.stringValue?.count == 32, "24 bytes of nonce in base64: \(envelope)")
            #expect(envelope["ciphertext"]?.stringValue != nil)
            #expect(event.ciphertext?.contains("café") == false, "the edge carried no plaintext")

            let batch = await PusherSDK.call(
                "batch", sandbox: sandbox.endpoints, masterBase64: master.base64,
                [
                    "batch": [
                        ["channel": .string(Self.channel), "name": "order-placed", "data": ["item": "tea", "qty": 1]],
                        ["channel": "news", "name": "headline", "data": "clear"],
                    ]
                ])
            #expect(batch?["result"] == [:])
            await eventually("the SDK's batched event delivered") { orders.snapshot.count == 2 }
            #expect(orders.snapshot.last == Order(item: "tea", qty: 1))

            // The SDK refuses one event for several channels when one is encrypted (the sandbox's
            // HTTP API answers 400 with the same text: BirdSandboxTests, Scripts/interop).
            let refused = await PusherSDK.call(
                "trigger_refused", sandbox: sandbox.endpoints, masterBase64: master.base64,
                ["channels": [.string(Self.channel), "news"], "event": "x", "data": "{}"])
            #expect(
                refused?["refused"]?.stringValue
                    == "You cannot trigger to multiple channels when using encrypted channels")
            #expect(client.recorder.errors.isEmpty, "\(client.recorder.errors)")
        }

        @Test("the SDK's authenticate answer is accepted by our client and its key equals the sandbox's")
        func sdkAuthenticate() async throws {
            let master = Master.random()
            let sandbox = try Self.sandbox(.pusher, master: master)
            defer { sandbox.stop() }
            let endpoints = sandbox.endpoints
            let secrets = Box<[String]>([])
            guard
                let (client, _) = await Self.subscribedClient(
                    sandbox,
                    configure: { options in
                        options.authorizer = { request in
                            let answer = await PusherSDK.call(
                                "authenticate", sandbox: endpoints, masterBase64: master.base64,
                                ["channel": .string(request.channelName), "socket_id": .string(request.connectionId)])
                            let auth = answer?["auth"]?.stringValue ?? ""
                            let secret = answer?["shared_secret"]?.stringValue
                            if let secret { secrets.withLock { $0.append(secret) } }
                            return AuthResponse(auth: auth, sharedSecret: secret)
                        }
                    })
            else { return }
            defer { client.bird.disconnect() }
            let sandboxKey = try #require(sandbox.sandbox.encryptionChannelKey(for: Self.channel))
            #expect(secrets.snapshot == [sandboxKey.revealBase64()])
            // And in practice: the sandbox seals, our client opens with the SDK's key.
            try await Self.laterEventArrives(sandbox, client, "sealed-by-the-sandbox")
            #expect(client.recorder.errors.isEmpty, "\(client.recorder.errors)")
        }

        // MARK: - Rotation and the re-authorise-once rule

        @Test("a rotated master key: the client fetches one fresh key on the same connection and decrypts")
        func rotation() async throws {
            let sandbox = try Self.sandbox(.bird, master: .random())
            defer { sandbox.stop() }
            guard let (client, id) = await Self.subscribedClient(sandbox) else { return }
            defer { client.bird.disconnect() }
            let answer = try await Self.rotate(sandbox)
            #expect(answer == #"{"ok":true,"replaced":1}"#)
            try await Self.controlPublish(sandbox, event: "after-rotation", data: ["n": 1])
            await eventually("the event after the rotation delivered") {
                !client.recorder.events("after-rotation").isEmpty
            }
            #expect(client.recorder.events("after-rotation").first?.data?["n"] == 1)
            #expect(Self.keyFetches(client).map(\.connectionId) == [id, id], "one refresh, same connection")
            let subscribes = client.recorder.wire.filter { $0.0 == .outbound && $0.1.contains("bird:subscribe") }
            #expect(subscribes.count == 1, "no re-subscription: \(subscribes)")
            #expect(!client.recorder.wire.contains { $0.1.contains("bird:unsubscribe") })
            #expect(client.recorder.errors.isEmpty, "\(client.recorder.errors)")
            #expect(client.bird.connectionId == id)
        }

        @Test("a second rotation between the fetch and the retry: reported, the channel still subscribed")
        func secondRotation() async throws {
            let sandbox = try Self.sandbox(.bird, master: .random())
            defer { sandbox.stop() }
            // The client's auth HTTP: the second request for the channel on one connection (the
            // refresh) rotates the key once more just before the sandbox answers it.
            let seen = Box<[String: Int]>([:])
            var rotateOnRefresh = RealtimeEnvironment.live
            rotateOnRefresh.http = { [sandbox] request in
                let fields = AuthLog.fields(request.bodyText)
                let key = (fields["connection_id"] ?? "") + " " + (fields["channel_name"] ?? "")
                let count = seen.withLock { counts -> Int in
                    counts[key, default: 0] += 1
                    return counts[key] ?? 0
                }
                if count == 2 { sandbox.sandbox.rotateEncryptionMasterKey() }
                return try await RealtimeEnvironment.live.http(request)
            }
            guard let (client, id) = await Self.subscribedClient(sandbox, environment: rotateOnRefresh) else { return }
            defer { client.bird.disconnect() }
            let mark = client.recorder.mark
            _ = try await Self.rotate(sandbox)
            try await Self.controlPublish(sandbox, event: "lost", data: ["n": 1])
            await eventually("the failure reported") { !Self.decryptionErrors(client, since: mark).isEmpty }
            let error = try #require(Self.decryptionErrors(client, since: mark).first)
            #expect(error.channel == Self.channel)
            #expect(error.event == "lost")
            #expect(error.decryption == .data(.undecryptable(.authenticationFailed)))
            #expect(client.recorder.events("lost").isEmpty)
            #expect(Self.keyFetches(client).map(\.connectionId) == [id, id], "exactly one refresh")
            #expect(client.bird.channel(named: Self.channel)?.subscribed == true)
            try await Self.laterEventArrives(sandbox, client)
            #expect(Self.keyFetches(client).count == 2, "the key in force opens the later event")
            #expect(Self.decryptionErrors(client, since: mark).count == 1)
        }

        // MARK: - Hostile payloads

        enum Hostile: String, CaseIterable, Sendable {
            case wrongKey, truncatedNonce, ciphertextNotBase64, notAnEnvelope
        }

        @Test("hostile payloads: typed errors, no crash, the channel still subscribed", arguments: Hostile.allCases)
        func hostile(kind: Hostile) async throws {
            let sandbox = try Self.sandbox(.bird, master: .random())
            defer { sandbox.stop() }
            guard let (client, id) = await Self.subscribedClient(sandbox) else { return }
            defer { client.bird.disconnect() }
            let key = try #require(sandbox.sandbox.encryptionChannelKey(for: Self.channel))
            let good = try JSONValue(parsing: EncryptedPayload.seal(plaintext: "{}", key: key).text)
            let nonce = good["nonce"]?.stringValue ?? ""
            let ciphertext = good["ciphertext"]?.stringValue ?? ""
            let data: String
            switch kind {
            case .wrongKey:
                data =
                    EncryptedPayload.seal(
                        plaintext: "{}", key: EncryptionMasterKey.random().channelKey(for: Self.channel)
                    ).text
            case .truncatedNonce:
                data = #"{"nonce":"\#(nonce.prefix(16))","ciphertext":"\#(ciphertext)"}"#
            case .ciphertextNotBase64:
                data = #"{"nonce":"\#(nonce)","ciphertext":"%%% not base64 %%%"}"#
            case .notAnEnvelope:
                data = #"{"hello":"world"}"#
            }
            let mark = client.recorder.mark
            try await Self.controlPublish(sandbox, event: "hostile", data: .string(data), encrypted: false)
            await eventually("the hostile event reported") { !Self.decryptionErrors(client, since: mark).isEmpty }
            let problem = Self.decryptionErrors(client, since: mark).first?.decryption
            switch (kind, problem) {
            case (.wrongKey, .data(.undecryptable(.authenticationFailed))?),
                (.truncatedNonce, .data(.malformed(.wrongNonceLength(12)))?),
                (.ciphertextNotBase64, .data(.malformed(.notBase64(.ciphertext)))?),
                (.notAnEnvelope, .data(.malformed(.missingField(.nonce)))?):
                break
            default:
                Issue.record("\(kind): \(String(describing: problem))")
            }
            // Only an authentication failure costs a key fetch.
            #expect(Self.keyFetches(client).count == (kind == .wrongKey ? 2 : 1))
            #expect(client.recorder.events("hostile").isEmpty)
            #expect(client.bird.channel(named: Self.channel)?.subscribed == true)
            try await Self.laterEventArrives(sandbox, client)
            #expect(client.bird.connectionId == id, "the connection survived")
        }

        @Test("oversized ciphertext: 1 MiB is a typed error; 10 MiB fails the frame (1009), then a fresh subscription")
        func oversized() async throws {
            let sandbox = try Self.sandbox(.bird, master: .random())
            defer { sandbox.stop() }
            guard let (client, id) = await Self.subscribedClient(sandbox) else { return }
            defer { client.bird.disconnect() }
            let nonce = String(repeating: "A", count: 32)
            func frame(ciphertextBytes: Int) -> String {
                // Over the sandbox's 10 KiB event limit: only the control API's raw frame carries it.
                let envelope =
                    #"{"nonce":"\#(nonce)","ciphertext":""# + String(repeating: "A", count: ciphertextBytes)
                    + "\"}"
                return WireMessage(event: "huge", channel: Self.channel, data: .string(envelope)).encode()
            }

            // 1 MiB: within the transport's 4 MiB, refused by the payload limit before it is parsed.
            let mark = client.recorder.mark
            #expect(sandbox.sandbox.send(id: id, text: frame(ciphertextBytes: 1 << 20)))
            await eventually("the 1 MiB event reported") { !Self.decryptionErrors(client, since: mark).isEmpty }
            guard
                case .data(.malformed(.tooLarge(_, let limit)))? = Self.decryptionErrors(client, since: mark).first?
                    .decryption
            else {
                Issue.record("\(Self.decryptionErrors(client, since: mark))")
                return
            }
            #expect(limit == EncryptedPayload.defaultMaxTextBytes)
            try await Self.laterEventArrives(sandbox, client, "after-1-mib")
            #expect(client.bird.connectionId == id)

            // 10 MiB: the WebSocket client refuses a message over 4 MiB and fails the connection
            // (1009); the backoff path reconnects and re-subscribes with a fresh key.
            #expect(sandbox.sandbox.send(id: id, text: frame(ciphertextBytes: 10 << 20)))
            guard let second = await client.connected(other: id, within: 20) else { return }
            #expect(client.recorder.changes.contains { $0.cause.closeCode == 1009 }, "\(client.recorder.changes)")
            await client.subscribed([Self.channel])
            await eventually("subscribed again on the sandbox") {
                sandbox.connection(second)?.channels.contains(Self.channel) == true
            }
            #expect(Self.keyFetches(client).map(\.connectionId) == [id, second], "a fresh key for the new connection")
            try await Self.laterEventArrives(sandbox, client, "after-10-mib")
            #expect(client.recorder.events("huge").isEmpty)
        }

        // MARK: - Configuration

        @Test("without a master key the sandbox refuses the channel: AuthError with status 403, nothing sent")
        func noMasterKey() async throws {
            let sandbox = try Self.sandbox(.bird, master: nil)
            defer { sandbox.stop() }
            let client = ClientFixture(sandbox: sandbox)
            defer { client.bird.disconnect() }
            let channel = client.bird.subscribe(Self.channel)
            guard let id = await client.connected() else { return }
            await eventually("subscription_error") {
                !client.recorder.events(BirdProtocol.Event.subscriptionError, on: Self.channel).isEmpty
            }
            let error = client.recorder.events(BirdProtocol.Event.subscriptionError, on: Self.channel).first?.data
            #expect(error?["type"] == "AuthError")
            #expect(error?["status"] == 403)
            #expect(error?["error"]?.stringValue?.contains("403") == true)
            #expect(!channel.subscribed)
            #expect(sandbox.connection(id)?.channels.contains(Self.channel) == false)
            #expect(client.recorder.errors.isEmpty)
        }
    }
}
