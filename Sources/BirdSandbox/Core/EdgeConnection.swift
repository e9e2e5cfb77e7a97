import BirdWire

/// One client connection's session state.
final class EdgeConnection {
    /// The connection id (`NNN.NNN`), also the key in the edge's tables.
    let id: String
    let link: any EdgeLink
    /// The peer address, e.g. `127.0.0.1:50312`.
    let remote: String
    /// Unix time of the upgrade.
    let connectedAt: Double
    /// Channels this connection is subscribed to (member channels included).
    var channels: Set<String> = []
    /// Presence channel → the member id this connection joined it as.
    var presence: [String: String] = [:]
    /// The member this connection signed in as, and the exact identity string it signed.
    var member: (id: String, data: String)?
    /// Unix time of the last inbound message.
    var lastInbound: Double
    /// When the edge pinged this connection and still waits for anything back.
    var pingSentAt: Double?
    /// When an unsigned connection is closed with 4009 (`--require-signin`).
    var signinDeadline: Double?
    /// The sandbox stopped reading and answering (control `silence`).
    var silenced = false
    var rateLimiter = ClientEventRateLimiter()
    /// What the connection has used of its inbound budget (flood protection).
    var meter: InboundMeter

    init(id: String, link: any EdgeLink, remote: String, now: Double, budget: InboundBudget = InboundBudget()) {
        self.id = id
        self.link = link
        self.remote = remote
        self.connectedAt = now
        self.lastInbound = now
        self.meter = InboundMeter(budget: budget, now: now)
    }
}

/// A snapshot of one connection for the control API and tools.
public struct SandboxConnectionInfo: Sendable, Equatable {
    /// The connection id.
    public var id: String
    /// The member the connection signed in as, if any.
    public var memberId: String?
    /// Subscribed channels, sorted.
    public var channels: [String]
    /// The peer address.
    public var remote: String
    /// Unix time of the upgrade.
    public var connectedAt: Double
    /// Whether the connection was silenced.
    public var silenced: Bool
}
