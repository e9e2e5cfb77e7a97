import BirdWire
import Foundation
import Synchronization
import Testing
import TestSupport
import WebSocket

@testable import BirdSandbox

/// The sandbox and end-to-end encrypted channels: channel keys from the demo auth endpoint,
/// sealed relays through the HTTP API, the multi-channel rule, sealing publishes, key rotation,
/// client events refused, the command line — and the master key never shown.
@Suite struct SandboxEncryptionTests {
    static let channel = "private-encrypted-orders"
    static let master = Sodium64.randomMaster()

    private func json(_ response: HTTPResponse) -> JSONValue? {
        try? JSONValue(parsing: String(decoding: response.body, as: UTF8.self))
    }

    private func harness(
        dialect: Dialect = .bird, master: EncryptionMasterKey? = Self.master, clientEvents: Bool = false
    )
        -> EdgeHarness
    {
        var configuration = SandboxConfiguration(dialect: dialect, clientEvents: clientEvents)
        configuration.encryptionMasterKey = master
        return EdgeHarness(configuration)
    }

    private func control(_ h: EdgeHarness) -> ControlAPI {
        ControlAPI(edge: h.edge, restart: { _, _, _ in }, burst: { _, _, _, _, _ in })
    }

    private func call(_ api: ControlAPI, _ method: String, _ path: String, _ body: String = "") -> (Int, JSONValue?) {
        let headers: HTTPHeaders = body.isEmpty ? [:] : ["Content-Type": "application/json"]
        let outcome = api.handle(HTTPRequest(method: method, target: path, headers: headers, body: Array(body.utf8)))
        outcome.afterResponse?()
        return (outcome.response.status, json(outcome.response))
    }

    /// The demo auth endpoint's answer for `channel` on connection `id`, pusher form or bird JSON.
    private func auth(_ h: EdgeHarness, id: String, channel: String) -> HTTPResponse {
        let body =
            h.dialect == .pusher
            ? "socket_id=\(id)&channel_name=\(channel)"
            : JSONValue.object(["connection_id": .string(id), "channel_name": .string(channel)]).description
        return h.edge.handleChannelAuth(HTTPRequest(method: "POST", target: "/auth", body: Array(body.utf8)))
    }

    // MARK: Demo auth

    @Test(arguments: Dialect.allCases)
    func demoAuthAnswersTheChannelKeyAndTheEdgeAcceptsTheSignature(dialect: Dialect) throws {
        let h = harness(dialect: dialect)
        let (link, id) = h.client()
        let answer = try #require(json(auth(h, id: id, channel: Self.channel)))
        let secret = try #require(answer["shared_secret"]?.stringValue)
        #expect(try EncryptionKey(base64: secret) == Self.master.channelKey(for: Self.channel))
        #expect(answer["auth"]?.stringValue == h.sign("\(id):\(Self.channel)"))
        h.subscribe(id, Self.channel, auth: answer["auth"]?.stringValue)
        #expect(link.take().first?.event == h.wire(.subscriptionSucceeded))
        // A plain private channel gets no key.
        #expect(json(auth(h, id: id, channel: "private-plain"))?["shared_secret"] == nil)
    }

    @Test func withoutAMasterKeyEncryptedChannelsAreRefusedWith403() throws {
        let h = harness(master: nil)
        let (_, id) = h.client()
        let response = auth(h, id: id, channel: Self.channel)
        #expect(response.status == 403)
        let message = try #require(json(response)?["error"]?.stringValue)
        #expect(message.contains("master key"))
        #expect(auth(h, id: id, channel: "private-plain").status == 200)
    }

    @Test func theLogNeverShowsAKey() throws {
        let lines = Mutex<[String]>([])
        var configuration = SandboxConfiguration()
        configuration.encryptionMasterKey = Self.master
        let time = ManualTime()
        let edge = Edge(
            configuration: configuration, clock: { time.now }, log: { l in lines.withLock { $0.append(l) } })
        let link = FakeLink()
        let id = try #require(edge.open(link: link, path: "/app/sandbox-key", query: [("protocol", "7")], remote: "r"))
        let body = JSONValue.object(["connection_id": .string(id), "channel_name": .string(Self.channel)]).description
        _ = edge.handleChannelAuth(HTTPRequest(method: "POST", target: "/auth", body: Array(body.utf8)))
        let api = ControlAPI(edge: edge, restart: { _, _, _ in }, burst: { _, _, _, _, _ in })
        let newMaster = Sodium64.randomMaster()
        _ = api.handle(
            HTTPRequest(
                method: "POST", target: "/sandbox/encryption/rotate", headers: ["Content-Type": "application/json"],
                body: Array(#"{"master_key":"\#(Sodium64.master(newMaster))"}"#.utf8)))
        let all = lines.withLock { $0 }.joined(separator: "\n")
        #expect(all.contains("with its channel key"))
        #expect(all.contains("rotated"))
        for secret in [
            Sodium64.master(Self.master), Sodium64.master(newMaster),
            Self.master.channelKey(for: Self.channel).revealBase64(),
        ] {
            #expect(!all.contains(secret))
        }
    }

    // MARK: HTTP API

    @Test func anSDKSealedEventIsRelayedUntouched() throws {
        let h = harness(dialect: .pusher, master: nil)  // the edge needs no key to relay
        let (link, id) = h.client()
        h.joinPrivate(id, Self.channel)
        _ = link.take()
        let envelope = EncryptedPayload.seal(plaintext: #"{"a":1}"#, key: Self.master.channelKey(for: Self.channel))
            .text
        let body = JSONValue.object(["name": "e", "data": .string(envelope), "channel": .string(Self.channel)])
            .description
        let response = h.edge.handleAPI(
            signedRequest("POST", "/apps/sandbox/events", body: body, timestamp: h.time.now))
        #expect(response.status == 200)
        let relayed = try #require(link.take().first)
        #expect(relayed.data?.text == envelope)
        #expect(
            try EncryptedPayload.decrypt(relayed.data?.text ?? "", with: Self.master.channelKey(for: Self.channel))
                == #"{"a":1}"#)
    }

    @Test(arguments: [[channel, "news"], ["news", channel], [channel, "private-encrypted-other"]])
    func oneEventToSeveralChannelsWithAnEncryptedOneIs400(channels: [String]) throws {
        let h = harness(dialect: .pusher)
        let (link, id) = h.client()
        h.subscribe(id, "news")
        _ = link.take()
        let body = JSONValue.object([
            "name": "e", "data": "{}", "channels": .array(channels.map { .string($0) }),
        ]).description
        let response = h.edge.handleAPI(
            signedRequest("POST", "/apps/sandbox/events", body: body, timestamp: h.time.now))
        #expect(response.status == 400)
        #expect(json(response)?["error"]?.stringValue == Edge.multiChannelEncryptedError)
        #expect(link.take().isEmpty, "nothing delivered to any channel")
        // One channel, or a batch (one channel per event), is fine.
        let single = JSONValue.object(["name": "e", "data": "{}", "channels": [.string(Self.channel)]]).description
        #expect(
            h.edge.handleAPI(signedRequest("POST", "/apps/sandbox/events", body: single, timestamp: h.time.now))
                .status == 200)
        let batch = JSONValue.object([
            "batch": [
                ["name": "e", "data": "{}", "channel": .string(Self.channel)],
                ["name": "e", "data": "{}", "channel": "news"],
            ]
        ]).description
        #expect(
            h.edge.handleAPI(signedRequest("POST", "/apps/sandbox/batch_events", body: batch, timestamp: h.time.now))
                .status == 200)
    }

    // MARK: Control API

    @Test func publishSealsPlaintextForEncryptedChannelsUnlessAskedNotTo() throws {
        let h = harness()
        let api = control(h)
        let (link, id) = h.client()
        h.joinPrivate(id, Self.channel)
        h.subscribe(id, "news")
        _ = link.take()
        let key = Self.master.channelKey(for: Self.channel)

        #expect(
            call(api, "POST", "/sandbox/publish", #"{"channel":"\#(Self.channel)","event":"e","data":{"n":1}}"#).0
                == 200)
        let sealed = try #require(link.take().first?.data?.text)
        #expect(try EncryptedPayload.decrypt(sealed, with: key) == #"{"n":1}"#)

        #expect(
            call(api, "POST", "/sandbox/publish", #"{"channel":"\#(Self.channel)","event":"e","data":"plain"}"#).0
                == 200)
        #expect(try EncryptedPayload.decrypt(link.take().first?.data?.text ?? "", with: key) == "plain")

        let raw = #"{"channel":"\#(Self.channel)","event":"e","data":"not sealed","encrypted":false}"#
        #expect(call(api, "POST", "/sandbox/publish", raw).0 == 200)
        #expect(link.take().first?.data?.text == "not sealed")

        #expect(call(api, "POST", "/sandbox/publish", #"{"channel":"news","event":"e","data":"clear"}"#).0 == 200)
        #expect(link.take().first?.data?.text == "clear", "other channels are never sealed")

        let (status, body) = call(
            api, "POST", "/sandbox/publish", #"{"channel":"\#(Self.channel)","event":"e","encrypted":"yes"}"#)
        #expect(status == 400)
        #expect(body?["error"]?.stringValue?.contains("encrypted") == true)
    }

    @Test func publishToAnEncryptedChannelWithoutAMasterKeyIs400() throws {
        let h = harness(master: nil)
        let (status, body) = call(
            control(h), "POST", "/sandbox/publish", #"{"channel":"\#(Self.channel)","event":"e","data":"x"}"#)
        #expect(status == 400)
        #expect(body?["error"]?.stringValue?.contains("master key") == true)
    }

    @Test func rotateReplacesTheMasterKeyAndNeverAnswersIt() throws {
        let h = harness()
        let api = control(h)
        let (_, id) = h.client()
        let before = json(auth(h, id: id, channel: Self.channel))?["shared_secret"]?.stringValue

        let (status, body) = call(api, "POST", "/sandbox/encryption/rotate")
        #expect(status == 200)
        #expect(body == ["ok": true, "replaced": 1])
        let afterRandom = json(auth(h, id: id, channel: Self.channel))?["shared_secret"]?.stringValue
        #expect(afterRandom != nil && afterRandom != before)

        let chosen = Sodium64.randomMaster()
        let answer = call(api, "POST", "/sandbox/encryption/rotate", #"{"master_key":"\#(Sodium64.master(chosen))"}"#)
        #expect(answer.0 == 200)
        #expect(answer.1?.description.contains(Sodium64.master(chosen)) == false)
        #expect(
            json(auth(h, id: id, channel: Self.channel))?["shared_secret"]?.stringValue
                == chosen.channelKey(for: Self.channel).revealBase64())

        // Without a key before, a rotation sets one.
        let off = harness(master: nil)
        #expect(call(control(off), "POST", "/sandbox/encryption/rotate").1?["replaced"] == 0)
        let (_, offId) = off.client()
        #expect(auth(off, id: offId, channel: Self.channel).status == 200)
    }

    @Test(arguments: [
        #"{"master_key":"c2hvcnQ="}"#, #"{"master_key":"not base64 at all!"}"#, #"{"master_key":42}"#,
        #"{"master_key":null}"#, #"{"master_key":["c2VjcmV0"]}"#,
    ])
    func aBadMasterKeyIs400AndChangesNothing(body: String) throws {
        let h = harness()
        let (status, answer) = call(control(h), "POST", "/sandbox/encryption/rotate", body)
        #expect(status == 400)
        let message = try #require(answer?["error"]?.stringValue)
        #expect(message.hasPrefix("master_key"))
        for secret in ["c2hvcnQ=", "not base64", "42", "c2VjcmV0"] { #expect(!message.contains(secret)) }
        #expect(h.edge.encryptionMasterKey == Self.master)
    }

    // MARK: Client events

    @Test func clientEventsOnEncryptedChannelsAreRefused() throws {
        let h = harness(dialect: .pusher, clientEvents: true)
        let (sender, senderId) = h.client()
        let (receiver, receiverId) = h.client()
        h.joinPrivate(senderId, Self.channel)
        h.joinPrivate(receiverId, Self.channel)
        _ = sender.take()
        _ = receiver.take()
        h.send(senderId, "client-typing", channel: Self.channel, data: ["on": true])
        let error = try #require(sender.take().first)
        #expect(error.event == "pusher:error")
        #expect(error.data?.value["code"] == 4301)
        #expect(error.data?.value["message"]?.stringValue?.contains("encrypted") == true)
        #expect(receiver.take().isEmpty)
    }

    // MARK: Command line

    @Test func theFlagAndTheEnvironmentGiveTheMasterKeyTheFlagWins() throws {
        let a = Sodium64.randomMaster()
        let b = Sodium64.randomMaster()
        func key(_ arguments: [String], _ environment: [String: String] = [:]) throws -> EncryptionMasterKey? {
            guard case .run(let configuration, _) = try SandboxCommandLine.parse(arguments, environment: environment)
            else { return nil }
            return configuration.encryptionMasterKey
        }
        let variable = SandboxCommandLine.encryptionMasterKeyVariable
        #expect(try key([]) == nil)
        #expect(try key(["--encryption-master-key", Sodium64.master(a)]) == a)
        #expect(try key(["--encryption-master-key=\(Sodium64.master(a))"]) == a)
        #expect(try key([], [variable: Sodium64.master(b)]) == b)
        #expect(try key(["--encryption-master-key", Sodium64.master(a)], [variable: Sodium64.master(b)]) == a)
        #expect(try key([], [variable: ""]) == nil)
    }

    @Test(arguments: ["c2hvcnQgc2VjcmV0", "this-is-not-base64-secret", "", String(repeating: "QUFB", count: 20)])
    func aBadKeyIsAUsageErrorThatNeverEchoesIt(text: String) {
        for (arguments, environment) in [
            (["--encryption-master-key", text], [String: String]()),
            ([String](), [SandboxCommandLine.encryptionMasterKeyVariable: text]),
        ] where !(arguments.isEmpty && text.isEmpty) {
            let error = #expect(throws: SandboxCommandLine.UsageError.self) {
                try SandboxCommandLine.parse(arguments, environment: environment)
            }
            let message = error?.message ?? ""
            #expect(message.contains("encryption") || message.contains("ENCRYPTION"), "\(message)")
            if !text.isEmpty { #expect(!message.contains(text), "\(message)") }
        }
    }
}

/// The `bird-sandbox` executable and its master key: refused when bad (exit 2), never printed.
@Suite(.serialized) struct SandboxEncryptionProcessTests {
    /// Base64 of "this is a secret, not 32 bytes" (30 bytes): valid base64, wrong length.
    static let shortKey = "dGhpcyBpcyBhIHNlY3JldCwgbm90IDMyIGJ5dGVz"

    @Test(arguments: [true, false])
    func aBadKeyExits2WithAMessageThatNeverShowsIt(viaFlag: Bool) async throws {
        guard let binary = ChildProcess.sandboxBinary() else { return }
        let variable = SandboxCommandLine.encryptionMasterKeyVariable
        let sandbox = try ChildProcess(
            binary, ["--port", "0"] + (viaFlag ? ["--encryption-master-key", Self.shortKey] : []),
            environment: viaFlag ? [:] : [variable: Self.shortKey])
        defer { sandbox.kill() }
        #expect(await sandbox.waitForExit() == 2, "stderr: \(sandbox.stderr)")
        #expect(sandbox.stderr.contains(viaFlag ? "--encryption-master-key" : variable), "\(sandbox.stderr)")
        #expect(sandbox.stderr.contains("30 bytes"), "\(sandbox.stderr)")
        #expect(!sandbox.stderr.contains(Self.shortKey))
        #expect(sandbox.stdoutLines.isEmpty)
    }

    @Test func withAKeyItServesEncryptedChannelsAndNeverPrintsTheKey() async throws {
        guard let binary = ChildProcess.sandboxBinary() else { return }
        let master = Sodium64.randomMaster()
        let base64 = Sodium64.master(master)
        let sandbox = try ChildProcess(
            binary, ["--port", "0"], environment: [SandboxCommandLine.encryptionMasterKeyVariable: base64])
        defer { sandbox.kill() }
        let line = try #require(await sandbox.waitForLine { $0.hasPrefix("{") }, "stderr: \(sandbox.stderr)")
        let endpoints = try JSONValue(parsing: line)
        let authURL = try #require(endpoints["auth_endpoint"]?.stringValue)
        let body = #"{"connection_id":"1.2","channel_name":"private-encrypted-x"}"#
        let answer = try await HTTPClient.send(
            method: "POST", url: try #require(URL(string: authURL)), headers: ["Content-Type": "application/json"],
            body: Array(body.utf8))
        #expect(answer.status == 200)
        let secret = try JSONValue(parsing: String(decoding: answer.body, as: UTF8.self))["shared_secret"]?.stringValue
        #expect(secret == master.channelKey(for: "private-encrypted-x").revealBase64())
        sandbox.send(SIGTERM)
        #expect(await sandbox.waitForExit() == 0)
        let output = sandbox.stderr + sandbox.stdoutLines.joined(separator: "\n")
        #expect(sandbox.stderr.contains("with its channel key"), "\(sandbox.stderr)")
        #expect(!output.contains(base64))
        #expect(!output.contains(secret ?? "-"))
    }
}

/// Master keys made from known random bytes, so tests can spell them (the type never shows them).
enum Sodium64 {
    private static let known = Mutex<[(key: EncryptionMasterKey, base64: String)]>([])

    /// A fresh random master key whose base64 ``master(_:)`` can give.
    static func randomMaster() -> EncryptionMasterKey {
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max) }
        // 32 random bytes always make a key.
        guard let key = try? EncryptionMasterKey(bytes: bytes) else { preconditionFailure("32 bytes") }
        let base64 = Data(bytes).base64EncodedString()
        known.withLock { $0.append((key, base64)) }
        return key
    }

    /// The base64 of a key made by ``randomMaster()``.
    static func master(_ key: EncryptionMasterKey) -> String {
        known.withLock { list in list.first { $0.key == key }?.base64 ?? "" }
    }
}
