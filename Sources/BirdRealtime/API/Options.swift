import Foundation

extension BirdRealtime {
    /// How a client connects, authorizes and delivers. Every parameter after `appKey` has a default.
    public struct Options: Sendable {
        /// The app's key (public; not the secret).
        public var appKey: String
        /// The region whose edge to use (`us1`, `eu1`; for the pusher dialect, the cluster such as `mt1`).
        public var region: String
        /// Where private and presence subscriptions are signed (`POST`; see docs/AUTHORIZATION.md).
        public var authEndpoint: URL?
        /// Headers sent with every request to the auth endpoints.
        public var authHeaders: [String: String]
        /// Where `signin()` is signed.
        public var memberAuthEndpoint: URL?
        /// The edge host, overriding the one derived from `region` and `dialect`.
        public var host: String?
        /// The edge port (default 443 with TLS, 80 without).
        public var port: Int?
        /// Permit plain `ws://` and `http://` — honoured only for `localhost`, `127.0.0.1` and `[::1]`.
        public var allowInsecure: Bool
        /// An extra CA certificate file (PEM) trusted for the socket and the auth endpoints.
        public var caFile: String?
        /// The wire's spelling: `.bird` (default) or `.pusher`.
        public var dialect: Dialect
        /// Inactivity after which the client pings (the handshake's value wins when smaller).
        public var activityTimeout: Duration
        /// How long to wait for a pong before closing with 4201 and reconnecting.
        public var pongTimeout: Duration
        /// How long a subscription (or a sign-in) may stay unanswered.
        public var subscribeTimeout: Duration
        /// Where handlers run (default `.main`: a command-line app must run the main queue).
        public var deliveryQueue: DispatchQueue
        /// Watches the host's network so the client waits for a route instead of retrying into
        /// the void, connects at once when it returns, and pings when the path changes
        /// (docs/NETWORK.md). Default `.system` (Linux rtnetlink; none elsewhere).
        public var networkMonitor: NetworkMonitorChoice
        /// How long the endpoint provider and the handshake headers provider together may take
        /// per connection attempt (default 10 s, held to 1 ms … 1 h); past it the attempt takes
        /// the backoff path with ``StateChangeCause/endpointUnavailable(_:)``.
        public var endpointTimeout: Duration

        /// Signs private and presence subscriptions instead of `authEndpoint`.
        public var authorizer: (@Sendable (ChannelAuthRequest) async throws -> AuthResponse)?
        /// Signs `signin()` instead of `memberAuthEndpoint`; gets the connection id.
        public var memberAuthorizer: (@Sendable (_ connectionId: String) async throws -> AuthResponse)?
        /// Called before every auth endpoint request; its headers are added to `authHeaders`
        /// (and win on conflicts) — for tokens that are refreshed.
        public var authHeadersProvider: (@Sendable () async throws -> [String: String])?
        /// Asked before every connection attempt for the edge to connect to (host, port, TLS),
        /// instead of `host`/`port`/`allowInsecure`'s plain choice. It must answer within
        /// `endpointTimeout`; one that throws, hangs or answers something the security rules
        /// refuse sends the attempt down the backoff path (docs/LIFECYCLE.md, "Endpoint").
        public var endpointProvider: (@Sendable () async throws -> RealtimeEndpoint)?
        /// Asked before every connection attempt for extra headers on the WebSocket upgrade
        /// request (a token refreshed per connection). Values never appear in logs or reports;
        /// names must be HTTP tokens and values free of CR, LF and NUL, and the upgrade's own
        /// headers (`Host`, `Upgrade`, `Connection`, `Sec-WebSocket-*`) cannot be set.
        public var handshakeHeadersProvider: (@Sendable () async throws -> [String: String])?
        /// The jitter source: returns a number in `[0, 1]`. Replace it with a seeded generator in tests.
        public var random: @Sendable () -> Double
        /// Receives log lines; secrets (signatures, tokens) are already redacted. Called on the
        /// client's private queue (or the thread calling `trigger`), so it must be thread-safe.
        public var logHandler: (@Sendable (LogLevel, String) -> Void)?

        /// Creates options. Parameters are in the documented order; all but `appKey` are defaulted.
        public init(
            appKey: String,
            region: String = "us1",
            authEndpoint: URL? = nil,
            authHeaders: [String: String] = [:],
            memberAuthEndpoint: URL? = nil,
            host: String? = nil,
            port: Int? = nil,
            allowInsecure: Bool = false,
            caFile: String? = nil,
            dialect: Dialect = .bird,
            activityTimeout: Duration = .seconds(120),
            pongTimeout: Duration = .seconds(30),
            subscribeTimeout: Duration = .seconds(10),
            deliveryQueue: DispatchQueue = .main,
            networkMonitor: NetworkMonitorChoice = .system,
            endpointTimeout: Duration = .seconds(10)
        ) {
            self.appKey = appKey
            self.region = region
            self.authEndpoint = authEndpoint
            self.authHeaders = authHeaders
            self.memberAuthEndpoint = memberAuthEndpoint
            self.host = host
            self.port = port
            self.allowInsecure = allowInsecure
            self.caFile = caFile
            self.dialect = dialect
            self.activityTimeout = activityTimeout
            self.pongTimeout = pongTimeout
            self.subscribeTimeout = subscribeTimeout
            self.deliveryQueue = deliveryQueue
            self.networkMonitor = networkMonitor
            self.endpointTimeout = endpointTimeout
            self.endpointProvider = nil
            self.handshakeHeadersProvider = nil
            self.authorizer = nil
            self.memberAuthorizer = nil
            self.authHeadersProvider = nil
            self.random = { Double.random(in: 0...1) }
            self.logHandler = nil
        }
    }
}

/// The options of a ``BirdRealtime`` client (also reachable as `BirdRealtime.Options`).
public typealias BirdRealtimeOptions = BirdRealtime.Options
