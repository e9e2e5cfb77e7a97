// Close and error codes for display, from the one shared table in BirdWire (docs/PROTOCOL.md § Close and error codes)
// with the client's behaviour for each band (§ Reconnection).

import BirdWire

/// Meanings of close and error codes for display.
public enum CloseCodeText {
    /// The meaning of a code ("unauthorized"), or a band-level description for unknown codes.
    public static func meaning(_ code: Int) -> String {
        CloseCode.meaning(code)
    }

    /// What a correct client does after a close with `code`, e.g. "refused, no retry".
    public static func behaviour(_ code: Int) -> String {
        CloseCode.band(code).behaviour
    }

    /// "4009 unauthorized — refused, no retry — terminated by the app": code, meaning, band
    /// behaviour and (when present) the server's reason.
    public static func describe(code: Int, reason: String?) -> String {
        var text = CloseCode.summary(code)
        if let reason, !reason.isEmpty { text += " — \(reason)" }
        return text
    }

    /// Codes offered in the inspector's close menu (`k`), in menu order.
    public static let menuCodes: [Int] = [
        1000, 1001, 1011, 4000, 4001, 4004, 4009, 4100, 4200, 4201, 4202, 4301,
    ]
}
