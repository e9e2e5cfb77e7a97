// Close and error codes for display, from the one shared table in BirdWire (docs/PROTOCOL.md § Close and error codes)
// with the client's behaviour for each band (§ Reconnection).

import BirdWire

/// Meanings of close and error codes for display.
public enum CloseCodeText {
    /// The meaning of a code ("unauthorized"), or a band-level description for unknown codes.
    public static func meaning(_ code: Int) -> String {
        CloseCode.meaning(code)
    }

    /// The one text for a close everywhere in the inspector (Connection pane, `k` menu, log):
    /// "4009 unauthorized — refused, no retry — terminated by the app" — code, meaning, band
    /// behaviour (unless the meaning says it) and the server's reason when it adds something
    /// (BirdWire's `CloseCode.describe`).
    public static func describe(code: Int, reason: String?) -> String {
        CloseCode.describe(code, reason: reason)
    }

    /// The reason the inspector asks the sandbox to close with when none is given: for 4009 the
    /// protocol's "terminated by the app" (docs/PROTOCOL.md § Close and error codes), else the
    /// meaning (which the screen then does not repeat).
    public static func defaultReason(_ code: Int) -> String {
        code == CloseCode.unauthorized ? "terminated by the app" : CloseCode.meaning(code)
    }

    /// Whether a close frame may carry `code` (RFC 6455 § 7.4: not 1004–1006, 1015 or below 1000).
    public static func closable(_ code: Int) -> Bool {
        (1000...1003).contains(code) || (1007...1014).contains(code) || (3000...4999).contains(code)
    }

    /// Codes offered in the inspector's close menu (`k`), in menu order.
    public static let menuCodes: [Int] = [
        1000, 1001, 1011, 4000, 4001, 4004, 4009, 4100, 4200, 4201, 4202, 4301,
    ]
}
