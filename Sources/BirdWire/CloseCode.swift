import Foundation

/// Close codes and error codes (docs/PROTOCOL.md § Close and error codes) and the bands that decide what a client does
/// after a close (§ Reconnection) — all in one place, shared by the client, the sandbox and the inspector.
public enum CloseCode {
    /// A short meaning for a code; codes nobody defined are described by their band.
    public static func meaning(_ code: Int) -> String {
        if let known = table[code] { return known }
        switch band(code) {
        case .refused: return "refused (unassigned code)"
        case .backoff: return "retry later (unassigned code)"
        case .immediate: return "reconnect (unassigned code)"
        case .errorEvent: return "error (unassigned code)"
        case .standard: return "closed"
        }
    }

    /// The band a code belongs to. Unknown codes still fall in their band.
    public static func band(_ code: Int) -> CloseBand {
        switch code {
        case 4000...4099: return .refused
        case 4100...4199: return .backoff
        case 4200...4299: return .immediate
        case 4300...4399: return .errorEvent
        default: return .standard
        }
    }

    /// What a client does after the server closed the connection with `code`.
    ///
    /// - Parameter reachedConnected: whether the connection had completed the handshake. A
    ///   4200–4299 close before the handshake takes the backoff path, so an edge that keeps
    ///   refusing cannot drive a tight reconnect loop.
    package static func action(forServerClose code: Int, reachedConnected: Bool) -> ReconnectAction {
        switch band(code) {
        case .refused: return .fail
        case .immediate: return reachedConnected ? .reconnectNow : .backoff
        case .backoff, .errorEvent, .standard: return .backoff
        }
    }

    /// One line for humans: "4009 unauthorized — refused, no retry".
    /// The behaviour is left out when the meaning already says it ("4200 generic reconnect
    /// immediately").
    public static func summary(_ code: Int) -> String {
        let meaning = meaning(code)
        let behaviour = band(code).behaviour
        return meaning.hasSuffix(behaviour) ? "\(code) \(meaning)" : "\(code) \(meaning) — \(behaviour)"
    }

    /// The one text for a close, wherever it is shown: ``summary(_:)`` followed by the server's
    /// reason when it adds something ("4009 unauthorized — refused, no retry — terminated by the
    /// app"). A reason that only repeats the meaning or the behaviour ("over capacity" for 4100) is
    /// left out, so no part of the text is said twice.
    public static func describe(_ code: Int, reason: String?) -> String {
        let text = summary(code)
        guard let extra = distinctReason(code, reason) else { return text }
        return "\(text) — \(extra)"
    }

    /// The server's reason for a close when it says something the code's meaning and behaviour do
    /// not (trimmed), or nil when it is empty or only repeats them.
    package static func distinctReason(_ code: Int, _ reason: String?) -> String? {
        guard let reason = reason?.trimmingCharacters(in: .whitespacesAndNewlines), !reason.isEmpty else { return nil }
        let lowered = reason.lowercased()
        let said = [meaning(code), band(code).behaviour, summary(code), "\(code)", "\(code) \(meaning(code))"]
        if said.contains(where: { $0.lowercased() == lowered }) { return nil }
        return reason
    }

    static let table: [Int: String] = [
        1000: "normal closure",
        1001: "going away",
        1002: "protocol error",
        1003: "unsupported data",
        1005: "no status code",
        1006: "connection lost (no close frame)",
        1007: "invalid payload data",
        1008: "policy violation",
        1009: "message too big",
        1010: "missing extension",
        1011: "internal server error",
        1012: "service restart",
        1013: "try again later",
        1014: "bad gateway",
        1015: "TLS handshake failure",
        4000: "app accepts only TLS",
        4001: "app does not exist",
        4003: "app disabled",
        4004: "app over connection quota",
        4005: "path not found",
        4006: "invalid version string format",
        4007: "unsupported protocol version",
        4008: "no protocol version supplied",
        4009: "unauthorized",
        4100: "over capacity",
        4200: "generic reconnect immediately",
        4201: "pong not received",
        4202: "closed after inactivity",
        4301: "client event rejected",
        4302: "server error",
    ]

    /// The code the client closes with when the pong timeout passes.
    public static let pongTimeout = 4201
    /// The code the sandbox and edges use when restarting.
    public static let edgeRestarting = 4200
    /// Unauthorized: terminated by the app, or sign-in required and not done in time.
    public static let unauthorized = 4009
}

/// The reconnect band of a close code.
public enum CloseBand: String, Sendable, CaseIterable {
    /// 4000–4099: the server refused this connection; no retry.
    case refused
    /// 4100–4199: retry after backoff.
    case backoff
    /// 4200–4299: reconnect immediately (after the handshake had completed).
    case immediate
    /// 4300–4399: error-event codes; as a close, retry after backoff.
    case errorEvent
    /// Standard WebSocket codes (1000–1015) and everything else: retry after backoff.
    case standard

    /// What a correct client does, in words.
    public var behaviour: String {
        switch self {
        case .refused: return "refused, no retry"
        case .backoff: return "retry after backoff"
        case .immediate: return "reconnect immediately"
        case .errorEvent: return "retry after backoff"
        case .standard: return "retry after backoff"
        }
    }
}

/// What a client does after a connection ends.
package enum ReconnectAction: Sendable, Equatable {
    /// State `failed`; nothing scheduled.
    case fail
    /// Straight to `connecting`, no wait.
    case reconnectNow
    /// State `unavailable`; retry after a full-jitter backoff delay.
    case backoff
}
