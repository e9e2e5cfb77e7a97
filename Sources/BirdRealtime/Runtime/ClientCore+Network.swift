import Foundation

/// The client's network path monitor and what it last reported (queue-confined).
struct NetworkWatch {
    /// The monitor chosen from `Options.networkMonitor`; nil when the network is not watched.
    var monitor: (any NetworkPathMonitor)?
    /// Between a successful `start` and `stop`.
    var running = false
    /// Counts starts, so that a stopped run's late reports are ignored.
    var run = 0
    /// The path last reported (nil before the first, and while not running).
    var path: NetworkPath?
}

extension ClientCore {
    /// The monitor for `options.networkMonitor`: none when disabled; `.system` is Linux's
    /// rtnetlink monitor, but none for a loopback static host (always reachable) and none on
    /// other platforms; `.custom` is used as given, for every host.
    static func chooseMonitor(_ options: BirdRealtime.Options) -> (any NetworkPathMonitor)? {
        switch options.networkMonitor {
        case .disabled:
            return nil
        case .custom(let monitor):
            return monitor
        case .system:
            let host = options.host ?? options.dialect.defaultHost(region: options.region)
            if options.endpointProvider == nil && ConnectionURL.isLoopback(host) { return nil }
            #if os(Linux)
                let logHandler = options.logHandler
                return NetlinkPathMonitor(log: { line in logHandler?(.warning, "network monitor: \(line)") })
            #else
                return nil
            #endif
        }
    }

    /// Starts the monitor (when there is one and it is not running) and applies the path it
    /// found. A monitor that fails to start is logged and the network is not watched.
    func startNetworkMonitor() {
        guard !network.running, let monitor = network.monitor else { return }
        network.run += 1
        let run = network.run
        do {
            try monitor.start(queue: queue) { [weak self] path in
                guard let self, !self.isShutDown, self.network.running, self.network.run == run else { return }
                self.networkPathChanged(path)
            }
        } catch {
            log(.warning, "the network monitor did not start (\(error)); reconnecting without watching the network")
            return
        }
        network.running = true
        networkPathChanged(monitor.current)
    }

    /// Stops the monitor; the network counts as usable again (nothing watches it).
    func stopNetworkMonitor() {
        guard network.running, let monitor = network.monitor else { return }
        network.running = false
        network.path = nil
        monitor.stop()
        machine.networkUnwatched()
        snapshot.withLock { $0.networkPath = nil }
    }

    /// A path from the monitor (the first one when `network.path` is nil): published, then fed
    /// to the machine as network lost, restored or changed.
    func networkPathChanged(_ path: NetworkPath) {
        let previous = network.path
        guard previous != path else { return }
        network.path = path
        snapshot.withLock { $0.networkPath = path }
        log(path.isUsable ? .info : .warning, "network: \(path)")
        notify(.networkPath(path))
        let wasUsable = previous?.isUsable ?? true
        if wasUsable && !path.isUsable {
            perform(machine.networkLost(path.description))
        } else if !wasUsable && path.isUsable {
            perform(machine.networkRestored(path.description))
        } else if path.isUsable, let previous, previous.generation != path.generation {
            perform(machine.pathChanged(path.description))
        } else if !path.isUsable {
            // Still no network; the description may have changed (loopback only…).
            perform(machine.networkLost(path.description))
        }
    }
}
