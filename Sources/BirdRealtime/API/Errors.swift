/// Every error the SDK reports or throws conforms to this, so one `catch` covers the SDK.
public protocol BirdRealtimeError: Error, Sendable, CustomStringConvertible {
    /// A one-line description for people (never contains secrets).
    var message: String { get }
}

extension BirdRealtimeError {
    public var description: String { message }
}

/// A connection-level error: a close from the server, an unattributed `bird:error`, a bad
/// handshake, bad input from the server, or a payload a typed handler could not decode.
public struct RealtimeError: BirdRealtimeError, Equatable {
    /// What kind of error this is.
    public enum Kind: String, Sendable, Equatable, CustomStringConvertible {
        /// The server closed the connection with a refusal code (4000–4099): no retry.
        case refused
        /// The server sent `bird:error` without naming a channel.
        case serverError
        /// The handshake carried no connection id.
        case handshakeWithoutId
        /// A text frame was not JSON.
        case invalidJSON
        /// A frame was JSON but not an object.
        case notAnObject
        /// A message lacked a required field (`event`, `channel`, a handshake's data…) or had one of the wrong type.
        case missingField
        /// An event in the protocol's reserved namespace that this client does not know.
        case unknownEvent
        /// A binary frame (the protocol uses only text frames).
        case binaryMessage
        /// An operation needs a connection that is not there (`signin()` while disconnected).
        case notConnected
        /// The options cannot be used.
        case configuration
        /// No answer arrived in time.
        case timeout
        /// The operation was abandoned (`signout()` while `signin()` was pending, client released).
        case cancelled
        /// An event's payload did not decode as the type a handler asked for
        /// (`bind(_:as:)`, `events(named:as:)`): ``RealtimeError/channel`` and
        /// ``RealtimeError/event`` say where, ``RealtimeError/detail`` what did not fit.
        case payloadDecoding
        /// The endpoint provider's (or handshake headers provider's) answer was refused by the
        /// security rules (plain `ws://` to a remote host, a malformed host or port, a header
        /// the client sets itself or with a control character): the attempt backs off.
        case endpoint
        /// An event on an end-to-end encrypted channel (`private-encrypted-…`) did not decrypt
        /// and was not delivered: ``RealtimeError/channel`` and ``RealtimeError/event`` say
        /// where, ``RealtimeError/decryption`` why (typed), ``RealtimeError/detail`` the same in
        /// words. The channel stays subscribed.
        case decryption

        public var description: String { rawValue }
    }

    /// What kind of error this is.
    public var kind: Kind
    /// The close or error code, when there is one (e.g. 4009).
    public var code: Int?
    /// A one-line description.
    public var message: String
    /// The close reason sent by the server, when the error comes from a close (tells the two
    /// 4009 cases apart: member terminated, or sign-in required and not done in time).
    public var reason: String?
    /// The channel the error concerns, when it concerns one (``Kind/payloadDecoding``).
    public var channel: String?
    /// The event the error concerns, when it concerns one (``Kind/payloadDecoding``).
    public var event: String?
    /// More about the cause: for ``Kind/payloadDecoding``, the `DecodingError`'s description
    /// with its coding path; for ``Kind/decryption``, the ``decryption`` problem in words.
    public var detail: String?
    /// Why an encrypted event was not delivered (``Kind/decryption`` only).
    public var decryption: DecryptionProblem?

    /// Creates an error (tests and tools; the client reports its own).
    public init(
        kind: Kind, code: Int? = nil, message: String, reason: String? = nil, channel: String? = nil,
        event: String? = nil, detail: String? = nil, decryption: DecryptionProblem? = nil
    ) {
        self.kind = kind
        self.code = code
        self.message = message
        self.reason = reason
        self.channel = channel
        self.event = event
        self.detail = detail
        self.decryption = decryption
    }

    public var description: String {
        var text = code.map { "\($0): \(message)" } ?? message
        if let reason, !reason.isEmpty { text += " (\(reason))" }
        return text
    }
}

/// An authorization endpoint (or authorizer) failed: refused, timed out, answered non-2xx,
/// answered something that is not JSON, or left out `auth`.
public struct RealtimeAuthError: BirdRealtimeError, Equatable {
    /// The endpoint's URL (or `"authorizer"` for a custom authorizer closure).
    public var endpoint: String
    /// The HTTP status, or 0 when there was none (refused, timeout, custom authorizer).
    public var status: Int
    /// A one-line description.
    public var message: String

    /// Creates an authorization failure of `endpoint` (`status` 0 when there was no HTTP answer).
    public init(endpoint: String, status: Int, message: String) {
        self.endpoint = endpoint
        self.status = status
        self.message = message
    }
}

/// The options cannot do what was asked: no member endpoint or authorizer for `signin()`,
/// `allowInsecure` with a non-loopback host, a plain `http://` auth endpoint for a remote host…
public struct ConfigurationError: BirdRealtimeError, Equatable {
    /// A one-line description.
    public var message: String

    /// Creates a configuration error with a one-line description.
    public init(message: String) {
        self.message = message
    }
}

/// `trigger` refused to send a client event.
public struct TriggerError: BirdRealtimeError, Equatable {
    /// Why.
    public enum Kind: String, Sendable, Equatable {
        /// The event name does not start with `client-`.
        case notClientEvent
        /// The event name is longer than 200 characters.
        case eventNameTooLong
        /// Client events are only allowed on private and presence channels.
        case publicChannel
        /// Client events cannot be sent on end-to-end encrypted channels (`private-encrypted-…`):
        /// the edge would relay them in clear, so pusher-js and the edges refuse them too.
        case encryptedChannel
        /// The payload is larger than 10 KB.
        case payloadTooLarge
        /// The `Encodable` data did not encode as JSON (a NaN or infinite number…).
        case notEncodable
    }

    /// Why.
    public var kind: Kind
    /// A one-line description.
    public var message: String

    /// Creates a refusal of a client event.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }
}
