import CSodium
import Testing
@testable import BirdWire

/// Fixed vectors computed by the official `pusher` Python SDK 3.3.2 and PyNaCl 1.6.2:
///
///     .venv/bin/python Scripts/interop/encryption_vectors.py
///
/// (every value below is in its output; `sdkTriggerData` has a random nonce and changes per run).
enum SDKVectors {
    /// `b"bird-sdk-swift test master key!!"` as the SDK's `encryption_master_key_base64`.
    static let masterKey = "YmlyZC1zZGstc3dpZnQgdGVzdCBtYXN0ZXIga2V5ISE="
    static let channel = "private-encrypted-orders"
    /// `authenticate(channel=…, socket_id="1234.1234")` with key `278d425bdf160c739803`, secret
    /// `7ad3773142a6692b25b8` (Pusher's documented example app).
    static let auth = "278d425bdf160c739803:bc32059df4abc5918d2a4ce084b4875fcfbe7ddc8c84eff6dbc5ef52029f2a6b"
    static let sharedSecret = "dKdh8WYKCKhaBvYrKaTDAzpo57WbTXY/xVjVbHX/sMI="
    static let sharedSecretHex = "74a761f1660a08a85a06f62b29a4c3033a68e7b59b4d763fc558d56c75ffb0c2"
    /// `json.dumps({"item": "café ☕", "qty": 2}, ensure_ascii=False)`.
    static let plaintext = "{\"item\": \"café ☕\", \"qty\": 2}"
    /// `encrypt(channel, plaintext, master, nonce=bytes(range(24)))`, as json.dumps writes it.
    static let fixedNonce = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYX"
    static let fixedCiphertext = "VftJZ2W5JHr2sodQok1I2MfvwdOgJgC7QsWIMKgSjOZFEwFP9+vrnH8mAr8BRko="
    static let fixedData = "{\"nonce\": \"\(fixedNonce)\", \"ciphertext\": \"\(fixedCiphertext)\"}"
    /// `encrypt(channel, "", master, nonce=bytes([7] * 24))`: a tag and nothing else.
    static let emptyData =
        "{\"nonce\": \"BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcH\", \"ciphertext\": \"HKwiFhSTKNCMra+30IiSFA==\"}"
    /// The `data` member of the SDK's own `trigger(channel, "order-placed", {...})` request.
    static let sdkTriggerData =
        "{\"nonce\": \"sHEM79dpU03prOYxOkMkqxBOA3MYchjO\", \"ciphertext\": \"2PhJSKm1CgOr67T87kcDl/TG97369iTvMoGh39MVi8ptdRy5EAxsyPmnDxA7mz0=\"}"
    /// PyNaCl `SecretBox(shared_secret).encrypt(b"\xff\xfe\xfd", bytes([9] * 24))`: authentic, not UTF-8.
    static let notUTF8Data =
        "{\"nonce\": \"CQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJ\", \"ciphertext\": \"6B+jUpibE3tOAF98rpDDzinV1w==\"}"

    static func key() throws -> EncryptionKey { try EncryptionKey(base64: sharedSecret) }
}

@Suite("Encryption: the official SDK's vectors")
struct EncryptionVectorTests {
    @Test("channel key = SHA-256(channel ‖ master key), the SDK's shared_secret")
    func derivation() throws {
        let master = try EncryptionMasterKey(base64: SDKVectors.masterKey)
        let key = EncryptionKey.deriveChannelKey(channel: SDKVectors.channel, masterKey: master)
        #expect(key.revealBase64() == SDKVectors.sharedSecret)
        #expect(Signature.hex(key.bytes) == SDKVectors.sharedSecretHex)
        #expect(master.channelKey(for: SDKVectors.channel) == (try SDKVectors.key()))
        // Another channel, another key.
        #expect(master.channelKey(for: "private-encrypted-other") != key)
    }

    @Test("an encrypted channel is signed like any private channel (the SDK's auth)")
    func authSignature() {
        let string = Signature.channelString(connectionId: "1234.1234", channel: SDKVectors.channel, memberData: nil)
        #expect(
            Signature.auth(appKey: "278d425bdf160c739803", secret: "7ad3773142a6692b25b8", string: string)
                == SDKVectors.auth)
    }

    @Test("sealing with the SDK's nonce gives the SDK's ciphertext, and our text parses back")
    func sealMatchesSDK() throws {
        let nonce = try #require(EncryptionNonce(bytes: (0..<24).map { UInt8($0) }))
        let payload = EncryptedPayload.seal(plaintext: SDKVectors.plaintext, key: try SDKVectors.key(), nonce: nonce)
        #expect(payload.nonce.base64 == SDKVectors.fixedNonce)
        #expect(Sodium.base64(payload.ciphertext) == SDKVectors.fixedCiphertext)
        #expect(
            payload.text == "{\"nonce\":\"\(SDKVectors.fixedNonce)\",\"ciphertext\":\"\(SDKVectors.fixedCiphertext)\"}")
        #expect(try EncryptedPayload(parsing: payload.text) == payload)
        #expect(try EncryptedPayload(parsing: SDKVectors.fixedData) == payload)
    }

    @Test("the SDK's payloads open: fixed nonce, its trigger's data, an empty plaintext")
    func openSDKPayloads() throws {
        let key = try SDKVectors.key()
        #expect(try EncryptedPayload.decrypt(SDKVectors.fixedData, with: key) == SDKVectors.plaintext)
        #expect(try EncryptedPayload.decrypt(SDKVectors.sdkTriggerData, with: key) == SDKVectors.plaintext)
        #expect(try EncryptedPayload.decrypt(SDKVectors.emptyData, with: key) == "")
        let empty = try EncryptedPayload(parsing: SDKVectors.emptyData)
        #expect(empty.ciphertext.count == EncryptedPayload.macByteCount)
        let sealed = EncryptedPayload.seal(plaintext: "", key: key, nonce: empty.nonce)
        #expect(sealed == empty)
    }

    @Test("authentic bytes that are not UTF-8 are a typed failure")
    func notUTF8() throws {
        let payload = try EncryptedPayload(parsing: SDKVectors.notUTF8Data)
        #expect(throws: DecryptionFailure.plaintextNotUTF8) { try payload.open(with: try SDKVectors.key()) }
        let error = #expect(throws: EncryptedDataError.self) {
            try EncryptedPayload.decrypt(SDKVectors.notUTF8Data, with: try SDKVectors.key())
        }
        #expect(error == .undecryptable(.plaintextNotUTF8))
        #expect(error?.warrantsKeyRefresh == false)
    }
}

@Suite("Encryption: keys, nonces, channel names")
struct EncryptionPrimitiveTests {
    @Test("seal then open round-trips text under random nonces, which differ")
    func roundTrip() throws {
        let key = EncryptionMasterKey.random().channelKey(for: "private-encrypted-x")
        let text = "héllo ☕ \u{1F600} \"quoted\" \\ / \n"
        let a = EncryptedPayload.seal(plaintext: text, key: key)
        let b = EncryptedPayload.seal(plaintext: text, key: key)
        #expect(a.nonce != b.nonce)
        #expect(a.ciphertext != b.ciphertext)
        #expect(a.ciphertext.count == Array(text.utf8).count + EncryptedPayload.macByteCount)
        #expect(try EncryptedPayload.decrypt(a.text, with: key) == text)
        #expect(try EncryptedPayload(parsing: b.text).open(with: key) == text)
    }

    @Test("random master keys differ")
    func randomMasterKeys() {
        #expect(EncryptionMasterKey.random() != EncryptionMasterKey.random())
    }

    @Test(
        "keys must be standard padded base64 of 32 bytes",
        arguments: [
            ("not base64!", EncryptionKeyError.notBase64),
            ("dKdh8WYKCKhaBvYrKaTDAzpo57WbTXY/xVjVbHX/sMI", .notBase64),  // unpadded
            ("dKdh8WYKCKhaBvYrKaTDAzpo57WbTXY_xVjVbHX_sMI=", .notBase64),  // URL-safe alphabet
            (" dKdh8WYKCKhaBvYrKaTDAzpo57WbTXY/xVjVbHX/sMI=", .notBase64),  // whitespace
            ("dKdh8WYKCKhaBvYrKaTDAzpo57WbTXY/xVjVbHX/sMI=\n", .notBase64),
            ("dKdh8WYKCKhaBvYrKaTDAzpo57WbTXY/xVjVbHX/sMI==", .notBase64),  // extra padding
            ("dKdh8WYKCKhaBvYrKaTDAzpo57WbTXY/xVjVbHX/sMJ=", .notBase64),  // non-zero trailing bits
            ("dKdh\u{0}8WYKCKhaBvYrKaTDAzpo57WbTXY/xVjVbHX/sMI=", .notBase64),  // embedded NUL
            // Bytes 0x80–0xFF, which libsodium 1.0.18 alone would take for '+' or '/' (the fuzzer's
            // find: "dKd", 0xFF x7, 0xF9, then "h8WYKCKhaBvY/sMI=", read as U+FFFD, is 44 bytes).
            ("dKd" + String(repeating: "\u{FFFD}", count: 8) + "h8WYKCKhaBvY/sMI=", .notBase64),
            ("dKdh8WYKCKhaBvYrKaTDAzpo57WbTXY/xVjVbHX/sé=", .notBase64),
            ("", .wrongLength(byteCount: 0)),
            ("AAAAAAAAAAAAAAAAAAAAAA==", .wrongLength(byteCount: 16)),
            (String(repeating: "A", count: 44), .wrongLength(byteCount: 33)),
        ])
    func keyErrors(text: String, expected: EncryptionKeyError) {
        #expect(throws: expected) { try EncryptionKey(base64: text) }
        #expect(throws: expected) { try EncryptionMasterKey(base64: text) }
    }

    @Test("keys from bytes check the length")
    func keyBytes() throws {
        #expect(throws: EncryptionKeyError.wrongLength(byteCount: 31)) {
            try EncryptionKey(bytes: [UInt8](repeating: 1, count: 31))
        }
        #expect(throws: EncryptionKeyError.wrongLength(byteCount: 33)) {
            try EncryptionMasterKey(bytes: [UInt8](repeating: 1, count: 33))
        }
        let bytes = (0..<32).map { UInt8($0) }
        #expect(try EncryptionKey(bytes: bytes).revealBase64() == "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=")
        #expect(EncryptionNonce(bytes: [UInt8](repeating: 0, count: 23)) == nil)
        #expect(EncryptionNonce(bytes: [UInt8](repeating: 0, count: 24)) != nil)
    }

    @Test("no key material in description, debugDescription, dump or errors")
    func redacted() throws {
        let key = try SDKVectors.key()
        let master = try EncryptionMasterKey(base64: SDKVectors.masterKey)
        var dumped = ""
        dump(key, to: &dumped)
        dump(master, to: &dumped)
        dump([key], to: &dumped)
        dump(master.material, to: &dumped)
        let shown = [
            "\(key)", String(reflecting: key), "\(master)", String(reflecting: master), dumped,
            "\(key.material)", String(reflecting: master.material),
            "\(Optional(key) as Any)", "\([master])",
        ].joined(separator: "\n")
        #expect(
            "\(key)" == "EncryptionKey(<redacted>)" && String(reflecting: master) == "EncryptionMasterKey(<redacted>)")
        for secret in [
            SDKVectors.sharedSecret, SDKVectors.masterKey, SDKVectors.sharedSecretHex, "116", "bytes", "material",
        ] {
            #expect(!shown.contains(secret), "key material (\(secret.prefix(3))…) in \(shown)")
        }
        // Errors about a key never repeat the text that was offered as one.
        let offered = SDKVectors.sharedSecret.dropLast()
        let error = #expect(throws: EncryptionKeyError.self) { try EncryptionKey(base64: String(offered)) }
        #expect(error.map { !"\($0)".contains(offered) } == true)
    }

    @Test("private-encrypted- channels: private for auth, encrypted, no client events")
    func channelNames() {
        for name in ["private-encrypted-orders", "private-encrypted-", "private-encrypted-a-b"] {
            #expect(ChannelKind(channelName: name) == .private)
            #expect(ChannelKind(channelName: name).requiresAuthorization)
            #expect(ChannelKind.isEncrypted(channelName: name))
            #expect(!ChannelKind.allowsClientEvents(channelName: name))
        }
        for name in [
            "private-orders", "private-encryptedorders", "presence-encrypted-x", "encrypted-x", "orders",
            "#server-to-member-private-encrypted-x",
        ] {
            #expect(!ChannelKind.isEncrypted(channelName: name), "\(name)")
        }
        #expect(ChannelKind.allowsClientEvents(channelName: "private-orders"))
        #expect(ChannelKind.allowsClientEvents(channelName: "presence-room"))
        #expect(!ChannelKind.allowsClientEvents(channelName: "orders"))
        #expect(!ChannelKind.allowsClientEvents(channelName: "#server-to-member-1"))
    }

    @Test("protocol events travel in clear on encrypted channels, in both dialects")
    func clearEvents() {
        for dialect in Dialect.allCases {
            for event in ProtocolEvent.allCases {
                #expect(!EncryptedChannel.carriesEncryptedData(eventName: event.wireName(dialect), dialect: dialect))
            }
            #expect(
                !EncryptedChannel.carriesEncryptedData(eventName: dialect.internalPrefix + "future", dialect: dialect))
            #expect(EncryptedChannel.carriesEncryptedData(eventName: "order-placed", dialect: dialect))
            #expect(EncryptedChannel.carriesEncryptedData(eventName: "client-typing", dialect: dialect))
        }
        #expect(EncryptedChannel.carriesEncryptedData(eventName: "bird:thing", dialect: .pusher))
        #expect(EncryptedChannel.sharedSecretKey == "shared_secret")
    }

    @Test("libsodium initialises once; later sodium_init calls report 'already'")
    func initialisedOnce() {
        #expect(Sodium.initialized)
        #expect(sodium_init() == 1)
    }
}
