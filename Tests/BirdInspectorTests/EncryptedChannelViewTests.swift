// Issue 16 item 3 in the inspector: encrypted channels marked, events shown decrypted with a mark,
// `c` in the detail view for the ciphertext as it travelled, decryption failures counted per
// channel and logged, `"decrypted":true` on JSONL event lines — and no key anywhere.

import BirdRecording
import Foundation
import Testing

@testable import BirdInspector
@testable import BirdRealtime

@Suite("Encrypted channels in the inspector (issue 16)")
struct EncryptedChannelViewTests {
    static let channel = "private-encrypted-pay"
    static let plaintext = #"{"payment":"PAY-5","amount":15}"#
    static let envelope =
        #"{"nonce":"Dz8txrbisMZv+E6tRp0Cgb3z1M73Nac7","ciphertext":"nf5oXek8R7Tg2rTH/+e4qRv4GzNwbt4S"}"#
    /// A channel key as the auth endpoint hands it out (`shared_secret`): it must never show.
    static let sharedSecret = "q3kZ0mV2yW9xP4tR7uB1nC6eF8hJ5kL0sD2gA4vX9zM="

    /// A harness subscribed to the encrypted channel (and the usual three).
    func subscribed(size: Size = Size(width: 200, height: 50)) -> Harness {
        var h = Harness(size: size)
        h.connectAndSubscribe()
        h.type(":subscribe \(Self.channel)\n")
        h.client(.subscribed(channel: Self.channel), at: 0.4)
        h.tick(7)
        return h
    }

    func decryptedEvent() -> ChannelEvent {
        ChannelEvent(
            channel: Self.channel, name: "payment-authorised", payload: EventPayload(text: Self.plaintext),
            ciphertext: Self.envelope)
    }

    @Test("a decrypted event keeps its plaintext and the envelope that travelled; a clear one has none")
    func mapping() {
        #expect(
            ClientFeed.events(decryptedEvent(), roster: nil) == [
                .event(
                    ChannelEventRecord(
                        channel: Self.channel, event: "payment-authorised", data: Self.plaintext,
                        ciphertext: Self.envelope))
            ])
        let clear = ChannelEvent(channel: "chat", name: "m", payload: EventPayload(text: "{}"))
        guard case .event(let record)? = ClientFeed.events(clear, roster: nil).first else {
            Issue.record("no event")
            return
        }
        #expect(!record.decrypted && record.ciphertext == nil)
    }

    @Test(
        "the Channels pane marks the encrypted channel; its events are marked decrypted in the log",
        arguments: screenSizes)
    func marked(size: Size) {
        var h = subscribed(size: size)
        for mapped in ClientFeed.events(decryptedEvent(), roster: nil) { h.client(mapped, at: 8) }
        h.client(.event(ChannelEventRecord(channel: "private-orders", event: "plain", data: #"{"a":1}"#)), at: 8.1)
        let g = h.render()
        let channels = paneRows(g, drawnLayout(g).channels)
        #expect(channels.first { $0.contains("private-enc") }?.dropFirst().hasPrefix("enc  ") == true, "\(channels)")
        #expect(channels.first { $0.contains("private-orders") }?.dropFirst().hasPrefix("priv ") == true, "\(channels)")
        let events = paneRows(g, Inspector.layout(h.model, size: size).events)
        let row = events.first { $0.contains("decrypt") }
        #expect(row?.contains("private") == true, "\(events.joined(separator: "\n"))")
        if size.width >= 200 {
            #expect(row?.contains(#"decrypted · {"payment":"PAY-5","amount":15}"#) == true, "\(events)")
        }
        #expect(events.first { $0.contains("plain") }?.contains("decrypted") == false)
    }

    @Test("detail view: plaintext first, c shows the envelope as it travelled and back; c refused on a clear event")
    func ciphertextKey() {
        var h = subscribed()
        for mapped in ClientFeed.events(decryptedEvent(), roster: nil) { h.client(mapped, at: 8) }
        h.press(.enter)
        var g = h.render()
        #expect(contains(g, "decrypted on arrival (c: as it travelled)"), "\(g.lines.joined(separator: "\n"))")
        #expect(contains(g, #""payment": "PAY-5","#))
        #expect(!g.text.contains("Dz8txrbisMZv"))

        h.press(.char("c"))
        g = h.render()
        #expect(h.model.detailCiphertext)
        #expect(contains(g, "Detail — ciphertext"))
        #expect(contains(g, #""nonce": "Dz8txrbisMZv+E6tRp0Cgb3z1M73Nac7","#), "\(g.lines.joined(separator: "\n"))")
        #expect(!g.text.contains("PAY-5"), "the plaintext is not shown in the ciphertext view")
        h.press(.char("r"))
        #expect(contains(h.render(), Self.envelope), "raw: the envelope exactly as received")
        h.press(.char("c"))
        #expect(contains(h.render(), Self.plaintext), "back to the plaintext, raw")

        // Reopened on a clear event: plaintext mode, and c refused with the reason.
        h.press(.escape)
        h.client(.event(ChannelEventRecord(channel: "chat", event: "clear", data: #"{"b":2}"#)), at: 9)
        h.press(.enter)
        h.press(.char("c"))
        #expect(!h.model.detailCiphertext)
        #expect(h.model.flash?.isError == true && h.model.flash?.text.contains("not a decrypted event") == true)
        #expect(KeyBindings.binding(for: .char("c"), in: .detail)?.unavailable(h.model) != nil)
    }

    @Test("decryption failures: counted on the channel, a log entry each, the last reason on the pane")
    func failures() {
        var h = subscribed()
        let problem = DecryptionProblem.data(.undecryptable(.authenticationFailed))
        let error = RealtimeError(
            kind: .decryption, message: "event payment-authorised on \(Self.channel) was not delivered: \(problem)",
            channel: Self.channel, event: "payment-authorised", detail: problem.description,
            decryption: problem)
        guard case .client(let event)? = ClientFeed.item(.error(error), recording: false) else {
            Issue.record("no client event")
            return
        }
        #expect(
            event
                == .error(
                    ErrorReport(
                        message: error.message, kind: "decryption", channel: Self.channel,
                        event: "payment-authorised")))
        h.client(event, at: 8)
        h.client(event, at: 9)
        let i = h.model.channelIndex(Self.channel) ?? -1
        #expect(h.model.channels[i].decryptionFailures == 2)
        #expect(h.model.channels.filter { $0.decryptionFailures > 0 }.count == 1, "only that channel counts")
        // A connection error that is not a decryption failure counts nowhere.
        h.client(.error(ErrorReport(code: 4100, message: "over capacity", channel: Self.channel)), at: 9.5)
        #expect(h.model.channels[i].decryptionFailures == 2)

        h.model.selectedChannel = i
        let g = h.render()
        let channels = paneRows(g, drawnLayout(g).channels)
        #expect(channels.first { $0.contains(Self.channel) }?.contains("0 ev · ✗2") == true, "\(channels)")
        #expect(contains(g, "✗ 2 not decrypted, last: event payment-authorised"), "\(g.lines.joined(separator: "\n"))")
        #expect(g.lines.filter { $0.contains("✗ decryption") && $0.contains(Self.channel) }.count == 2)
    }

    @Test("JSONL: decrypted events say so and carry the envelope; decryption errors name kind, channel, event")
    func lines() {
        let line = JSONLines.line(
            .event(
                ChannelEventRecord(
                    channel: Self.channel, event: "e", data: Self.plaintext,
                    ciphertext: Self.envelope)), at: t0)
        #expect(
            line.contains(#""data":{"payment":"PAY-5","amount":15},"decrypted":true,"ciphertext":{"nonce":"#), "\(line)"
        )
        let clear = JSONLines.line(.event(ChannelEventRecord(channel: "chat", event: "e", data: "{}")), at: t0)
        #expect(!clear.contains("decrypted"))
        let error = JSONLines.line(
            .error(
                ErrorReport(
                    message: "not delivered", kind: "decryption", channel: Self.channel,
                    event: "e")), at: t0)
        #expect(
            error.hasSuffix(
                #""message":"not delivered","kind":"decryption","channel":"private-encrypted-pay","event":"e"}"#),
            "\(error)")
        for event in [
            ClientEvent.event(
                ChannelEventRecord(
                    channel: Self.channel, event: "e", data: Self.plaintext,
                    ciphertext: Self.envelope)),
            .error(ErrorReport(message: "m", kind: "decryption", channel: Self.channel, event: "e")),
        ] {
            #expect(JSONLines.decode(line: JSONLines.line(event, at: t0)) == event)
        }
    }

    @Test("a channel key never shows: not in a plaintext that carries one, an error naming one, the screen or JSONL")
    func noKey() {
        var h = subscribed()
        let leaky = #"{"note":"rotated","shared_secret":"\#(Self.sharedSecret)"}"#
        h.client(
            .event(ChannelEventRecord(channel: Self.channel, event: "leak", data: leaky, ciphertext: Self.envelope)),
            at: 8)
        let error = ErrorReport(
            message: #"auth answered {"auth":"k:sig","shared_secret":"\#(Self.sharedSecret)"}"#,
            kind: "decryption", channel: Self.channel, event: "leak")
        h.client(.error(error), at: 9)
        var screens = [h.render().text]
        h.model.selectedSeq = h.model.log.lastSeq - 1
        h.press(.enter)
        screens.append(h.render().text)
        h.press(.char("r"))
        screens.append(h.render().text)
        h.press(.escape)
        h.model.selectedChannel = h.model.channelIndex(Self.channel) ?? 0
        screens.append(h.render().text)
        let jsonl = [
            JSONLines.line(
                .event(
                    ChannelEventRecord(
                        channel: Self.channel, event: "leak", data: leaky,
                        ciphertext: Self.envelope)), at: t0),
            JSONLines.line(.error(error), at: t0),
        ]
        for text in screens + jsonl {
            #expect(!text.contains(Self.sharedSecret) && !text.contains("q3kZ0mV2yW9x"), "\(text)")
        }
        #expect(screens.contains { $0.contains("<redacted>") }, "the redaction is visible, not a silent drop")
    }

    @Test("client events are refused up front on an encrypted channel")
    func noClientEvents() {
        var h = subscribed()
        #expect(
            Inspector.triggerProblem(h.model, channel: Self.channel)
                == "client events cannot be sent on encrypted channels")
        h.type(":trigger \(Self.channel) client-x {}\n")
        #expect(!h.commands.contains { if case .trigger = $0 { return true } else { return false } })
    }
}
