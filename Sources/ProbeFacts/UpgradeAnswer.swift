/// The server's answer to the WebSocket upgrade request, whatever it was.
public struct UpgradeAnswer: Sendable, Equatable {
    /// The status line as received (`HTTP/1.1 101 Switching Protocols`).
    public var statusLine: String
    /// The status code.
    public var status: Int
    /// Response header fields, in order.
    public var headers: [HeaderLine]
    /// Whether `Upgrade` contains the token `websocket`.
    public var upgradeWebSocket: Bool
    /// Whether `Connection` contains the token `upgrade`.
    public var connectionUpgrade: Bool
    /// Whether a `Sec-WebSocket-Accept` field was present.
    public var acceptPresent: Bool
    /// Whether `Sec-WebSocket-Accept` is the value RFC 6455 requires for the key sent.
    public var acceptValid: Bool
    /// The first bytes of the body that came with a non-101 answer (at most 512), as text.
    public var bodyPrefix: String

    /// Creates an answer.
    public init(
        statusLine: String, status: Int, headers: [HeaderLine] = [], upgradeWebSocket: Bool = false,
        connectionUpgrade: Bool = false, acceptPresent: Bool = false, acceptValid: Bool = false, bodyPrefix: String = ""
    ) {
        self.statusLine = statusLine
        self.status = status
        self.headers = headers
        self.upgradeWebSocket = upgradeWebSocket
        self.connectionUpgrade = connectionUpgrade
        self.acceptPresent = acceptPresent
        self.acceptValid = acceptValid
        self.bodyPrefix = bodyPrefix
    }

    /// The first value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name.lowercased() == lower }?.value
    }

    /// Whether this is a valid WebSocket upgrade (101, the tokens, the right accept value, no
    /// extension we did not ask for).
    public var isWebSocket: Bool {
        status == 101 && upgradeWebSocket && connectionUpgrade && acceptValid
            && (header("Sec-WebSocket-Extensions") ?? "").isEmpty
    }
}
