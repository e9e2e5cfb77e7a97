import BirdWire

/// A connection state as a recording names it: one of the client's (``known``, BirdWire's
/// `ConnectionState`: docs/PROTOCOL.md § States), or ``unknown`` for a name this report does not
/// know.
public struct SessionState: Sendable, Hashable, CaseIterable {
    /// The client's state; nil for a name this report does not know.
    public var known: ConnectionState?

    /// The state `known` (nil: ``unknown``).
    public init(_ known: ConnectionState?) {
        self.known = known
    }

    /// The state named `name`.
    public init(name: String?) {
        self.init(name.flatMap(ConnectionState.init(rawValue:)))
    }

    /// A state name this report does not know.
    public static let unknown = SessionState(nil)

    /// The client's states in their order, then ``unknown``.
    public static var allCases: [SessionState] { ConnectionState.allCases.map(SessionState.init) + [.unknown] }

    /// The state's name (`connected`; `unknown`).
    public var rawValue: String { known?.rawValue ?? "unknown" }
}
