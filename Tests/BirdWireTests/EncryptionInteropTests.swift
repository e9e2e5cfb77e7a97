import Foundation
import Testing
@testable import BirdWire
import TestSupport

/// Our encryption against the official `pusher` Python SDK and PyNaCl, live, on random inputs
/// (the project's venv: `BIRD_PYTHON`, default `<root>/.venv/bin/python`; Scripts/bootstrap).
@Suite("Encryption: live against the pusher SDK and PyNaCl")
struct EncryptionInteropTests {
    /// Two modes, one JSON line out.
    /// `sdk-seal MASTER_B64 CHANNEL PLAINTEXT_B64`: the SDK signs the channel (`authenticate`) and
    /// builds its `trigger` request; prints `shared_secret` and the request's `data`.
    /// `nacl-open MASTER_B64 CHANNEL DATA`: derives the key with the SDK and opens our payload
    /// with PyNaCl's `SecretBox.decrypt`; prints the plaintext as base64.
    static let peer = #"""
        import base64, json, sys
        try:
            import nacl.secret
            import pusher
            from pusher.crypto import generate_shared_secret
        except ImportError as e:
            print(json.dumps({"missing": str(e)}))
            sys.exit(3)
        mode, master_b64, channel = sys.argv[1:4]
        if mode == "sdk-seal":
            plaintext = base64.b64decode(sys.argv[4]).decode("utf-8")
            client = pusher.Pusher(app_id="1", key="app-key", secret="app-secret",
                                   encryption_master_key_base64=master_b64)
            auth = client.authenticate(channel=channel, socket_id="123.456")
            secret = auth["shared_secret"]
            if isinstance(secret, bytes):
                secret = secret.decode()
            request = client._pusher_client.trigger.make_request(channel, "order-placed", plaintext)
            print(json.dumps({"shared_secret": secret, "data": request.params["data"]}))
        elif mode == "nacl-open":
            key = generate_shared_secret(channel.encode("utf-8"), base64.b64decode(master_b64))
            envelope = json.loads(sys.argv[4])
            opened = nacl.secret.SecretBox(key).decrypt(
                base64.b64decode(envelope["ciphertext"]), base64.b64decode(envelope["nonce"]))
            print(json.dumps({"plaintext": base64.b64encode(opened).decode()}))
        """#

    /// The JSON object a peer printed.
    static func object(_ line: String?) -> [String: Any]? {
        line.flatMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    @Test("the SDK seals random text under a random master key; we derive its key and open it", .timeLimit(.minutes(2)))
    func sdkSealsWeOpen() async throws {
        guard let python = PythonPeer.interpreter() else { return }
        for round in 0..<3 {
            let masterBytes = RandomInput.bytes(32)
            let master = try EncryptionMasterKey(bytes: masterBytes)
            let channel = "private-encrypted-" + RandomInput.channelSuffix()
            let plaintext = RandomInput.text(maxScalars: round == 0 ? 0 : 400)
            guard
                let out = Self.object(
                    await PythonPeer.run(
                        python, script: Self.peer,
                        arguments: [
                            "sdk-seal", Data(masterBytes).base64EncodedString(), channel,
                            Data(plaintext.utf8).base64EncodedString(),
                        ]))
            else { return }
            let sharedSecret = try #require(out["shared_secret"] as? String)
            let data = try #require(out["data"] as? String)

            let ours = master.channelKey(for: channel)
            #expect(ours == (try EncryptionKey(base64: sharedSecret)), "channel \(channel)")
            #expect(ours.revealBase64() == sharedSecret)
            #expect(
                try EncryptedPayload.decrypt(data, with: ours) == plaintext, "plaintext \(plaintext.debugDescription)")
            let wrong = EncryptionMasterKey.random().channelKey(for: channel)
            #expect(throws: EncryptedDataError.undecryptable(.authenticationFailed)) {
                try EncryptedPayload.decrypt(data, with: wrong)
            }
        }
    }

    @Test("we seal random text; PyNaCl opens it with the key the SDK derives", .timeLimit(.minutes(2)))
    func weSealNaClOpens() async throws {
        guard let python = PythonPeer.interpreter() else { return }
        for round in 0..<3 {
            let masterBytes = RandomInput.bytes(32)
            let channel = "private-encrypted-" + RandomInput.channelSuffix()
            let plaintext = RandomInput.text(maxScalars: round == 0 ? 0 : 400)
            let key = try EncryptionMasterKey(bytes: masterBytes).channelKey(for: channel)
            let payload = EncryptedPayload.seal(plaintext: plaintext, key: key)
            guard
                let out = Self.object(
                    await PythonPeer.run(
                        python, script: Self.peer,
                        arguments: ["nacl-open", Data(masterBytes).base64EncodedString(), channel, payload.text]))
            else { return }
            let opened = try #require(out["plaintext"] as? String)
            #expect(Data(base64Encoded: opened) == Data(plaintext.utf8), "plaintext \(plaintext.debugDescription)")
        }
    }
}

/// Random test inputs (the system generator; what was drawn is in every failure message).
enum RandomInput {
    static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    static func channelSuffix() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789-_=@,.;")
        return String((0..<Int.random(in: 1...40)).map { _ in alphabet.randomElement() ?? "a" })
    }

    /// Up to `maxScalars` scalars from ASCII (quotes, backslashes, controls), Latin-1, CJK and emoji.
    static func text(maxScalars: Int) -> String {
        let ranges: [ClosedRange<UInt32>] = [0x01...0x7F, 0x80...0x2FF, 0x4E00...0x9FFF, 0x1F300...0x1FAFF]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...maxScalars) {
            let range = ranges.randomElement() ?? ranges[0]
            if let scalar = Unicode.Scalar(UInt32.random(in: range)) { scalars.append(scalar) }
        }
        return String(scalars)
    }
}
