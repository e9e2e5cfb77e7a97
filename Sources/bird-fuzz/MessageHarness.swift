import BirdWire

extension FuzzHarness {
    /// The protocol message decoder: text frames through `WireMessage.decode` and the JSON model.
    static let message = FuzzHarness(
        name: "message",
        summary: "bytes -> WireMessage.decode (text and utf8), payload value/object, JSONValue(parsing:), "
            + "encode round trips, Redaction.redactWireText",
        entry: { data, size in
            MessageFuzz.run(data.fuzzBytes(count: size))
            return 0
        })
}

/// The message harness. Besides "never crash", it checks what the wire model promises, trapping
/// (a fuzzer finding) when one breaks:
/// - `decode(_:)` and `decode(utf8:)` agree on valid UTF-8;
/// - a decoded message re-encodes (either member-id key) to text that decodes to an equal message;
/// - a parsed `JSONValue` prints (compact and pretty) to text that parses back to an equal value,
///   and a payload built from a value (`WireMessage(event:value:doubleEncoded:)`) gives it back;
/// - the model is lossless: compact text parsed and printed again is the same text (member order,
///   number digits);
/// - an `EventPayload` keeps its text and its value is the parsed text or `.string(text)`;
/// - `WireEnvelope` (the client's decoder, `data` left in the frame) agrees with `decode(_:)`.
enum MessageFuzz {
    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let isValidUTF8 = String(validating: bytes, as: UTF8.self) != nil

        let fromBytes = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(WireDecodeError) -> WireMessage in try WireMessage.decode(utf8: buffer) }
        }
        let fromText = Result { () throws(WireDecodeError) -> WireMessage in try WireMessage.decode(text) }
        if isValidUTF8, fromBytes != fromText {
            fatalError("decode(utf8:) and decode(_:) disagree: \(fromBytes) vs \(fromText)")
        }
        for case .success(let message) in [fromBytes, fromText] { check(message) }
        if case .failure(let error) = fromText { _ = error.description }
        checkEnvelope(text, against: fromText)

        // The JSON model on its own (decode reads `data` lazily; this parses everything).
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try JSONValue(parsing: buffer) }
        }
        let parsedText = Result { () throws(JSONParseError) -> JSONValue in try JSONValue(parsing: text) }
        if isValidUTF8, parsed != parsedText {
            fatalError("JSONValue(parsing:) disagrees on bytes and text: \(parsed) vs \(parsedText)")
        }
        if case .success(let value) = parsedText { checkValue(value) }
        if case .failure(let error) = parsedText { _ = error.description }

        let payload = EventPayload(text: text)
        if payload.text != text { fatalError("EventPayload changed its text: \(text) -> \(payload.text)") }
        switch (parsedText, payload.problem) {
        case (.success(let value), nil) where payload.value == value: break
        case (.failure, _?) where payload.value == .string(text): break
        default:
            fatalError(
                "EventPayload of \(text) disagrees with the parser: \(payload.value), \(String(describing: payload.problem))"
            )
        }

        _ = Redaction.redactWireText(text)
    }

    /// The client's envelope (`data` left in the frame) decodes `text` exactly as
    /// `WireMessage.decode` did — same message, same error — and its payload, read value first
    /// or text first, is the payload of the decoded `data`.
    static func checkEnvelope(_ text: String, against decoded: Result<WireMessage, WireDecodeError>) {
        let envelope = Result { () throws(WireDecodeError) -> WireEnvelope in try WireEnvelope.decode(text) }
        switch (envelope, decoded) {
        case (.success(let envelope), .success(let message)):
            if envelope.message != message { fatalError("WireEnvelope gives \(envelope.message), decode \(message)") }
            let expected = message.data.map(EventPayload.init)
            let valueFirst = envelope.payload
            let textFirst = envelope.payload
            if valueFirst?.value != expected?.value || valueFirst?.problem != expected?.problem
                || textFirst?.text != expected?.text || textFirst?.value != expected?.value
                || valueFirst?.text != expected?.text || textFirst?.sentAsString != expected?.sentAsString
            {
                fatalError("WireEnvelope's payload of \(text) differs from the decoded data's")
            }
        case (.failure(let error), .failure(let expected)):
            if error != expected { fatalError("WireEnvelope fails with \(error), decode with \(expected)") }
        default:
            fatalError("WireEnvelope and WireMessage.decode disagree on \(text): \(envelope) vs \(decoded)")
        }
    }

    /// Everything a decoded message offers, and its round trip.
    static func check(_ message: WireMessage) {
        if let payload = message.data {
            _ = payload.text
            let value = payload.value
            _ = payload.object
            checkValue(value)
        }
        for key in ["member_id", "user_id"] {
            let encoded = message.encode(memberIdKey: key)
            let back: WireMessage
            do {
                back = try WireMessage.decode(encoded)
            } catch {
                fatalError("encode() of \(message) gives text that does not decode (\(error)): \(encoded)")
            }
            if back != message {
                fatalError("round trip changed the message: \(message) -> \(encoded) -> \(back)")
            }
            _ = Redaction.redactWireText(encoded)
        }
    }

    /// A JSON value's text forms parse back to it; payloads built from it give it back.
    static func checkValue(_ value: JSONValue) {
        for (form, text) in [("compact", value.description), ("pretty", value.prettyDescription)] {
            let back: JSONValue
            do {
                back = try JSONValue(parsing: text)
            } catch {
                fatalError("\(form) text of \(value) does not parse (\(error)): \(text)")
            }
            if back != value { fatalError("\(form) text round trip changed \(value) into \(back): \(text)") }
            if back.description != value.description {
                fatalError("\(form) text round trip is not lossless: \(value.description) -> \(back.description)")
            }
        }
        for doubleEncoded in [false, true] {
            let message = WireMessage(event: "client-x", channel: "c", value: value, doubleEncoded: doubleEncoded)
            guard let payload = message.data, payload.value == value else {
                fatalError(
                    "payload (doubleEncoded \(doubleEncoded)) of \(value) gives back \(String(describing: message.data?.value))"
                )
            }
        }
        _ = value.intValue
        _ = value.int64Value
        _ = value.uint64Value
        _ = value.doubleValue
        _ = value.decimalValue
        _ = value.hashValue
        _ = value[0]
        _ = value["event"]
    }
}
