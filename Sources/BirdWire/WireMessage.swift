/// One protocol message: the JSON object in a WebSocket text frame (docs/PROTOCOL.md § Framing).
///
/// Decoding is lean: the envelope's strings are read directly, and `data` is kept as text —
/// ``WirePayload/value`` parses it only when asked — so a handler that needs only the raw
/// payload costs no object graph.
package struct WireMessage: Sendable, Equatable {
    /// The event name as it appears on the wire.
    package var event: String
    /// The channel, when the message names one.
    package var channel: String?
    /// The payload, when present (and not `null`).
    package var data: WirePayload?
    /// The sender's member id of a presence client event (`member_id` or `user_id` at the top level).
    package var memberId: String?
    /// Continuity (Bird dialect, docs/PROTOCOL.md § Extensions): on a channel event, its offset
    /// in the channel's stream; on `subscription_succeeded`, the stream's head (the last offset
    /// given). A non-negative integer; nil when absent or not one.
    package var offset: Int?
    /// Continuity on `subscription_succeeded` (the top-level `epoch`, `recovered`, `missed`);
    /// nil when the edge sent no `epoch`.
    package var continuity: WireContinuity?

    /// Creates a message from its parts.
    package init(
        event: String, channel: String? = nil, data: WirePayload? = nil, memberId: String? = nil, offset: Int? = nil,
        continuity: WireContinuity? = nil
    ) {
        self.event = event
        self.channel = channel
        self.data = data
        self.memberId = memberId
        self.offset = offset
        self.continuity = continuity
    }

    /// A message whose data is `value`, sent as a JSON string of JSON (double encoding) when
    /// `doubleEncoded`, else as the JSON value itself.
    package init(event: String, channel: String? = nil, value: JSONValue, doubleEncoded: Bool = false) {
        self.init(
            event: event, channel: channel,
            data: doubleEncoded ? .string(value.description) : .json(value.description))
    }
}

/// What an edge with continuity says on `subscription_succeeded` (Bird dialect, docs/PROTOCOL.md
/// § Extensions): the stream's epoch and, when the subscribe asked to resume, whether it could.
package struct WireContinuity: Sendable, Equatable {
    /// The channel stream's epoch: offsets compare only within one epoch.
    package var epoch: String
    /// Whether every event after the position the subscribe sent is replayed (after this
    /// message, before live ones); nil when the subscribe sent no position.
    package var recovered: Bool?
    /// With `recovered: false`: how many events after that position the edge no longer holds;
    /// nil when it cannot say (another epoch, a position ahead of the stream).
    package var missed: Int?

    /// What an edge says: its `epoch`, and for a subscribe that asked to resume, `recovered` and
    /// (when events are lost) `missed`.
    package init(epoch: String, recovered: Bool? = nil, missed: Int? = nil) {
        self.epoch = epoch
        self.recovered = recovered
        self.missed = missed
    }
}

/// The `data` of a message: a JSON string (its content, unescaped) or any other JSON value (its text).
package enum WirePayload: Sendable, Equatable {
    /// `data` was a JSON string; this is its decoded content (often JSON text itself).
    case string(String)
    /// `data` was an object, array, number or Boolean; this is its JSON text.
    case json(String)

    /// The payload's text: the string's content, or the JSON text.
    package var text: String {
        switch self {
        case .string(let s), .json(let s): return s
        }
    }

    /// The payload as a value: a string holding JSON is parsed (double encoding); a string that
    /// is not JSON stays `.string`; other JSON is parsed.
    package var value: JSONValue {
        switch self {
        case .string(let s): return JSONValue.fromPayload(s)
        case .json(let s): return (try? JSONValue(parsing: s)) ?? .string(s)
        }
    }

    /// The payload as an object (members in order), whichever way it was encoded; nil when it is
    /// not one.
    package var object: JSONObject? { value.objectValue }
}

/// Why a text frame is not a protocol message.
package enum WireDecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not JSON.
    case invalidJSON(JSONParseError)
    /// JSON, but not an object.
    case notAnObject
    /// An object without a string `event`.
    case missingEvent
    /// `channel` (or the member id) is present but not a string.
    case invalidField(String)

    package var description: String {
        switch self {
        case .invalidJSON(let e): return "message is not JSON (\(e))"
        case .notAnObject: return "message is not a JSON object"
        case .missingEvent: return "message has no \"event\" string"
        case .invalidField(let name): return "message field \"\(name)\" is not a string"
        }
    }
}

extension WireMessage {
    /// Decodes a text frame. Unknown fields are ignored; `data: null` counts as absent.
    package static func decode(_ text: String) throws(WireDecodeError) -> WireMessage {
        var text = text
        // The message is returned straight out of the closure (no `Result` to copy it out of).
        do {
            return try text.withUTF8 { buffer in try decode(utf8: buffer) }
        } catch let error as WireDecodeError {
            throw error
        } catch {
            throw .notAnObject
        }
    }

    /// Decodes a text frame from UTF-8 bytes.
    package static func decode(utf8 buffer: UnsafeBufferPointer<UInt8>) throws(WireDecodeError) -> WireMessage {
        var span: WireDataSpan?
        return try scanTyped(buffer, locatingData: false, span: &span)
    }

    /// ``scan(_:locatingData:span:)`` with its errors as ``WireDecodeError``s.
    static func scanTyped(
        _ buffer: UnsafeBufferPointer<UInt8>, locatingData: Bool, span: inout WireDataSpan?
    ) throws(WireDecodeError) -> WireMessage {
        do {
            return try scan(buffer, locatingData: locatingData, span: &span)
        } catch let error as WireDecodeError {
            throw error
        } catch let error as JSONParseError {
            throw .invalidJSON(error)
        } catch {
            throw .notAnObject
        }
    }

    /// Reads the message. `locatingData` (``WireEnvelope``): `data` is checked but left where it
    /// is — its place goes to `span`, the message's `data` stays nil — and `buffer` must be UTF-8.
    static func scan(_ buffer: UnsafeBufferPointer<UInt8>, locatingData: Bool, span: inout WireDataSpan?) throws
        -> WireMessage
    {
        var p = JSONParser(buffer)
        p.skipWhitespace()
        guard p.peek() == UInt8(ascii: "{") else {
            _ = try p.parseDocument()  // report invalid JSON as such
            throw WireDecodeError.notAnObject
        }
        p.index += 1
        var event: String?
        var channel: String?
        var data: WirePayload?
        var memberId: String?
        var offset: Int?
        var epoch: String?
        var recovered: Bool?
        var missed: Int?
        p.skipWhitespace()
        if p.peek() == UInt8(ascii: "}") {
            p.index += 1
        } else {
            members: while true {
                p.skipWhitespace()
                guard p.peek() == UInt8(ascii: "\"") else { throw p.fail("expected a member name") }
                let key = try EnvelopeKey(&p)
                p.skipWhitespace()
                guard p.peek() == UInt8(ascii: ":") else { throw p.fail("expected ':'") }
                p.index += 1
                p.skipWhitespace()
                switch key {
                case .event:
                    guard p.peek() == UInt8(ascii: "\"") else {
                        _ = try p.skipValue(); throw WireDecodeError.missingEvent
                    }
                    event = try p.parseString()
                case .channel:
                    if p.peek() == UInt8(ascii: "\"") {
                        channel = try p.parseString()
                    } else {
                        let value = try p.parseValue()
                        if value != .null { throw WireDecodeError.invalidField("channel") }
                    }
                case .memberId:
                    if p.peek() == UInt8(ascii: "\"") {
                        memberId = try p.parseString()
                    } else {
                        // Numeric ids occur in the wild; keep their text.
                        let value = try p.parseValue()
                        if value != .null { memberId = value.description }
                    }
                case .data:
                    if p.peek() == UInt8(ascii: "\"") {
                        if locatingData {
                            let (content, escaped) = try p.checkedStringContent()
                            span = WireDataSpan(range: content, kind: escaped ? .escapedString : .plainString)
                        } else {
                            data = .string(try p.parseString())
                        }
                    } else {
                        let range = try p.skipValue()
                        let raw = UnsafeBufferPointer(rebasing: buffer[range])
                        if !(raw.count == 4 && raw.elementsEqual("null".utf8)) {
                            if locatingData {
                                span = WireDataSpan(range: range, kind: .json)
                            } else {
                                data = .json(String(decoding: raw, as: UTF8.self))
                            }
                        }
                    }
                case .offset:
                    offset = Self.count(try p.parseValue())
                case .missed:
                    missed = Self.count(try p.parseValue())
                case .recovered:
                    recovered = try p.parseValue().boolValue
                case .epoch:
                    epoch = try p.parseValue().stringValue
                case .other:
                    _ = try p.skipValue()
                }
                p.skipWhitespace()
                switch p.peek() {
                case UInt8(ascii: ","): p.index += 1
                case UInt8(ascii: "}"): p.index += 1; break members
                default: throw p.fail("expected ',' or '}'")
                }
            }
        }
        p.skipWhitespace()
        guard p.index == buffer.count else { throw p.fail("unexpected text after the message") }
        guard let event else { throw WireDecodeError.missingEvent }
        return WireMessage(
            event: event, channel: channel, data: data, memberId: memberId, offset: offset,
            continuity: epoch.map { WireContinuity(epoch: $0, recovered: recovered, missed: missed) })
    }

    /// A non-negative integer, or nil for anything else (continuity fields are advisory: a bad
    /// one is ignored, never fatal).
    private static func count(_ value: JSONValue) -> Int? {
        guard let n = value.intValue, n >= 0 else { return nil }
        return n
    }

    /// The envelope members the decoder reads; any other name is skipped.
    private enum EnvelopeKey {
        case event, channel, data, memberId, offset, epoch, recovered, missed, other

        /// Reads a member name at the parser's position (an opening quote). Names without
        /// escapes are matched on their bytes (no string is made); others are decoded first.
        init(_ p: inout JSONParser) throws(JSONParseError) {
            if let range = p.plainString() {
                self = Self(UnsafeBufferPointer(rebasing: p.bytes[range]))
            } else {
                var name = try p.parseString()
                self = name.withUTF8 { Self($0) }
            }
        }

        private init(_ name: UnsafeBufferPointer<UInt8>) {
            func equals(_ literal: StaticString) -> Bool {
                guard literal.utf8CodeUnitCount == name.count else { return false }
                let bytes = literal.utf8Start
                for i in 0..<name.count where bytes[i] != name[i] { return false }
                return true
            }
            switch name.count {
            case 4 where equals("data"): self = .data
            case 5 where equals("event"): self = .event
            case 7 where equals("channel"): self = .channel
            case 7 where equals("user_id"), 9 where equals("member_id"): self = .memberId
            case 6 where equals("offset"): self = .offset
            case 5 where equals("epoch"): self = .epoch
            case 9 where equals("recovered"): self = .recovered
            case 6 where equals("missed"): self = .missed
            default: self = .other
            }
        }
    }

    /// The message as JSON text for a WebSocket text frame.
    ///
    /// - Parameter memberIdKey: the top-level key of ``memberId`` (`member_id` or `user_id`).
    package func encode(memberIdKey: String = "member_id") -> String {
        var out = "{\"event\":"
        JSONWriter.appendQuoted(event, to: &out)
        if let channel {
            out += ",\"channel\":"
            JSONWriter.appendQuoted(channel, to: &out)
        }
        if let data {
            out += ",\"data\":"
            switch data {
            case .string(let s): JSONWriter.appendQuoted(s, to: &out)
            case .json(let s): out += s
            }
        }
        if let memberId {
            out += ",\""
            out += memberIdKey
            out += "\":"
            JSONWriter.appendQuoted(memberId, to: &out)
        }
        if let offset {
            out += ",\"offset\":"
            out += String(offset)
        }
        if let continuity {
            out += ",\"epoch\":"
            JSONWriter.appendQuoted(continuity.epoch, to: &out)
            if let recovered = continuity.recovered {
                out += recovered ? ",\"recovered\":true" : ",\"recovered\":false"
            }
            if let missed = continuity.missed {
                out += ",\"missed\":"
                out += String(missed)
            }
        }
        out += "}"
        return out
    }
}

extension String {
    /// This string as a JSON string literal (quoted and escaped).
    package var jsonQuoted: String { JSONWriter.quoted(self) }
}
