// Close and error codes (PROTOCOL.md A.8) with the client's behaviour for each band (B.3).
// Private to the inspector for now; to be replaced by the shared BirdWire table.

/// What the client does after a close code's band.
public enum CloseBand: Sendable, Equatable {
    /// 4000–4099: the server refused this connection; state `failed`, no retry.
    case refused
    /// 4100–4199 and 4300+: retry after backoff.
    case backoff
    /// 4200–4299: reconnect at once (after the handshake; before it, backoff).
    case reconnectNow
    /// 1000–1015 (WebSocket codes) and anything else: retry after backoff.
    case websocket

    /// The band of any code; unknown codes still fall into their band.
    public init(code: Int) {
        switch code {
        case 4000...4099: self = .refused
        case 4200...4299: self = .reconnectNow
        case 4100...4199, 4300...4999: self = .backoff
        default: self = .websocket
        }
    }

    /// The behaviour in words, e.g. "refused, no retry".
    public var behaviour: String {
        switch self {
        case .refused: return "refused, no retry"
        case .backoff: return "retry after backoff"
        case .reconnectNow: return "reconnect at once"
        case .websocket: return "retry after backoff"
        }
    }
}

/// Meanings of close and error codes for display.
public enum CloseCodeText {
    /// The meaning of a code ("unauthorized"), or a band-level description for unknown codes.
    public static func meaning(_ code: Int) -> String {
        if let known = table[code] { return known }
        switch code {
        case 4000...4099: return "refused by the server"
        case 4100...4199: return "server asks to retry later"
        case 4200...4299: return "server asks to reconnect"
        case 4300...4399: return "error"
        default: return "close code"
        }
    }

    /// "4009 unauthorized — refused, no retry — terminated by the app": code, meaning, band
    /// behaviour and (when present) the server's reason.
    public static func describe(code: Int, reason: String?) -> String {
        var text = "\(code) \(meaning(code)) — \(CloseBand(code: code).behaviour)"
        if let reason, !reason.isEmpty { text += " — \(reason)" }
        return text
    }

    /// Codes offered in the inspector's close menu (`k`), in menu order.
    public static let menuCodes: [Int] = [
        1000, 1001, 1011, 4000, 4001, 4004, 4009, 4100, 4200, 4201, 4202, 4301,
    ]

    static let table: [Int: String] = [
        1000: "normal closure",
        1001: "going away",
        1002: "protocol error",
        1003: "unsupported data",
        1005: "no status code",
        1006: "connection dropped",
        1007: "invalid payload",
        1008: "policy violation",
        1009: "message too big",
        1010: "extension required",
        1011: "internal server error",
        1012: "service restart",
        1013: "try again later",
        1014: "bad gateway",
        1015: "TLS handshake failed",
        4000: "app accepts only TLS",
        4001: "app does not exist",
        4003: "app disabled",
        4004: "app over connection quota",
        4005: "path not found",
        4006: "invalid version",
        4007: "unsupported protocol",
        4008: "no protocol version",
        4009: "unauthorized",
        4100: "over capacity",
        4200: "reconnect immediately",
        4201: "pong not received",
        4202: "closed after inactivity",
        4301: "client event rejected",
        4302: "server error",
    ]
}
