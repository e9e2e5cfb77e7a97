/// Coalesces a burst of path changes (an interface coming up brings a link, addresses and routes
/// within milliseconds) into one report. A value: times come in as arguments.
///
/// The first change after a quiet spell opens a window of ``interval``; changes inside it only
/// replace the candidate (the window is not extended, so a path that keeps changing is still
/// reported every ``interval``). When the window closes the latest path is reported unless it
/// equals the last one reported (a flap that came back within the window reports nothing — but
/// a route deleted and added again carries a new generation, so it is reported).
package struct PathDebouncer: Sendable {
    /// How long a burst may last before its result is reported (zero: report at once).
    package let interval: Duration
    /// The last path reported (or the initial one).
    package private(set) var reported: NetworkPath
    /// When the open window closes (monotonic), if one is open.
    package private(set) var deadline: Duration?
    private var candidate: NetworkPath?

    /// A debouncer whose last report is `initial`.
    package init(interval: Duration, initial: NetworkPath) {
        self.interval = interval
        self.reported = initial
    }

    /// The path after a batch of messages, read at `now`.
    package mutating func observe(_ path: NetworkPath, now: Duration) {
        if deadline == nil {
            guard path != reported else { return }
            deadline = now + interval
        }
        candidate = path
    }

    /// The path to report at `now`, if the window has closed on a new one.
    package mutating func due(now: Duration) -> NetworkPath? {
        guard let deadline, now >= deadline else { return nil }
        self.deadline = nil
        let path = candidate
        candidate = nil
        guard let path, path != reported else { return nil }
        reported = path
        return path
    }

    /// Reports `path` at once (a failure), closing any window.
    package mutating func force(_ path: NetworkPath) -> NetworkPath? {
        deadline = nil
        candidate = nil
        guard path != reported else { return nil }
        reported = path
        return path
    }
}
