import Testing

@testable import BirdRealtime

/// The re-authorise-once rule as a value: inputs in, actions out, no client around it.
@Suite("EncryptedChannelState: the re-authorise-once rule as a value")
struct EncryptedChannelStateTests {
    static let channel = "private-encrypted-x"

    typealias Sealed = EncryptedChannelState.Sealed

    static func sealed(_ plaintext: String, _ key: EncryptionKey, name: String = "e") -> Sealed {
        Sealed(name: name, text: EncryptedPayload.seal(plaintext: plaintext, key: key).text)
    }

    static func key() -> EncryptionKey { EncryptionMasterKey.random().channelKey(for: channel) }

    /// The plaintexts delivered and the problems reported, in order.
    static func outcome(_ actions: [EncryptedChannelState.Action]) -> [String] {
        actions.map { action in
            switch action {
            case .deliver(_, let plaintext): return "deliver \(plaintext)"
            case .report(let event, let problem): return "report \(event.name) \(problem)"
            case .fetchKey(let token): return "fetch \(token)"
            }
        }
    }

    @Test("without a key every event is reported as noKey; a key makes them open")
    func noKey() {
        var state = EncryptedChannelState()
        let k1 = Self.key()
        let early = Self.sealed("a", k1)
        #expect(state.receive(early) == [.report(early, .noKey)])
        #expect(Self.outcome(state.subscribed(key: k1)) == [])
        #expect(Self.outcome(state.receive(Self.sealed("b", k1))) == ["deliver b"])
    }

    @Test("one refresh per event; answers for another token are ignored; held events keep their order")
    func oneRefreshPerEvent() {
        var state = EncryptedChannelState()
        let k1 = Self.key()
        let k2 = Self.key()
        let k3 = Self.key()
        _ = state.subscribed(key: k1)
        #expect(Self.outcome(state.receive(Self.sealed("1", k2))) == ["fetch 1"])
        #expect(state.receive(Self.sealed("2", k2)).isEmpty, "held while refreshing")
        #expect(state.receive(Self.sealed("3", k3)).isEmpty, "held while refreshing")
        #expect(state.receive(Self.sealed("4", k2)).isEmpty, "held while refreshing")
        #expect(state.keyRefreshed(token: 7, key: k2).isEmpty, "another token's answer is ignored")
        #expect(state.refreshing == 1)
        #expect(state.held.count == 4)
        // 1 and 2 open; 3 (under yet another key) asks for its own refresh; 4 waits behind it.
        #expect(Self.outcome(state.keyRefreshed(token: 1, key: k2)) == ["deliver 1", "deliver 2", "fetch 2"])
        #expect(state.held.map(\.refreshed) == [true, false])
        // Its refresh gives k2 again: 3 is reported (no second refresh), 4 opens.
        let last = Self.outcome(state.keyRefreshed(token: 2, key: k2))
        #expect(last.count == 2)
        #expect(last.first?.hasPrefix("report e") == true)
        #expect(last.last == "deliver 4")
        #expect(state.refreshing == nil && state.held.isEmpty)
    }

    @Test("malformed payloads never ask for a key")
    func malformed() {
        var state = EncryptedChannelState()
        _ = state.subscribed(key: Self.key())
        let actions = state.receive(Sealed(name: "e", text: #"{"nonce":"AAAA","ciphertext":"AAAA"}"#))
        #expect(
            actions == [
                .report(
                    Sealed(name: "e", text: #"{"nonce":"AAAA","ciphertext":"AAAA"}"#),
                    .data(.malformed(.wrongNonceLength(byteCount: 3))))
            ])
        #expect(state.refreshing == nil)
    }

    @Test("a failed refresh reports its event only; the ended subscription reports what was held")
    func failures() {
        var state = EncryptedChannelState()
        let k1 = Self.key()
        let k2 = Self.key()
        _ = state.subscribed(key: k1)
        _ = state.receive(Self.sealed("1", k2, name: "first"))
        _ = state.receive(Self.sealed("2", k1, name: "second"))
        let error = RealtimeAuthError(endpoint: "authorizer", status: 0, message: "down")
        #expect(state.keyRefreshFailed(token: 9, error).isEmpty, "another token's failure is ignored")
        let outcome = Self.outcome(state.keyRefreshFailed(token: 1, error))
        #expect(outcome.count == 2)
        #expect(outcome.first?.hasPrefix("report first") == true)
        #expect(outcome.last == "deliver 2", "the held event opens with the key in hand")

        _ = state.receive(Self.sealed("3", k2, name: "third"))
        _ = state.receive(Self.sealed("4", k2, name: "fourth"))
        let ended = state.unsubscribed()
        #expect(
            ended.map { if case .report(let e, .connectionLost) = $0 { e.name } else { "?" } } == ["third", "fourth"])
        #expect(state.key == nil && state.refreshing == nil && state.held.isEmpty)
        #expect(state.keyRefreshed(token: 2, key: k2).isEmpty, "the void refresh's answer changes nothing")
        #expect(state.key == nil)
    }
}
