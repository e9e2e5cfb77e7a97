import Testing
@testable import BirdWire

/// Hostile and broken payloads: each gives its typed error, none traps.
@Suite("Encryption: hostile payloads")
struct EncryptionHostileInputTests {
    static let nonce = SDKVectors.fixedNonce
    static let ciphertext = SDKVectors.fixedCiphertext

    static func data(nonce: String = nonce, ciphertext: String = ciphertext) -> String {
        "{\"nonce\":\"\(nonce)\",\"ciphertext\":\"\(ciphertext)\"}"
    }

    @Test(
        "malformed payloads are refused with the reason",
        arguments: [
            ("[]", EncryptedPayloadError.notAnObject),
            ("\"{\\\"nonce\\\":1}\"", .notAnObject),  // double-encoded: a string, not an object
            ("null", .notAnObject),
            ("{}", .missingField(.nonce)),
            ("{\"ciphertext\":\"\(ciphertext)\"}", .missingField(.nonce)),
            ("{\"nonce\":\"\(nonce)\"}", .missingField(.ciphertext)),
            ("{\"nonce\":1,\"ciphertext\":\"\(ciphertext)\"}", .fieldNotString(.nonce)),
            ("{\"nonce\":null,\"ciphertext\":\"\(ciphertext)\"}", .fieldNotString(.nonce)),
            ("{\"nonce\":\"\(nonce)\",\"ciphertext\":[\"\(ciphertext)\"]}", .fieldNotString(.ciphertext)),
            (data(nonce: "!!!!"), .notBase64(.nonce)),
            (data(ciphertext: "not base64 at all"), .notBase64(.ciphertext)),
            (data(ciphertext: String(ciphertext.dropLast())), .notBase64(.ciphertext)),  // padding cut
            (data(ciphertext: "\\u0000" + ciphertext), .notBase64(.ciphertext)),  // NUL inside the string
            (data(nonce: "AAECAwQFBgcICQoLDA0ODxAREhMUFR\u{FF}X"), .notBase64(.nonce)),  // non-ASCII
            (data(nonce: String(nonce.dropLast(4))), .wrongNonceLength(byteCount: 21)),  // truncated nonce
            (data(nonce: "AAECAwQFBgcICQoLDA0ODxAREhMUFRY="), .wrongNonceLength(byteCount: 23)),
            (data(nonce: nonce + "AAAA"), .wrongNonceLength(byteCount: 27)),
            (data(nonce: ""), .wrongNonceLength(byteCount: 0)),
            (data(ciphertext: ""), .ciphertextTooShort(byteCount: 0)),
            (data(ciphertext: "AAAAAAAAAAAAAAAAAAAA"), .ciphertextTooShort(byteCount: 15)),
        ])
    func malformed(text: String, expected: EncryptedPayloadError) {
        #expect(throws: expected) { try EncryptedPayload(parsing: text) }
        let key = EncryptionKey.deriveChannelKey(channel: "private-encrypted-x", masterKey: .random())
        let error = #expect(throws: EncryptedDataError.self) { try EncryptedPayload.decrypt(text, with: key) }
        #expect(error == .malformed(expected))
        #expect(error?.warrantsKeyRefresh == false)
    }

    @Test("text that is not JSON", arguments: ["", "   ", "{", "nonce=AAA", "{\"nonce\":\"a\",}", "\u{FEFF}{}"])
    func notJSON(text: String) {
        let error = #expect(throws: EncryptedPayloadError.self) { try EncryptedPayload(parsing: text) }
        guard case .notJSON = error else {
            Issue.record("expected notJSON, got \(String(describing: error))")
            return
        }
    }

    @Test("deeply nested JSON is refused without exhausting the stack")
    func deepNesting() {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: EncryptedPayloadError.self) { try EncryptedPayload(parsing: text) }
    }

    @Test("a 10 MiB ciphertext is refused by size before parsing; opened anyway it fails typed")
    func huge() throws {
        let big = String(repeating: "A", count: 10 << 20)
        let text = Self.data(ciphertext: big)
        #expect(
            throws: EncryptedPayloadError.tooLarge(
                byteCount: text.utf8.count, limit: EncryptedPayload.defaultMaxTextBytes)
        ) {
            try EncryptedPayload(parsing: text)
        }
        // Past the limit the parse is still safe: 7.5 MiB of zeros that do not authenticate.
        let payload = try EncryptedPayload(parsing: text, maxTextBytes: .max)
        #expect(payload.ciphertext.count == (10 << 20) / 4 * 3)
        #expect(throws: DecryptionFailure.authenticationFailed) { try payload.open(with: try SDKVectors.key()) }
        // The limit counts UTF-8 bytes, and a limit of zero (or less) refuses everything.
        #expect(throws: EncryptedPayloadError.tooLarge(byteCount: 2, limit: 1)) {
            try EncryptedPayload(parsing: "é", maxTextBytes: 1)
        }
        #expect(throws: EncryptedPayloadError.tooLarge(byteCount: 2, limit: -1)) {
            try EncryptedPayload(parsing: "{}", maxTextBytes: -1)
        }
    }

    @Test("the wrong key, a MAC-only payload, a flipped bit: authentication fails, a refresh is warranted")
    func authenticationFailures() throws {
        let key = try SDKVectors.key()
        let wrongKey = EncryptionKey.deriveChannelKey(
            channel: SDKVectors.channel, masterKey: try EncryptionMasterKey(bytes: [UInt8](repeating: 0, count: 32)))
        // Another channel's key under the right master key fails too.
        let otherChannel = try EncryptionMasterKey(base64: SDKVectors.masterKey).channelKey(for: "private-encrypted-x")
        for wrong in [wrongKey, otherChannel] {
            let error = #expect(throws: EncryptedDataError.self) {
                try EncryptedPayload.decrypt(SDKVectors.fixedData, with: wrong)
            }
            #expect(error == .undecryptable(.authenticationFailed))
            #expect(error?.warrantsKeyRefresh == true)
        }

        let genuine = try EncryptedPayload(parsing: SDKVectors.fixedData)
        var sealed = genuine.ciphertext
        for index in [0, 15, 16, sealed.count - 1] {  // in the tag, at its end, in the body
            sealed = genuine.ciphertext
            sealed[index] ^= 0x01
            let text = Self.data(ciphertext: Sodium.base64(sealed))
            #expect(throws: DecryptionFailure.authenticationFailed, "bit flipped at \(index)") {
                try EncryptedPayload(parsing: text).open(with: key)
            }
        }
        var nonce = genuine.nonce.bytes
        nonce[23] ^= 0x80
        #expect(throws: DecryptionFailure.authenticationFailed) {
            try EncryptedPayload(parsing: Self.data(nonce: Sodium.base64(nonce))).open(with: key)
        }
        // A tag and nothing else: well-formed, but not a tag this key made.
        let macOnly = Self.data(ciphertext: Sodium.base64([UInt8](repeating: 0xAB, count: 16)))
        #expect(try EncryptedPayload(parsing: macOnly).ciphertext.count == 16)
        #expect(throws: DecryptionFailure.authenticationFailed) {
            try EncryptedPayload(parsing: macOnly).open(with: key)
        }
        // The genuine payload still opens (nothing above altered it).
        #expect(try genuine.open(with: key) == SDKVectors.plaintext)
    }

    @Test("extra members are ignored; spacing does not matter")
    func lenientShape() throws {
        let key = try SDKVectors.key()
        let text = "{ \"v\": 2, \"ciphertext\" :\"\(Self.ciphertext)\",\n\"nonce\": \"\(Self.nonce)\" }"
        #expect(try EncryptedPayload.decrypt(text, with: key) == SDKVectors.plaintext)
    }

    @Test("error descriptions say what is wrong and carry no payload bytes")
    func descriptions() {
        let errors: [EncryptedDataError] = [
            .malformed(.tooLarge(byteCount: 300_000, limit: 262_144)), .malformed(.notAnObject),
            .malformed(.missingField(.nonce)), .malformed(.fieldNotString(.ciphertext)),
            .malformed(.notBase64(.nonce)), .malformed(.wrongNonceLength(byteCount: 23)),
            .malformed(.ciphertextTooShort(byteCount: 3)), .undecryptable(.authenticationFailed),
            .undecryptable(.plaintextNotUTF8),
        ]
        let texts = errors.map(\.description)
        #expect(Set(texts).count == errors.count)
        #expect(texts[5].contains("23") && texts[5].contains("24"))
        #expect(texts[7].contains("wrong key"))
    }
}
