/// A connection state of docs/PROTOCOL.md § States as a recording names it; a name this report does not
/// know reads as `unknown`.
public enum SessionState: String, Sendable, Equatable, CaseIterable {
    /// The client exists, no socket yet.
    case initialized
    /// Opening a socket, or waiting for the handshake.
    case connecting
    /// Handshake done.
    case connected
    /// Connection lost; a retry is scheduled.
    case unavailable
    /// The app called `disconnect()`.
    case disconnected
    /// The server refused the connection; no retry.
    case failed
    /// A state name this report does not know.
    case unknown

    /// The state named `name`.
    public init(name: String?) {
        self = name.flatMap(SessionState.init(rawValue:)) ?? .unknown
    }
}
