import BirdWire

/// How a ``Sandbox`` is set up. Every field has a default, so `SandboxConfiguration()` is a
/// working edge on `127.0.0.1:6001` with the app of docs/PROTOCOL.md § Sandbox control API.
public struct SandboxConfiguration: Sendable {
    /// The address to listen on. Keep it on loopback: the demo auth endpoints sign anything.
    public var host: String
    /// The port; 0 picks a free one (read it from ``Sandbox/endpoints``).
    public var port: Int
    /// The app id of the HTTP API paths (`/apps/{app_id}/…`).
    public var appId: String
    /// The app key clients connect with (`/app/{key}`).
    public var appKey: String
    /// The app secret that signs subscriptions, sign-ins and HTTP API requests.
    public var appSecret: String
    /// The wire dialect spoken to clients.
    public var dialect: Dialect
    /// Whether clients may send `client-` events (off unless enabled, as on a real edge).
    public var clientEvents: Bool
    /// Whether channels report their connection count to subscribers.
    public var connectionCount: Bool
    /// When set, connections not signed in within this many seconds are closed with 4009.
    public var requireSigninSeconds: Double?
    /// The `activity_timeout` announced in the handshake; a connection silent this long is pinged.
    public var activityTimeout: Int
    /// How long a pinged connection has to answer before it is closed with 4201.
    public var pongTimeout: Double
    /// PEM certificate file: with ``tlsPrivateKeyFile``, serves `wss://` and `https://`.
    public var tlsCertificateFile: String?
    /// PEM private key file for ``tlsCertificateFile``.
    public var tlsPrivateKeyFile: String?
    /// The app's encryption master key (`encryption_master_key_base64` of the `pusher` server
    /// SDKs). With it, the demo auth endpoint answers `private-encrypted-` channels with their
    /// key (`shared_secret`) and `POST /sandbox/publish` seals their data; without it, the demo
    /// auth endpoint refuses those channels (they still work with auth signed elsewhere). The HTTP
    /// API never needs it: it relays what the server SDK sealed. Never logged.
    package var encryptionMasterKey: EncryptionMasterKey?
    /// How much each WebSocket connection may send before it is closed with 1008 as a flood.
    public var inboundBudget = InboundBudget()
    /// How much of each channel's stream is kept for subscribers that resume (Bird dialect;
    /// docs/PROTOCOL.md § Extensions): by default the last 1,000 events, for 5 minutes.
    public var history = HistoryLimits()
    /// HTTP connections (not upgraded to WebSocket) open at once; more are answered 503 and
    /// closed (1…65536, default 1024).
    public var maxHTTPConnections = 1024
    /// Receives one line per connection event (open, subscribe, close …), secrets redacted and
    /// control characters escaped (``LogText``), one line each.
    /// Nil (the default) logs nothing — an embedding TUI must not have stderr written under it.
    public var log: (@Sendable (String) -> Void)?
    /// When set, the sandbox plays the server side of this recording (`bird-sandbox --replay`):
    /// the k-th accepted WebSocket connection is driven by segment k instead of the protocol
    /// edge, and connections beyond the last segment are served by the edge. The HTTP routes
    /// work as usual. See docs/RECORDING.md.
    public var replay: ServerReplayPlan?
    /// Receives the replay's log, one line per step (separate from ``log``, so `--quiet` keeps
    /// it). Nil logs nothing.
    public var replayLog: (@Sendable (String) -> Void)?

    /// Creates a configuration; see each property for its meaning.
    public init(
        host: String = "127.0.0.1", port: Int = 6001, appId: String = "sandbox", appKey: String = "sandbox-key",
        appSecret: String = "sandbox-secret", dialect: Dialect = .bird, clientEvents: Bool = false,
        connectionCount: Bool = false, requireSigninSeconds: Double? = nil, activityTimeout: Int = 120,
        pongTimeout: Double = 30, tlsCertificateFile: String? = nil, tlsPrivateKeyFile: String? = nil,
        log: (@Sendable (String) -> Void)? = nil
    ) {
        self.host = host
        self.port = port
        self.appId = appId
        self.appKey = appKey
        self.appSecret = appSecret
        self.dialect = dialect
        self.clientEvents = clientEvents
        self.connectionCount = connectionCount
        self.requireSigninSeconds = requireSigninSeconds
        self.activityTimeout = activityTimeout
        self.pongTimeout = pongTimeout
        self.tlsCertificateFile = tlsCertificateFile
        self.tlsPrivateKeyFile = tlsPrivateKeyFile
        self.log = log
    }

    /// Whether the sandbox serves TLS.
    public var usesTLS: Bool { tlsCertificateFile != nil && tlsPrivateKeyFile != nil }
}

/// Where a running ``Sandbox`` can be reached.
public struct SandboxEndpoints: Sendable, Equatable {
    /// The WebSocket URL of the app, e.g. `ws://127.0.0.1:6001/app/sandbox-key`.
    public var webSocketURL: String
    /// The HTTP base, e.g. `http://127.0.0.1:6001` (HTTP API, auth, control).
    public var httpBase: String
    /// The demo channel auth endpoint (`POST /auth`).
    public var authEndpoint: String
    /// The demo sign-in endpoint (`POST /auth/member`).
    public var memberAuthEndpoint: String
    /// The control API base (`…/sandbox`).
    public var controlBase: String
    /// The app id.
    public var appId: String
    /// The app key.
    public var appKey: String
    /// The host clients connect to.
    public var host: String
    /// The bound port.
    public var port: Int
    /// The dialect spoken.
    public var dialect: Dialect

    /// The one-line JSON object `bird-sandbox` prints on start.
    public var jsonLine: String {
        let object: JSONValue = [
            "ws": .string(webSocketURL), "http": .string(httpBase), "auth_endpoint": .string(authEndpoint),
            "member_auth_endpoint": .string(memberAuthEndpoint), "control": .string(controlBase),
            "app_id": .string(appId), "app_key": .string(appKey), "dialect": .string(dialect.rawValue),
            "port": .number(JSONNumber(port)),
        ]
        return object.description
    }
}
