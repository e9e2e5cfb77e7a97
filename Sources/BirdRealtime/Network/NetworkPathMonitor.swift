import Foundation

/// Watches the host's network path and reports changes. The Linux implementation is
/// ``NetlinkPathMonitor``; tests use `ManualNetworkPathMonitor` (BirdRealtimeTestSupport).
///
/// One monitor serves one owner: ``start(queue:onChange:)`` once, ``stop()`` when done.
public protocol NetworkPathMonitor: AnyObject, Sendable {
    /// The latest path: known once ``start(queue:onChange:)`` has returned; before that, or after
    /// a failure, a path that is ``NetworkPath/unknown(_:generation:)`` (and so usable).
    var current: NetworkPath { get }

    /// Starts watching. When it returns, ``current`` holds the path as it is now; from then on
    /// `onChange` runs on `queue` with each new path (never the same path twice in a row), until
    /// ``stop()``. Throws ``NetworkMonitorError`` when the monitor cannot start.
    func start(queue: DispatchQueue, onChange: @escaping @Sendable (NetworkPath) -> Void) throws

    /// Stops watching; no `onChange` call starts after it returns. Idempotent; may be called from
    /// `queue` (including from `onChange`).
    func stop()
}

/// Why a network path monitor could not start or keep watching.
public struct NetworkMonitorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: String, Sendable, Equatable {
        /// No monitor exists for this platform.
        case unsupportedPlatform
        /// `start` was called twice.
        case alreadyStarted
        /// A system call failed (`socket`, `bind`, `sendto`, `recv`, `poll`, `pipe`).
        case system
        /// The kernel kept refusing or interrupting a dump (see the message).
        case kernel
        /// The initial dump of links, addresses and routes did not finish in time.
        case timedOut
    }

    /// The kind of failure.
    public var kind: Kind
    /// What happened, for people (an operation and `strerror`, or a parse error).
    public var message: String

    /// Creates an error.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "network monitor: \(message)" }
}
