import BirdWire
import Foundation

/// Which way a protocol message went (a `wire` line's `direction`).
public enum WireRecordDirection: String, Sendable, Equatable {
    /// Server → client.
    case inbound = "in"
    /// Client → server.
    case outbound = "out"
}

/// One authorization request and its outcome (an `auth` line) — never headers, body or the
/// answer's signature.
public struct AuthRecord: Sendable, Equatable {
    /// Which endpoint was asked.
    public enum Kind: String, Sendable, Equatable {
        /// The channel auth endpoint (private and presence subscriptions).
        case channel
        /// The member (sign-in) auth endpoint.
        case signin
    }

    /// Channel or sign-in authorization.
    public var kind: Kind
    /// The endpoint URL without query string, fragment or user info.
    public var endpoint: String
    /// The channel being authorized (`kind == .channel`).
    public var channel: String?
    /// The HTTP status, when the endpoint answered.
    public var status: Int?
    /// Why there was no answer (redacted when written), when it did not.
    public var error: String?
    /// Milliseconds from request to answer or failure.
    public var ms: Int

    /// A record.
    public init(kind: Kind, endpoint: String, channel: String? = nil, status: Int? = nil, error: String? = nil, ms: Int)
    {
        self.kind = kind
        self.endpoint = endpoint
        self.channel = channel
        self.status = status
        self.error = error
        self.ms = ms
    }

    /// What a request is: the channel from the body's `channel_name` (JSON or form), the kind from
    /// the URL (the sign-in endpoint vs the channel endpoint; when both are the same URL, a body
    /// naming a channel means a channel request), the endpoint as recorded (``Redaction``'s
    /// `endpoint`: no query string, fragment or user info).
    public static func describe(url: URL, body: [UInt8], channelEndpoint: URL?, signinEndpoint: URL?)
        -> (kind: Kind, endpoint: String, channel: String?)
    {
        let endpoint = Redaction.endpoint(url.absoluteString)
        let channel = channelName(in: String(decoding: body, as: UTF8.self))
        let isSignin = signinEndpoint.map { Redaction.endpoint($0.absoluteString) == endpoint } ?? false
        let isChannel = channelEndpoint.map { Redaction.endpoint($0.absoluteString) == endpoint } ?? false
        let kind: Kind
        if isSignin && !isChannel {
            kind = .signin
        } else if isChannel && !isSignin {
            kind = .channel
        } else {
            kind = channel == nil ? .signin : .channel
        }
        return (kind, endpoint, kind == .channel ? channel : nil)
    }

    /// `channel_name` from a JSON (bird) or form-encoded (pusher) auth request body.
    static func channelName(in body: String) -> String? {
        if case .object(let object)? = try? JSONValue(parsing: body) {
            return object["channel_name"]?.stringValue
        }
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] == "channel_name" else { continue }
            return String(parts[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
        }
        return nil
    }
}
