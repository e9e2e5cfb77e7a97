// What the inspector keeps of each client callback: one case per E line of docs/PROTOCOL.md §
// Headless output. The values are records, not the library's types (`…Record` where a library type
// of the same kind exists): a recording must give them back, and a recording cannot hold a
// library value. `ClientFeed` maps the library's callbacks to them; connection states are the
// library's own `ConnectionState`.

import BirdRealtime
import BirdWire
import Foundation

/// Which side closed a socket.
public enum CloseInitiator: String, Sendable, Equatable {
    case server, client
}

/// Why a connection changed state, as the inspector shows, writes and reads it back (the library's
/// `StateChangeCause`, mapped by `ClientFeed.cause(_:)`, plus causes read from recordings).
public enum TransitionCause: Sendable, Equatable {
    /// The client started connecting by itself after init.
    case started
    /// The app called `connect()`.
    case connectCalled
    /// The app called `disconnect()`.
    case disconnectCalled
    /// The handshake arrived.
    case handshake
    /// A scheduled retry became due.
    case retryDue
    /// A close frame with a code and reason.
    case closed(code: Int, reason: String, by: CloseInitiator)
    /// No pong within the pong timeout (the client closed with 4201).
    case pongTimeout
    /// A network failure (refused, unreachable, DNS, TLS, timeout, TCP drop).
    case networkError(String)
    /// A handshake arrived without a connection id.
    case handshakeWithoutId
    /// `dropConnection()`: the socket was closed as if the network died.
    case dropped
    /// The app signed out (the client reconnects without its identity).
    case signout
    /// The host has no usable network: the client waits for it, nothing scheduled (the path's
    /// description, e.g. `no default route`).
    case networkUnavailable(String)
    /// The network came back: the client connects at once, backoff reset (the path's description).
    case networkRestored(String)
    /// The network path changed while a retry was pending: the client connects at once (the
    /// path's description).
    case networkChanged(String)
    /// The endpoint provider did not answer in time, failed, or answered something refused: the
    /// backoff path (the reason, naming the provider).
    case endpointUnavailable(String)
    /// Anything else, described.
    case other(String)
    /// A cause read back from a recording that names none of the above: the recorded text and
    /// close code (so the Connection pane still shows the code and its band).
    case recorded(text: String, closeCode: Int?)

    /// A short human description ("server closed: 4009 unauthorized").
    public var text: String {
        switch self {
        case .started: return "client started"
        case .connectCalled: return "connect() called"
        case .disconnectCalled: return "disconnect() called"
        case .handshake: return "handshake received"
        case .retryDue: return "retry due"
        case .closed(let code, let reason, let by):
            let who = by == .server ? "server closed" : "client closed"
            // A reason that only repeats the meaning is not said twice.
            let why = CloseCode.distinctReason(code, reason).map { " (\($0))" } ?? ""
            return "\(who): \(code) \(CloseCodeText.meaning(code))\(why)"
        case .pongTimeout: return "pong timeout"
        case .networkError(let message): return "network error: \(message)"
        case .handshakeWithoutId: return "handshake without connection id"
        case .dropped: return "socket dropped"
        case .signout: return "signed out"
        case .networkUnavailable(let path): return "no network (\(path)): waiting for it"
        case .networkRestored(let path): return "network back (\(path)): connecting at once"
        case .networkChanged(let path): return "network changed (\(path)): connecting at once"
        case .endpointUnavailable(let reason): return "endpoint unavailable: \(reason)"
        case .other(let message): return message
        case .recorded(let text, _): return text
        }
    }

    /// The close code carried by this cause, if any (1006 for a drop).
    public var closeCode: Int? {
        switch self {
        case .closed(let code, _, _): return code
        case .pongTimeout: return 4201
        case .dropped: return 1006
        case .recorded(_, let code): return code
        default: return nil
        }
    }
}

/// A state transition as the inspector records it (the library's `StateChange`, with its cause as
/// a `TransitionCause`; a `state` line).
public struct StateChangeRecord: Sendable, Equatable {
    /// The state before.
    public var previous: ConnectionState
    /// The state after.
    public var current: ConnectionState
    /// Why, when known.
    public var cause: TransitionCause?
    /// The connection id (set when `current` is `connected`).
    public var connectionId: String?
    /// The activity timeout in force after the handshake (min of option and server value).
    public var activityTimeout: Duration?

    /// A state change.
    public init(
        previous: ConnectionState, current: ConnectionState, cause: TransitionCause? = nil,
        connectionId: String? = nil, activityTimeout: Duration? = nil
    ) {
        self.previous = previous
        self.current = current
        self.cause = cause
        self.connectionId = connectionId
        self.activityTimeout = activityTimeout
    }
}

/// A scheduled reconnect attempt as the inspector records it (the library's `RetrySchedule`; a
/// `retry` line).
public struct RetryRecord: Sendable, Equatable {
    /// Wait before the attempt.
    public var delay: Duration
    /// Attempt number (from 0, as the client counts).
    public var attempt: Int
    /// What led to the retry.
    public var cause: TransitionCause?

    /// A retry schedule.
    public init(delay: Duration, attempt: Int, cause: TransitionCause? = nil) {
        self.delay = delay
        self.attempt = attempt
        self.cause = cause
    }
}

/// A subscription failure (`bird:subscription_error`).
public struct SubscriptionFailure: Sendable, Equatable {
    /// `AuthError`, `LimitReached`, `ServerError`, `Timeout`, …
    public var type: String
    /// HTTP status of the auth endpoint, when any.
    public var status: Int?
    /// The auth endpoint URL, when any.
    public var endpoint: String?
    /// The message.
    public var message: String

    /// A failure.
    public init(type: String, status: Int? = nil, endpoint: String? = nil, message: String) {
        self.type = type
        self.status = status
        self.endpoint = endpoint
        self.message = message
    }
}

/// An event received on a channel as the inspector records it (the library's `ChannelEvent` with
/// its payload's exact text; an `event` line).
public struct ChannelEventRecord: Sendable, Equatable {
    /// Channel name.
    public var channel: String
    /// Event name.
    public var event: String
    /// The data exactly as received (the library's `payload.text`: JSON text, or any text when
    /// not JSON); nil when absent.
    public var data: String?
    /// The sender of a client event on a presence channel.
    public var memberId: String?
    /// For an event on an end-to-end encrypted channel that the client decrypted: the data as it
    /// travelled (the `{"nonce","ciphertext"}` envelope), while `data` is the plaintext. Never a key.
    public var ciphertext: String?
    /// The event's offset in its channel's stream (Bird dialect, docs/PROTOCOL.md § Extensions);
    /// nil for events without one.
    public var offset: Int?

    /// Whether `data` is plaintext the client decrypted.
    public var decrypted: Bool { ciphertext != nil }

    /// An event.
    public init(
        channel: String, event: String, data: String? = nil, memberId: String? = nil, ciphertext: String? = nil,
        offset: Int? = nil
    ) {
        self.channel = channel
        self.event = event
        self.data = data
        self.memberId = memberId
        self.ciphertext = ciphertext
        self.offset = offset
    }
}

/// A presence member.
public struct PresenceMember: Sendable, Equatable {
    /// Member id.
    public var id: String
    /// `member_info` as raw JSON text, when present.
    public var info: String?

    /// A member.
    public init(id: String, info: String? = nil) {
        self.id = id
        self.info = info
    }
}

/// An error reported on `onError` (never an auth signature inside).
public struct ErrorReport: Sendable, Equatable {
    /// The error or close code, when any.
    public var code: Int?
    /// The message.
    public var message: String
    /// The close reason, when any.
    public var reason: String?
    /// `decryption` for an event on an encrypted channel that did not decrypt (the library's
    /// `RealtimeError.Kind.decryption`); nil for the others.
    public var kind: String?
    /// The channel the error concerns, when it concerns one.
    public var channel: String?
    /// The event the error concerns, when it concerns one.
    public var event: String?

    /// An error.
    public init(
        code: Int? = nil, message: String, reason: String? = nil, kind: String? = nil,
        channel: String? = nil, event: String? = nil
    ) {
        self.code = code
        self.message = message
        self.reason = reason
        self.kind = kind
        self.channel = channel
        self.event = event
    }

    /// Whether this is an encrypted event that did not decrypt.
    public var isDecryptionFailure: Bool { kind == ErrorReport.decryptionKind }

    /// The `kind` of a decryption failure.
    public static let decryptionKind = "decryption"
}

/// A line of a `--scenario`'s runner as the inspector records it (a `scenario` line): its start,
/// a step it performed, or its end; for a restart, when the edge accepts connections again.
public struct ScenarioStepRecord: Sendable, Equatable {
    /// The scenario's name (`edge-restart`).
    public var name: String
    /// The step's number, from 1 (nil for the start and `done` lines).
    public var step: Int?
    /// The step's action (`restart`, `drop`, …; nil for the start and `done` lines).
    public var action: String?
    /// What happened (`closed all with 4200 "edge restarting", down for 3.0 s`), the scenario's
    /// description at the start, or `done`.
    public var text: String
    /// For a restart: when its down time ends and the edge takes connections again.
    public var edgeBackAt: Date?

    /// A scenario line.
    public init(name: String, step: Int? = nil, action: String? = nil, text: String, edgeBackAt: Date? = nil) {
        self.name = name
        self.step = step
        self.action = action
        self.text = text
        self.edgeBackAt = edgeBackAt
    }
}

/// Everything the client reports, one case per callback (the lines of docs/PROTOCOL.md § Headless output).
public enum ClientEvent: Sendable, Equatable {
    case stateChanged(StateChangeRecord)
    case retryScheduled(RetryRecord)
    /// A subscription succeeded; `continuity` when the library said whether it continued the
    /// channel's stream (nil in recordings made before continuity was written).
    case subscribed(channel: String, continuity: ContinuityRecord? = nil)
    case subscriptionError(channel: String, SubscriptionFailure)
    case event(ChannelEventRecord)
    case membersSnapshot(channel: String, members: [PresenceMember], myId: String?)
    case memberAdded(channel: String, PresenceMember)
    case memberRemoved(channel: String, memberId: String)
    case connectionCount(channel: String, count: Int)
    case signinSucceeded(memberId: String, info: String?)
    case signinFailed(message: String)
    case error(ErrorReport)
    case sent(channel: String, event: String, data: String?)
    case commandError(command: String, message: String)
    /// The client's network path monitor reported a path (the first at start, then each change).
    case networkPath(NetworkPathRecord)
    /// The endpoint of a connection attempt is being resolved, was resolved, or could not be.
    case endpoint(EndpointRecord)
    /// The inspector fell behind: `count` channel events (and `wire` recording lines) that
    /// arrived from `since` on were dropped, not shown, printed or recorded (not a client callback).
    case dropped(count: Int, wire: Int, since: Date)
    /// A protocol ping was answered after this round-trip time (the client's liveness ping or
    /// one the inspector asked for; an `rtt` line).
    case roundTrip(Duration)
    /// A step the `--scenario` runner performed on the embedded sandbox (not a client callback;
    /// a `scenario` line).
    case scenario(ScenarioStepRecord)

    /// The channel this event concerns, if any.
    public var channel: String? {
        switch self {
        case .subscribed(let c, _), .subscriptionError(let c, _), .membersSnapshot(let c, _, _),
            .memberAdded(let c, _), .memberRemoved(let c, _), .connectionCount(let c, _), .sent(let c, _, _):
            return c
        case .event(let e): return e.channel
        case .error(let r): return r.channel
        default: return nil
        }
    }
}
