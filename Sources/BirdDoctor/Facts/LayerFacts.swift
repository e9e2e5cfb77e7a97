/// What the runner found at each layer, as plain values: the input of ``Diagnosis``, which
/// turns facts into verdicts and hints. Tests build these directly, without sockets. The TLS and
/// upgrade facts (`TLSFacts`, `CertificateFacts`, `UpgradeAnswer`) are ProbeFacts' values, the
/// ones `ConnectionProbe` reports, so the runner hands them over as they are.

/// Layer 1: the resolver's answer.
public enum ResolveFacts: Sendable, Equatable {
    /// Addresses, in the resolver's order (`127.0.0.1:6001`, `[::1]:6001`).
    case resolved([String])
    /// The resolver's error text (`Name or service not known`).
    case failed(String)
    /// No answer within the step's time.
    case timedOut
}

/// Layer 2: one TCP attempt.
public struct ConnectAttempt: Sendable, Equatable {
    /// The address tried.
    public var address: String
    /// What happened.
    public var outcome: ConnectOutcome
    /// Milliseconds the attempt took.
    public var ms: Double

    /// Creates an attempt.
    public init(address: String, outcome: ConnectOutcome, ms: Double) {
        self.address = address
        self.outcome = outcome
        self.ms = ms
    }
}

/// How a TCP attempt ended.
public enum ConnectOutcome: Sendable, Equatable {
    /// The connection is open.
    case connected
    /// Refused: nothing listens there.
    case refused
    /// No route (the text is the system's).
    case unreachable(String)
    /// No answer in time (packets dropped).
    case timedOut
    /// Another socket error.
    case failed(String)
}

/// Layer 3's outcome (a completed handshake: `TLSFacts`).
public enum TLSOutcome: Sendable, Equatable {
    /// The handshake completed; verification verdicts inside.
    case completed(TLSFacts)
    /// The handshake failed (OpenSSL's words).
    case failed(String)
    /// No handshake in time.
    case timedOut
    /// The server closed the connection during the handshake.
    case closed
}

/// Layer 4's outcome (an answer: `UpgradeAnswer`).
public enum UpgradeOutcome: Sendable, Equatable {
    /// The server answered (any status).
    case answered(UpgradeAnswer)
    /// The exchange failed (words: not HTTP, TLS bytes, a socket error).
    case failed(String)
    /// No answer in time.
    case timedOut
    /// The server closed the connection without answering.
    case closed
}

/// Layers 5–9: how the edge answered while a step waited for it.
public enum EdgeReply: Sendable, Equatable {
    /// A protocol message (the one the step was waiting for, or an error).
    case message(EdgeMessage)
    /// The edge closed the WebSocket with this code and reason.
    case closed(code: Int, reason: String)
    /// The connection ended without a close frame.
    case lost(String)
    /// The edge broke RFC 6455.
    case protocolError(String)
    /// Nothing decisive in time.
    case timedOut
}
