import BirdRealtime
import Foundation

/// A network path monitor whose path changes only when a test says so. Changes are delivered
/// synchronously on the queue given to ``start(queue:onChange:)`` (`queue.sync`), so when a call
/// returns the owner has seen it. Never call the changing methods from that queue.
///
/// ```swift
/// let network = ManualNetworkPathMonitor()       // usable: default via eth0 (IPv4)
/// network.loseNetwork()                          // no default route
/// network.restoreNetwork()                       // usable again, new generation
/// network.changePath()                           // still usable, new generation (ping now)
/// ```
public final class ManualNetworkPathMonitor: NetworkPathMonitor, @unchecked Sendable {
    /// A usable path: `default via eth0 (IPv4)`.
    public static let usablePath = NetworkPath(
        defaultRoutes: [DefaultRoute(family: .ipv4, interface: "eth0", gateway: "192.0.2.1")], generation: 1)

    private struct State {
        var current: NetworkPath
        var queue: DispatchQueue?
        var onChange: (@Sendable (NetworkPath) -> Void)?
        var startCount = 0
        var stopCount = 0
        var startError: NetworkMonitorError?
    }

    private let state: TestLock<State>

    /// A monitor whose path is `initial` (usable by default).
    public init(initial: NetworkPath = ManualNetworkPathMonitor.usablePath) {
        state = TestLock(State(current: initial))
    }

    // MARK: - NetworkPathMonitor

    public var current: NetworkPath { state.withLock { $0.current } }

    public func start(queue: DispatchQueue, onChange: @escaping @Sendable (NetworkPath) -> Void) throws {
        let refusal = state.withLock { s -> NetworkMonitorError? in
            if let error = s.startError { return error }
            guard s.onChange == nil else {
                return NetworkMonitorError(kind: .alreadyStarted, message: "start() called twice")
            }
            s.queue = queue
            s.onChange = onChange
            s.startCount += 1
            return nil
        }
        if let refusal { throw refusal }
    }

    public func stop() {
        state.withLock { s in
            if s.onChange != nil { s.stopCount += 1 }
            s.queue = nil
            s.onChange = nil
        }
    }

    // MARK: - Driving it

    /// Sets the path; a started monitor delivers it when it differs from the current one.
    public func update(_ path: NetworkPath) {
        let delivery = state.withLock { s -> (DispatchQueue, @Sendable (NetworkPath) -> Void)? in
            guard s.current != path else { return nil }
            s.current = path
            guard let queue = s.queue, let onChange = s.onChange else { return nil }
            return (queue, onChange)
        }
        if let (queue, onChange) = delivery {
            queue.sync { onChange(path) }
        }
    }

    /// No default route (the generation moves on).
    public func loseNetwork() {
        let generation = current.generation &+ 1
        update(NetworkPath(defaultRoutes: [], generation: generation))
    }

    /// Back to ``usablePath``'s routes with a new generation.
    public func restoreNetwork() {
        let generation = current.generation &+ 1
        update(NetworkPath(defaultRoutes: Self.usablePath.defaultRoutes, generation: generation))
    }

    /// The same routes with a new generation: addresses or routes changed under an open socket.
    public func changePath() {
        var path = current
        path.generation &+= 1
        update(path)
    }

    /// Makes the next ``start(queue:onChange:)`` throw `error` (nil: start normally).
    public func failStart(with error: NetworkMonitorError?) {
        state.withLock { $0.startError = error }
    }

    /// How many times the monitor was started.
    public var startCount: Int { state.withLock { $0.startCount } }

    /// How many times a started monitor was stopped.
    public var stopCount: Int { state.withLock { $0.stopCount } }

    /// The monitor is started (between `start` and `stop`).
    public var isStarted: Bool { state.withLock { $0.onChange != nil } }
}
