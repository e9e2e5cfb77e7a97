/// Why a ``Sandbox`` could not start.
public enum SandboxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A configuration value is unusable.
    case invalidConfiguration(String)
    /// The listener could not be opened (address in use, TLS files unreadable, …).
    case cannotListen(String)

    /// One line for humans.
    public var description: String {
        switch self {
        case .invalidConfiguration(let message): return "invalid configuration: \(message)"
        case .cannotListen(let message): return "cannot listen: \(message)"
        }
    }
}
