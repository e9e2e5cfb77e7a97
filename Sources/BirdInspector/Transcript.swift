// docs/RECORDING.md, version 1: the lines a recording is made of (header, client events, wire
// and auth entries), written here; read back in TranscriptReader.swift.

import BirdWire
import Foundation

/// Which way a protocol message went.
public enum WireRecordDirection: String, Sendable, Equatable {
    /// Server → client.
    case inbound = "in"
    /// Client → server.
    case outbound = "out"
}

/// One authorization request and its outcome — never headers, body or the answer's signature.
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
    /// Why there was no answer (redacted), when it did not.
    public var error: String?
    /// Milliseconds from request to answer or failure.
    public var ms: Int

    /// A record.
    public init(kind: Kind, endpoint: String, channel: String? = nil, status: Int? = nil, error: String? = nil, ms: Int) {
        self.kind = kind
        self.endpoint = endpoint
        self.channel = channel
        self.status = status
        self.error = error
        self.ms = ms
    }

    /// What a request is: the channel from the body's `channel_name` (JSON or form), the kind from
    /// the URL (the sign-in endpoint vs the channel endpoint; when both are the same URL, a body
    /// naming a channel means a channel request), the endpoint without its query string.
    public static func describe(url: URL, body: [UInt8], channelEndpoint: URL?, signinEndpoint: URL?)
        -> (kind: Kind, endpoint: String, channel: String?)
    {
        let endpoint = Transcript.endpointText(url)
        let channel = channelName(in: String(decoding: body, as: UTF8.self))
        let isSignin = signinEndpoint.map { Transcript.endpointText($0) == endpoint } ?? false
        let isChannel = channelEndpoint.map { Transcript.endpointText($0) == endpoint } ?? false
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

/// One transcript entry besides the header.
public enum TranscriptEntry: Sendable, Equatable {
    /// A line of docs/PROTOCOL.md § Headless output (the same as `--jsonl` prints).
    case client(ClientEvent)
    /// A protocol message as the client's `onWireMessage` saw it (already redacted).
    case wire(direction: WireRecordDirection, text: String)
    /// An authorization request.
    case auth(AuthRecord)
}

/// The first line of a recording: what was recorded, and against which edge.
public struct TranscriptHeader: Sendable, Equatable {
    /// The format version this build writes and reads.
    public static let currentVersion = 1

    /// Format version.
    public var version: Int
    /// The program that wrote it ("bird-inspect 0.1.0").
    public var tool: String
    /// `bird` or `pusher`.
    public var dialect: String
    /// Edge host.
    public var host: String
    /// Edge port.
    public var port: Int
    /// Whether the socket used TLS.
    public var tls: Bool
    /// The application key (public; never the secret).
    public var appKey: String
    /// Channels subscribed at the start.
    public var channels: [String]

    /// A header.
    public init(version: Int = TranscriptHeader.currentVersion, tool: String, dialect: String, host: String, port: Int,
                tls: Bool, appKey: String, channels: [String]) {
        self.version = version
        self.tool = tool
        self.dialect = dialect
        self.host = host
        self.port = port
        self.tls = tls
        self.appKey = appKey
        self.channels = channels
    }
}

/// Writing recording lines.
public enum Transcript {
    /// `mono_ms` as written: milliseconds with exactly three decimals ("1234.567"); never negative.
    public static func monoText(_ ms: Double) -> String {
        let micro = ms.isFinite ? max(0, Checked.int(ms * 1000)) : 0
        let frac = micro % 1000
        return "\(micro / 1000)." + (frac < 10 ? "00" : frac < 100 ? "0" : "") + "\(frac)"
    }

    /// The header line (`mono_ms` 0).
    public static func headerLine(_ h: TranscriptHeader, at time: Date) -> String {
        let fields = [
            "\"ts\":" + TimeText.iso(time).jsonQuoted, "\"mono_ms\":" + monoText(0), "\"type\":\"recording\"",
            "\"version\":\(h.version)", "\"tool\":" + h.tool.jsonQuoted, "\"dialect\":" + h.dialect.jsonQuoted,
            "\"host\":" + h.host.jsonQuoted, "\"port\":\(h.port)", "\"tls\":\(h.tls)",
            "\"app_key\":" + h.appKey.jsonQuoted,
            "\"channels\":[" + h.channels.map(\.jsonQuoted).joined(separator: ",") + "]",
        ]
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// One entry's line: `ts`, `mono_ms`, `type`, then the entry's keys.
    public static func line(_ entry: TranscriptEntry, at time: Date, monoMs: Double) -> String {
        switch entry {
        case .client(let event):
            return JSONLines.line(event, at: time, monoMs: monoMs)
        case .wire(let direction, let text):
            return head(time, monoMs, "wire") + ",\"direction\":\"\(direction.rawValue)\",\"text\":" + wireText(text).jsonQuoted + "}"
        case .auth(let a):
            var f = head(time, monoMs, "auth") + ",\"kind\":\"\(a.kind.rawValue)\",\"endpoint\":" + a.endpoint.jsonQuoted
            if let ch = a.channel { f += ",\"channel\":" + ch.jsonQuoted }
            if let status = a.status { f += ",\"status\":\(status)" }
            if let error = a.error { f += ",\"error\":" + Redaction.scrub(error).jsonQuoted }
            return f + ",\"ms\":\(max(0, a.ms))}"
        }
    }

    /// An endpoint as recorded: scheme, host, port and path — no query string (demo endpoints and
    /// some apps put identities or tokens there), fragment or user info (BirdWire's `Redaction`).
    public static func endpointText(_ url: URL) -> String {
        Redaction.endpoint(url.absoluteString)
    }

    /// Wire text as recorded: the library has already redacted `auth` signatures; the rest of the
    /// policy (signature shapes, secret members, bearer tokens) runs again as a second line of
    /// defence. URLs in messages are the app's data and stay.
    static func wireText(_ text: String) -> String {
        Redaction.scrub(text, urls: .keep)
    }

    private static func head(_ time: Date, _ monoMs: Double, _ type: String) -> String {
        "{\"ts\":" + TimeText.iso(time).jsonQuoted + ",\"mono_ms\":" + monoText(monoMs) + ",\"type\":\"\(type)\""
    }
}
