/// The six states of a connection (docs/PROTOCOL.md § States): the client's state, and the names
/// a recording's `state` lines carry (so the report reads them with the client's own list).
public enum ConnectionState: String, Sendable, CaseIterable, CustomStringConvertible {
    /// The client exists and has not opened a socket yet.
    case initialized
    /// The socket is opening, or open and waiting for the server's handshake.
    case connecting
    /// The handshake is done; the connection has an id and can subscribe.
    case connected
    /// The connection was lost and a reconnect is scheduled — or, when the cause is
    /// `StateChangeCause.networkUnavailable`, the client waits for the network to return
    /// (nothing is scheduled; see docs/NETWORK.md).
    case unavailable
    /// The app called `disconnect()`; nothing is scheduled.
    case disconnected
    /// The server refused this connection (or the configuration is unusable); no retry.
    case failed

    public var description: String { rawValue }
}
