import BirdRealtime
import BirdRealtimeTestSupport
import Foundation
import Testing

/// The app's backend for encrypted channels in these tests: a master key that can rotate, an
/// authorizer answering with the channel key (`shared_secret`) derived when it answers, and a
/// switch that parks the next authorizations until the test releases them.
final class KeyBackend: @unchecked Sendable {
    private let lock = NSLock()
    private var _master = EncryptionMasterKey.random()
    private var _requests: [ChannelAuthRequest] = []
    private var _parkNext = 0
    private var _parked: [CheckedContinuation<Void, Never>] = []
    /// When set, the authorizer answers this instead of the derived key.
    private var _override: String??

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    var master: EncryptionMasterKey { locked { _master } }
    var requests: [ChannelAuthRequest] { locked { _requests } }
    var parkedCount: Int { locked { _parked.count } }

    /// Replaces the master key (a fresh random one unless given).
    func rotate(to key: EncryptionMasterKey = .random()) { locked { _master = key } }

    /// The authorizer's next `count` answers wait for ``release()``.
    func parkNext(_ count: Int = 1) { locked { _parkNext = count } }

    /// Lets parked authorizations answer (with the master key in force when they answer).
    func release() {
        let parked = locked { () -> [CheckedContinuation<Void, Never>] in
            defer { _parked = [] }
            return _parked
        }
        for continuation in parked { continuation.resume() }
    }

    /// Answer `sharedSecret` (nil: none) instead of the derived key.
    func answer(sharedSecret: String?) { locked { _override = .some(sharedSecret) } }

    /// `plaintext` sealed under `channel`'s key (the master key in force, or `master`): the
    /// envelope text an event's `data` carries.
    func seal(_ plaintext: String, channel: String, master: EncryptionMasterKey? = nil) -> String {
        let key = (master ?? self.master).channelKey(for: channel)
        return EncryptedPayload.seal(plaintext: plaintext, key: key).text
    }

    var authorizer: @Sendable (ChannelAuthRequest) async throws -> AuthResponse {
        { [self] request in
            let park = locked { () -> Bool in
                _requests.append(request)
                guard _parkNext > 0 else { return false }
                _parkNext -= 1
                return true
            }
            if park {
                await withCheckedContinuation { continuation in locked { _parked.append(continuation) } }
            }
            let secret = locked { () -> String? in
                if let override = _override { return override }
                return _master.channelKey(for: request.channelName).revealBase64()
            }
            return AuthResponse(auth: "k:sig-\(request.connectionId)", sharedSecret: secret)
        }
    }
}

@Suite("Encrypted channels: keys, decryption, the re-authorise-once rule")
struct EncryptedChannelTests {
    static let channel = "private-encrypted-orders"

    /// A harness whose authorizer is `keys`', connected as `id` with `channel` subscribed.
    static func subscribed(
        _ keys: KeyBackend, dialect: Dialect = .bird, id: String = "1.1",
        _ configure: @escaping (inout BirdRealtime.Options) -> Void = { _ in }
    ) async throws -> (Harness, ScriptedConnection, Channel) {
        let h = Harness(dialect: dialect) { options in
            options.authorizer = keys.authorizer
            configure(&options)
        }
        let channel = h.bird.subscribe(channel)
        let socket = try await h.connect(id: id)
        try await h.succeed(Self.channel)
        return (h, socket, channel)
    }

    /// Waits (without settling: a parked authorization would never settle) until `condition`.
    static func waitParked(
        _ keys: KeyBackend, count: Int = 1, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let deadline = ContinuousClock.now + .seconds(5)
        while keys.parkedCount < count {
            if ContinuousClock.now > deadline {
                Issue.record("no parked authorization within 5 s", sourceLocation: sourceLocation)
                return
            }
            try? await Task.sleep(for: .milliseconds(2))
        }
    }

    static func decryptionErrors(_ h: Harness) -> [RealtimeError] {
        h.recorder.errors.filter { $0.kind == .decryption }
    }

    // MARK: - Channel objects

    @Test("subscribe returns a PrivateEncryptedChannel for private-encrypted- names only")
    func channelClass() {
        let h = Harness()
        let encrypted = h.bird.subscribe("private-encrypted-a")
        #expect(encrypted is PrivateEncryptedChannel)
        #expect(encrypted is PrivateChannel)
        #expect(encrypted.isEncrypted)
        #expect(encrypted.kind == .private)
        let plain = h.bird.subscribe("private-a")
        #expect(!(plain is PrivateEncryptedChannel))
        #expect(!plain.isEncrypted)
        #expect(!h.bird.subscribe("presence-encrypted-a").isEncrypted)
        #expect(!h.bird.subscribe("encrypted-a").isEncrypted)
    }

    @Test("trigger on an encrypted channel throws encryptedChannel and sends nothing")
    func triggerRefused() async throws {
        let keys = KeyBackend()
        let (h, socket, channel) = try await Self.subscribed(keys)
        #expect(channel.subscribed)
        let error = #expect(throws: TriggerError.self) { try channel.trigger("client-typing", data: ["on": true]) }
        #expect(error?.kind == .encryptedChannel)
        #expect(error?.message.contains("encrypted") == true)
        #expect(socket.sent.allSatisfy { !$0.contains("client-typing") })
        _ = h
    }

    // MARK: - Decryption before delivery

    struct Order: Codable, Sendable, Equatable {
        var id: Int64
        var item: String
    }

    @Test("handlers, typed bindings, streams and onChannelEvent get the plaintext", arguments: Dialect.allCases)
    func plaintextEverywhere(dialect: Dialect) async throws {
        let keys = KeyBackend()
        let h = Harness(dialect: dialect) { $0.authorizer = keys.authorizer }
        let channel = h.bird.subscribe(Self.channel)
        let plain = TestBox<[JSONValue?]>([])
        let whole = TestBox<[ChannelEvent]>([])
        let typed = TestBox<[Order]>([])
        channel.bind("order") { data in plain.mutate { $0.append(data) } }
        channel.bindEvent("order") { event in whole.mutate { $0.append(event) } }
        channel.bind("order", as: Order.self) { order in typed.mutate { $0.append(order) } }
        let stream = channel.events(named: "order")
        let socket = try await h.connect()
        try await h.succeed(Self.channel)

        let text = #"{"id":9007199254740993,"item":"café ☕"}"#
        let sealed = keys.seal(text, channel: Self.channel)
        socket.receive(event: "order", channel: Self.channel, text: sealed)
        await h.settle()

        #expect(plain.get == [try JSONValue(parsing: text)])
        #expect(typed.get == [Order(id: 9_007_199_254_740_993, item: "café ☕")])
        let event = try #require(whole.get.first)
        #expect(event.payload?.text == text)
        #expect(event.wasDecrypted)
        #expect(event.ciphertext == sealed)
        let observed = try #require(h.recorder.events("order").first)
        #expect(observed.payload?.text == text)
        #expect(observed.ciphertext == sealed)
        var iterator = stream.makeAsyncIterator()
        let streamed = await iterator.next()
        #expect(streamed == .some(.some(try JSONValue(parsing: text))))
        #expect(h.recorder.errors.isEmpty, "\(h.recorder.errors)")
        #expect(keys.requests.count == 1, "no refresh for an event that opens")
    }

    @Test("protocol events on an encrypted channel travel in clear and are not decrypted")
    func protocolEventsInClear() async throws {
        let keys = KeyBackend()
        let (h, socket, _) = try await Self.subscribed(keys)
        socket.receive(
            event: ProtocolEvent.connectionCount.wireName(.bird), channel: Self.channel,
            data: ["connection_count": 3])
        await h.settle()
        #expect(h.recorder.events(BirdProtocol.Event.connectionCount).first?.data?["connection_count"] == 3)
        let succeeded = try #require(h.recorder.events(BirdProtocol.Event.subscriptionSucceeded).first)
        #expect(!succeeded.wasDecrypted)
        #expect(h.recorder.errors.isEmpty, "\(h.recorder.errors)")
    }

    @Test("a plaintext (unsealed) event is reported, not delivered as if it were clear")
    func plaintextIsNotDelivered() async throws {
        let keys = KeyBackend()
        let (h, socket, channel) = try await Self.subscribed(keys)
        socket.receive(event: "order", channel: Self.channel, data: ["id": 1])
        await h.settle()
        #expect(h.recorder.events("order").isEmpty)
        let error = try #require(Self.decryptionErrors(h).first)
        #expect(error.channel == Self.channel)
        #expect(error.event == "order")
        #expect(error.decryption == .data(.malformed(.missingField(.nonce))))
        #expect(channel.subscribed)
    }

    // MARK: - The key from the auth answer

    enum BadSecret: String, CaseIterable, Sendable { case missing, notBase64, short }

    @Test(
        "a missing or malformed shared_secret fails the subscription with AuthError; nothing is sent",
        arguments: BadSecret.allCases)
    func badSharedSecret(bad: BadSecret) async throws {
        let keys = KeyBackend()
        let offered: String?
        switch bad {
        case .missing: offered = nil
        case .notBase64: offered = "s3cret-not-base64!"
        case .short: offered = "c2hvcnQga2V5IG1hdGVyaWFs"  // 18 bytes
        }
        keys.answer(sharedSecret: offered)
        let h = Harness { $0.authorizer = keys.authorizer }
        let channel = h.bird.subscribe(Self.channel)
        let socket = try await h.connect()
        let error = try #require(h.recorder.events(BirdProtocol.Event.subscriptionError, on: Self.channel).first)
        #expect(error.data?["type"] == "AuthError")
        let message = error.data?["error"]?.stringValue ?? ""
        #expect(message.contains("shared_secret"), "\(message)")
        if let offered { #expect(!message.contains(offered)) }
        #expect(socket.sent(event: "bird:subscribe").isEmpty)
        #expect(!channel.subscribed)
        #expect(h.recorder.errors.isEmpty)
    }

    @Test("the auth endpoint's shared_secret is read; a private channel's answer needs none")
    func endpointSharedSecret() async throws {
        let master = EncryptionMasterKey.random()
        let http = ScriptedHTTP { request in
            let fields = (try? JSONValue(parsing: request.bodyText))?.objectValue ?? [:]
            let channel = fields["channel_name"]?.stringValue ?? ""
            var answer: JSONObject = ["auth": "k:sig"]
            if channel.hasPrefix("private-encrypted-") {
                answer["shared_secret"] = .string(master.channelKey(for: channel).revealBase64())
            }
            return AuthHTTPResponse(status: 200, text: JSONValue.object(answer).description)
        }
        let h = Harness(http: http) { options in
            options.authorizer = nil
            options.authEndpoint = URL(string: "http://127.0.0.1:9000/auth")
        }
        h.bird.subscribe(Self.channel)
        h.bird.subscribe("private-plain")
        let socket = try await h.connect()
        #expect(Set(h.subscribed(on: socket)) == [Self.channel, "private-plain"])
        try await h.succeed(Self.channel)
        let sealed = EncryptedPayload.seal(plaintext: "hello", key: master.channelKey(for: Self.channel))
        socket.receive(event: "note", channel: Self.channel, text: sealed.text)
        await h.settle()
        #expect(h.recorder.events("note").first?.payload?.text == "hello")
    }

    @Test("the key never reaches logs, wire taps, errors or the AuthResponse's description")
    func keyNeverShown() async throws {
        let keys = KeyBackend()
        let (h, socket, _) = try await Self.subscribed(keys)
        let key = keys.master.channelKey(for: Self.channel).revealBase64()
        // A refresh, a failure after it, and a malformed event: every path that logs or reports.
        keys.rotate()
        socket.receive(
            event: "a", channel: Self.channel, text: keys.seal("x", channel: Self.channel, master: .random()))
        socket.receive(event: "b", channel: Self.channel, text: "not json")
        await h.settle()
        let texts =
            h.recorder.logs.map(\.1) + h.recorder.wire.map(\.1) + h.recorder.errors.map(\.description)
            + h.recorder.errors.compactMap(\.detail)
        #expect(!texts.isEmpty)
        for text in texts { #expect(!text.contains(key), "\(text)") }
        let response = AuthResponse(auth: "k:abc123", sharedSecret: key)
        for text in [response.description, "\(response)", String(reflecting: response)] {
            #expect(!text.contains(key) && !text.contains("abc123"), "\(text)")
        }
        var dumped = ""
        dump(response, to: &dumped)
        #expect(!dumped.contains(key))
    }

    // MARK: - Re-authorise once

    @Test("after a rotation: one fresh key on the same connection, no unsubscribe, the event delivered")
    func rotationRefreshesOnce() async throws {
        let keys = KeyBackend()
        let (h, socket, channel) = try await Self.subscribed(keys, id: "7.7")
        let framesBefore = socket.sent.count
        keys.rotate()
        socket.receive(event: "order", channel: Self.channel, text: keys.seal("after rotation", channel: Self.channel))
        await h.settle()
        #expect(h.recorder.events("order").map { $0.payload?.text } == ["after rotation"])
        #expect(keys.requests.map(\.connectionId) == ["7.7", "7.7"], "one refresh, same connection id")
        #expect(socket.sent.count == framesBefore, "no unsubscribe or subscribe frame: \(socket.sent)")
        #expect(h.recorder.errors.isEmpty, "\(h.recorder.errors)")
        #expect(channel.subscribed)
        // The fresh key stays: the next event opens without another request.
        socket.receive(event: "order", channel: Self.channel, text: keys.seal("next", channel: Self.channel))
        await h.settle()
        #expect(h.recorder.events("order").count == 2)
        #expect(keys.requests.count == 2)
    }

    @Test("events arriving during the refresh are held and delivered in order after it")
    func heldInOrder() async throws {
        let keys = KeyBackend()
        let (h, socket, _) = try await Self.subscribed(keys)
        let old = keys.master
        keys.rotate()
        keys.parkNext()
        socket.receive(event: "e", channel: Self.channel, text: keys.seal("1", channel: Self.channel))
        await Self.waitParked(keys)
        // 2 sealed under the new key, 3 under the old one (in flight before the rotation), 4 new.
        socket.receive(event: "e", channel: Self.channel, text: keys.seal("2", channel: Self.channel))
        socket.receive(event: "e", channel: Self.channel, text: keys.seal("3", channel: Self.channel, master: old))
        socket.receive(event: "e", channel: Self.channel, text: keys.seal("4", channel: Self.channel))
        h.delivery.sync {}
        #expect(h.recorder.events("e").isEmpty, "nothing delivered while the fresh key is fetched")
        keys.release()
        await h.settle()
        // 3 fails under the fresh key and gets its own refresh (a second request), which gives the
        // same fresh key: reported. The others are delivered in arrival order.
        #expect(h.recorder.events("e").map { $0.payload?.text } == ["1", "2", "4"])
        #expect(Self.decryptionErrors(h).map(\.event) == ["e"])
        #expect(Self.decryptionErrors(h).first?.decryption == .data(.undecryptable(.authenticationFailed)))
        #expect(keys.requests.count == 3)
    }

    @Test("a second rotation between the fetch and the retry: reported once, channel still subscribed")
    func secondRotationReported() async throws {
        let keys = KeyBackend()
        let (h, socket, channel) = try await Self.subscribed(keys)
        keys.rotate()
        let sealedUnderSecond = keys.seal("lost", channel: Self.channel)
        keys.parkNext()
        socket.receive(event: "order", channel: Self.channel, text: sealedUnderSecond)
        await Self.waitParked(keys)
        keys.rotate()  // the fetch answers the third key
        keys.release()
        await h.settle()
        #expect(h.recorder.events("order").isEmpty)
        let error = try #require(Self.decryptionErrors(h).first)
        #expect(Self.decryptionErrors(h).count == 1)
        #expect(error.channel == Self.channel)
        #expect(error.event == "order")
        #expect(error.decryption == .data(.undecryptable(.authenticationFailed)))
        #expect(error.detail?.contains("fresh") == true, "\(error.detail ?? "")")
        #expect(keys.requests.count == 2, "exactly one refresh")
        #expect(channel.subscribed)
        // A later event under the key in force arrives fine, with no further request.
        socket.receive(event: "order", channel: Self.channel, text: keys.seal("fine", channel: Self.channel))
        await h.settle()
        #expect(h.recorder.events("order").map { $0.payload?.text } == ["fine"])
        #expect(keys.requests.count == 2)
    }

    enum Malformed: String, CaseIterable, Sendable {
        case notJSON, ciphertextNotBase64, shortNonce, tagOnly, tooLarge
    }

    @Test("malformed payloads are reported at once, with no key refresh", arguments: Malformed.allCases)
    func malformedNoRefresh(kind: Malformed) async throws {
        let keys = KeyBackend()
        let (h, socket, channel) = try await Self.subscribed(keys)
        let good = EncryptedPayload.seal(plaintext: "x", key: keys.master.channelKey(for: Self.channel))
        let nonce = good.nonce.base64
        let data: String
        let expected: EncryptedPayloadError
        switch kind {
        case .notJSON:
            data = "nonce=abc"
            expected = .notJSON(JSONParseError(kind: .syntax, message: "", offset: 0))
        case .ciphertextNotBase64:
            data = #"{"nonce":"\#(nonce)","ciphertext":"not*base64"}"#
            expected = .notBase64(.ciphertext)
        case .shortNonce:
            data = #"{"nonce":"AAAAAAAAAAAAAAAA","ciphertext":"\#(Sodium64.of(good))"}"#
            expected = .wrongNonceLength(byteCount: 12)
        case .tagOnly:
            data = #"{"nonce":"\#(nonce)","ciphertext":"AAAAAAAAAAAAAAAAAAAA"}"#
            expected = .ciphertextTooShort(byteCount: 15)
        case .tooLarge:
            data = #"{"nonce":"\#(nonce)","ciphertext":""# + String(repeating: "A", count: 300 * 1024) + "\"}"
            expected = .tooLarge(byteCount: data.utf8.count, limit: EncryptedPayload.defaultMaxTextBytes)
        }
        socket.receive(event: "order", channel: Self.channel, text: data)
        await h.settle()
        let error = try #require(Self.decryptionErrors(h).first)
        if case .data(.malformed(let found)) = error.decryption {
            if case .notJSON = expected {
                guard case .notJSON = found else { Issue.record("\(found)"); return }
            } else {
                #expect(found == expected)
            }
        } else {
            Issue.record("not a malformed-data problem: \(String(describing: error.decryption))")
        }
        #expect(keys.requests.count == 1, "no refresh for a malformed payload")
        #expect(channel.subscribed)
        socket.receive(event: "order", channel: Self.channel, text: keys.seal("later", channel: Self.channel))
        await h.settle()
        #expect(h.recorder.events("order").map { $0.payload?.text } == ["later"])
    }

    @Test("a refresh that fails reports its event; the held ones behind it are still handled")
    func refreshFails() async throws {
        let keys = KeyBackend()
        let (h, socket, channel) = try await Self.subscribed(keys)
        let before = keys.master
        keys.rotate()
        keys.answer(sharedSecret: nil)  // the endpoint now answers without a key
        keys.parkNext()
        socket.receive(event: "e", channel: Self.channel, text: keys.seal("first", channel: Self.channel))
        await Self.waitParked(keys)
        socket.receive(
            event: "e", channel: Self.channel, text: keys.seal("old key", channel: Self.channel, master: before))
        keys.release()
        await h.settle()
        let error = try #require(Self.decryptionErrors(h).first)
        guard case .keyRefreshFailed(let authError) = error.decryption else {
            Issue.record("\(String(describing: error.decryption))")
            return
        }
        #expect(authError.message.contains("shared_secret"))
        #expect(h.recorder.events("e").map { $0.payload?.text } == ["old key"])
        #expect(channel.subscribed)
    }

    @Test("the connection lost during a refresh: held events reported; the next connection fetches a new key")
    func connectionLostDuringRefresh() async throws {
        let keys = KeyBackend()
        let (h, socket, channel) = try await Self.subscribed(keys, id: "1.1")
        keys.rotate()
        keys.parkNext()
        socket.receive(event: "e", channel: Self.channel, text: keys.seal("1", channel: Self.channel))
        await Self.waitParked(keys)
        socket.receive(event: "e", channel: Self.channel, text: keys.seal("2", channel: Self.channel))
        socket.serverClose(code: 4200, reason: "restarting")
        h.delivery.sync {}
        #expect(Self.decryptionErrors(h).map(\.decryption) == [.connectionLost, .connectionLost])
        #expect(!channel.subscribed)
        keys.release()
        let second = try await h.connect(id: "2.2")
        try await h.succeed(Self.channel)
        #expect(keys.requests.map(\.connectionId) == ["1.1", "1.1", "2.2"])
        second.receive(event: "e", channel: Self.channel, text: keys.seal("3", channel: Self.channel))
        await h.settle()
        #expect(h.recorder.events("e").map { $0.payload?.text } == ["3"])
        #expect(keys.requests.count == 3, "the late answer of the void refresh is ignored; no new refresh")
    }

    @Test("every re-subscription fetches a fresh key: a rotation between connections needs no refresh")
    func freshKeyPerConnection() async throws {
        let keys = KeyBackend()
        let (h, socket, _) = try await Self.subscribed(keys, id: "1.1")
        keys.rotate()
        socket.serverClose(code: 4200, reason: "restarting")
        let second = try await h.connect(id: "2.2")
        try await h.succeed(Self.channel)
        #expect(keys.requests.map(\.connectionId) == ["1.1", "2.2"])
        second.receive(event: "e", channel: Self.channel, text: keys.seal("new key", channel: Self.channel))
        await h.settle()
        #expect(h.recorder.events("e").map { $0.payload?.text } == ["new key"])
        #expect(keys.requests.count == 2)
        #expect(h.recorder.errors.isEmpty, "\(h.recorder.errors)")
    }

    @Test("too many events waiting for a fresh key: the excess is reported, the rest delivered")
    func backlogBounded() async throws {
        let keys = KeyBackend()
        let (h, socket, _) = try await Self.subscribed(keys)
        keys.rotate()
        keys.parkNext()
        socket.receive(event: "e", channel: Self.channel, text: keys.seal("0", channel: Self.channel))
        await Self.waitParked(keys)
        let sealed = keys.seal("n", channel: Self.channel)
        // The first event is held too: 999 more fit, the 1,000th is refused.
        for _ in 0..<1_000 { socket.receive(event: "e", channel: Self.channel, text: sealed) }
        keys.release()
        await h.settle()
        #expect(h.recorder.events("e").count == 1_000)
        let errors = Self.decryptionErrors(h)
        #expect(errors.count == 1)
        #expect(errors.first?.decryption == .backlogFull(events: 1_000, bytes: 4 << 20))
    }
}

extension ScriptedConnection {
    /// The server sent event `event` on `channel` whose `data` is the string `text` (as the
    /// HTTP API relays a sealed envelope).
    func receive(event: String, channel: String, text: String) {
        receive(WireMessage(event: event, channel: channel, data: .string(text)).encode())
    }
}

/// The base64 of a payload's ciphertext, read back from its text.
enum Sodium64 {
    static func of(_ payload: EncryptedPayload) -> String {
        (try? JSONValue(parsing: payload.text))?["ciphertext"]?.stringValue ?? ""
    }
}
