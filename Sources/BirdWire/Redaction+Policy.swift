/// The package's one redaction policy: what counts as a secret, and how each kind of text is
/// cleaned before it is shown or stored — by the client's wire tap and log, the inspector's screen,
/// JSON lines and recordings, the sandbox's log, the doctor's reports and the session report.
/// One placeholder everywhere: ``placeholder`` (`<redacted>`).
///
/// What is a secret:
/// - an `auth` value's signature — the part after its first `:` (the app key before it is public
///   and kept: `app-key:<redacted>`); an `auth_signature=` query value;
/// - anything shaped like a signature: `:` followed by exactly 64 hex digits;
/// - the value of a JSON member whose name says it is secret (``isSecretKey(_:)``: `auth`,
///   `auth_signature`, `signature`, `secret`, `shared_secret` — an encrypted channel's key —,
///   `token`, `access_token`, `password`, `authorization`, and any name ending in `_token`,
///   `_secret`, `_password` or `_signature`); `channel_data` is member info, shown on purpose;
/// - a `Bearer` token; the value of a header whose name says it is secret (``redactHeader(name:value:)``);
/// - in messages, the password of a URL's user info and a URL's query string: dropped (recordings,
///   JSON lines, the report — the `endpoint` of an `auth` and of a `subscription_error` line
///   alike), or, where the query helps a diagnosis (the doctor), the values of parameters whose
///   names say they are secret (``isSecretParameter(name:value:)``); URLs inside event data and
///   protocol messages are the app's data and stay;
/// - the literal secrets a caller knows (an app secret, header values), four characters or more.
///
/// Entry points: ``redactWireText(_:)`` (protocol messages on the client's hot path: `auth`
/// signatures only), ``scrub(_:urls:secrets:)`` (any free text: every rule above),
/// ``redacted(_:)`` (a parsed JSON value), ``endpoint(_:)`` and ``diagnosticEndpoint(_:)`` (URLs),
/// ``redactHeader(name:value:)`` and ``headerLine(name:value:)`` (headers), ``redact(_:secrets:)``.
extension Redaction {
    /// How ``scrub(_:urls:secrets:)`` treats the URLs in a text.
    package enum URLPolicy: Sendable, Equatable {
        /// Messages about something (causes, errors, log lines, report texts): a URL's user-info
        /// password is replaced and its query string dropped (up to the end of the URL), so what
        /// is recorded or reported never carries one.
        case dropQueries
        /// The doctor's output: the user-info password and the values of query parameters whose
        /// names look secret are replaced, the rest kept (`?member=alice&token=<redacted>`), since
        /// a query may be what is wrong.
        case redactSecretQueryValues
        /// Data (event payloads, protocol messages): URLs are the app's own and stay as sent.
        case keep
    }

    /// `text` with every secret the policy knows replaced: ``redactWireText(_:)``, the literal
    /// `secrets`, secret JSON members (plain or double-encoded), signature shapes, `Bearer`
    /// tokens, and the URLs' user-info passwords and query strings as `urls` says.
    package static func scrub(_ text: String, urls: URLPolicy = .dropQueries, secrets: [String] = []) -> String {
        var out = redactWireText(text)
        if !secrets.isEmpty { out = redact(out, secrets: secrets) }
        out = redactSecretMembers(out)
        out = redactSignatures(out)
        out = redactBearerTokens(out)
        return redactURLs(out, urls)
    }

    /// Replaces every occurrence of each secret of four characters or more in `text`.
    package static func redact(_ text: String, secrets: [String]) -> String {
        var out = text
        for secret in secrets where secret.count >= 4 {
            out = out.replacing(secret, with: placeholder)
        }
        return out
    }

    /// An `auth` value as shown: the text up to its first `:` (the app key) kept, the rest
    /// replaced; a value without a colon is replaced whole.
    package static func redactedAuth(_ value: some StringProtocol) -> String {
        guard let colon = value.firstIndex(of: ":") else { return placeholder }
        return String(value[...colon]) + placeholder
    }
}
