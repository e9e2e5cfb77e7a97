import BirdWire

/// Layers 8–9: how the auth endpoint's HTTP exchange ended.
public enum AuthHTTPOutcome: Sendable, Equatable {
    /// An answer (any status) with its content type and body.
    case response(status: Int, contentType: String?, body: [UInt8])
    /// No answer: DNS, TCP, TLS or HTTP failed (words).
    case failed(String)
    /// No answer in time.
    case timedOut
}

/// Layer 8 or 9 as found: the endpoint's answer, and the edge's verdict on the signature.
public struct AuthCheck: Sendable, Equatable {
    /// The endpoint as configured.
    public var endpoint: String
    /// The channel signed (layer 8); nil for sign-in.
    public var channel: String?
    /// The connection id the request carried.
    public var connectionId: String
    /// The HTTP exchange.
    public var http: AuthHTTPOutcome
    /// Milliseconds the HTTP exchange took.
    public var httpMs: Double
    /// The edge's answer to the subscribe or sign-in sent with the signature; nil when the
    /// answer gave nothing to send.
    public var edge: EdgeReply?

    /// Creates a check.
    public init(
        endpoint: String, channel: String?, connectionId: String, http: AuthHTTPOutcome, httpMs: Double,
        edge: EdgeReply? = nil
    ) {
        self.endpoint = endpoint
        self.channel = channel
        self.connectionId = connectionId
        self.http = http
        self.httpMs = httpMs
        self.edge = edge
    }
}

/// What an auth endpoint's 2xx body holds: `{"auth": "<key>:<hex>", "<identity key>"?: …}`.
public struct AuthAnswer: Sendable, Equatable {
    /// Whether the body is JSON, and an object.
    public enum Shape: Sendable, Equatable {
        /// A JSON object.
        case object
        /// JSON that is not an object.
        case notObject
        /// Not JSON (the parser's words).
        case notJSON(String)
    }

    /// The body's shape.
    public var shape: Shape
    /// The `auth` string (a secret: never shown).
    public var auth: String?
    /// The identity the endpoint returned (`member_data`, `channel_data` or `user_data`).
    public var identity: String?
    /// The top-level keys of the object (shown when `auth` is missing).
    public var keys: [String]

    /// Reads a body; `identityKey` is the dialect's presence or sign-in key.
    public static func read(body: [UInt8], identityKey: String) -> AuthAnswer {
        let value: JSONValue
        do {
            value = try body.withUnsafeBufferPointer { buffer throws(JSONParseError) in try JSONValue(parsing: buffer) }
        } catch {
            return AuthAnswer(shape: .notJSON("\(error)"), auth: nil, identity: nil, keys: [])
        }
        guard let object = value.objectValue else {
            return AuthAnswer(shape: .notObject, auth: nil, identity: nil, keys: [])
        }
        var identity: String?
        switch object[identityKey] {
        case .string(let text)?: identity = text
        case .object(let o)?: identity = JSONValue.object(o).description
        default: identity = nil
        }
        return AuthAnswer(
            shape: .object, auth: object["auth"]?.stringValue, identity: identity, keys: object.keys.sorted())
    }

    /// The part of `auth` before its last colon: the app key it claims.
    public var keyPart: String? {
        guard let auth, let colon = auth.lastIndex(of: ":") else { return nil }
        return String(auth[..<colon])
    }

    /// Whether `auth` is `<key>:<64 lowercase hex digits>`.
    public var authWellFormed: Bool {
        guard let auth, let colon = auth.lastIndex(of: ":"), colon != auth.startIndex else { return false }
        let hex = auth[auth.index(after: colon)...]
        return hex.utf8.count == 64
            && hex.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }
}

/// The outcome of checking a signature where the app secret is known.
public enum SignatureCheck: Sendable, Equatable {
    /// HMAC-SHA256(secret, signed string) matches.
    case verified
    /// It does not.
    case mismatch
    /// The secret is unknown here (only the edge can check).
    case notChecked
}

/// The requests the doctor sends to auth endpoints and the strings their answers sign.
public enum AuthRequests {
    /// The channel auth request of `dialect` (docs/PROTOCOL.md § Dialects): content type and body.
    public static func channel(_ dialect: Dialect, connectionId: String, channel: String) -> (String, [UInt8]) {
        switch dialect {
        case .bird:
            let body = JSONValue.object(["connection_id": .string(connectionId), "channel_name": .string(channel)])
            return ("application/json", Array(body.description.utf8))
        case .pusher:
            return (
                "application/x-www-form-urlencoded",
                Array("socket_id=\(formEncode(connectionId))&channel_name=\(formEncode(channel))".utf8)
            )
        }
    }

    /// The sign-in request of `dialect`.
    public static func signin(_ dialect: Dialect, connectionId: String) -> (String, [UInt8]) {
        switch dialect {
        case .bird:
            return (
                "application/json", Array(JSONValue.object(["connection_id": .string(connectionId)]).description.utf8)
            )
        case .pusher:
            return ("application/x-www-form-urlencoded", Array("socket_id=\(formEncode(connectionId))".utf8))
        }
    }

    /// The string a channel signature signs (private, or presence with `identity`).
    public static func channelString(connectionId: String, channel: String, identity: String?) -> String {
        ChannelKind(channelName: channel) == .presence
            ? Signature.presenceChannelString(connectionId: connectionId, channel: channel, memberData: identity ?? "")
            : Signature.privateChannelString(connectionId: connectionId, channel: channel)
    }

    /// Checks `auth` against `string` when `secret` is known.
    public static func check(auth: String, appKey: String, secret: String?, string: String) -> SignatureCheck {
        guard let secret else { return .notChecked }
        let hex = auth.lastIndex(of: ":").map { String(auth[auth.index(after: $0)...]) } ?? ""
        // The key part is judged separately; here only the HMAC counts.
        return Signature.constantTimeEquals(hex, Signature.hmacSHA256Hex(key: secret, message: string))
            ? .verified : .mismatch
    }

    /// `application/x-www-form-urlencoded` encoding of one value.
    static func formEncode(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "*"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF")
                out += "%\(digits[Int(byte >> 4)])\(digits[Int(byte & 0x0F)])"
            }
        }
        return out
    }
}
