import BirdWire

/// A protocol message from the edge as the doctor reads it (dialect names resolved).
public enum EdgeMessage: Sendable, Equatable {
    /// `connection_established` (id nil when missing or not `digits.digits`).
    case established(connectionId: String?, activityTimeout: Int?)
    /// The other dialect's `connection_established`: the edge speaks `dialect`.
    case otherDialect(Dialect)
    /// An `error` event.
    case error(code: Int?, message: String, channel: String?)
    /// `pong`.
    case pong
    /// `ping` (the runner answers it).
    case ping
    /// `subscription_succeeded` for a channel.
    case subscriptionSucceeded(channel: String)
    /// `subscription_error` for a channel.
    case subscriptionError(channel: String, type: String?, message: String, status: Int?)
    /// `signin_success` with the member data the edge accepted.
    case signinSuccess(memberData: String?)
    /// Any other event (app events, member events, counts).
    case other(event: String, channel: String?)
    /// A text frame that is not a protocol message.
    case notProtocol(String)

    /// Reads a text frame in `dialect`.
    public static func read(_ text: String, dialect: Dialect) -> EdgeMessage {
        let message: WireMessage
        do {
            message = try WireMessage.decode(text)
        } catch {
            return .notProtocol(error.description)
        }
        guard let event = ProtocolEvent(wireName: message.event, dialect: dialect) else {
            for other in Dialect.allCases where other != dialect {
                if ProtocolEvent(wireName: message.event, dialect: other) != nil { return .otherDialect(other) }
            }
            return .other(event: message.event, channel: message.channel)
        }
        let object = message.data?.object ?? [:]
        switch event {
        case .connectionEstablished:
            let id = object[dialect.connectionIdKey]?.stringValue.flatMap { Limits.isValidConnectionId($0) ? $0 : nil }
            return .established(connectionId: id, activityTimeout: object["activity_timeout"]?.intValue)
        case .error:
            let text = object["message"]?.stringValue ?? message.data?.text ?? ""
            return .error(code: object["code"]?.intValue, message: text, channel: message.channel)
        case .pong: return .pong
        case .ping: return .ping
        case .subscriptionSucceeded: return .subscriptionSucceeded(channel: message.channel ?? "")
        case .subscriptionError:
            let text = object["error"]?.stringValue ?? object["message"]?.stringValue ?? message.data?.text ?? ""
            return .subscriptionError(
                channel: message.channel ?? "", type: object["type"]?.stringValue, message: text,
                status: object["status"]?.intValue)
        case .signinSuccess:
            let data = object[dialect.signinDataKey]
            return .signinSuccess(memberData: data?.stringValue ?? data.map(\.description))
        default:
            return .other(event: message.event, channel: message.channel)
        }
    }
}

/// Protocol messages the doctor sends, in the dialect's names.
public enum EdgeRequest {
    /// `{"event":"<prefix>ping","data":{}}`.
    public static func ping(_ dialect: Dialect) -> String {
        WireMessage(event: ProtocolEvent.ping.wireName(dialect), value: .object([:])).encode()
    }

    /// A subscribe message; `auth` and presence data for private and presence channels.
    public static func subscribe(_ dialect: Dialect, channel: String, auth: String? = nil, memberData: String? = nil)
        -> String
    {
        var data: JSONObject = ["channel": .string(channel)]
        if let auth { data["auth"] = .string(auth) }
        if let memberData { data[dialect.presenceDataKey] = .string(memberData) }
        return WireMessage(event: ProtocolEvent.subscribe.wireName(dialect), value: .object(data)).encode()
    }

    /// A sign-in message.
    public static func signin(_ dialect: Dialect, auth: String, memberData: String) -> String {
        let data = JSONValue.object(["auth": .string(auth), dialect.signinDataKey: .string(memberData)])
        return WireMessage(event: ProtocolEvent.signin.wireName(dialect), value: data).encode()
    }
}
