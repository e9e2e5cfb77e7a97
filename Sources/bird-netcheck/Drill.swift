#if canImport(Glibc)
    import BirdRealtime
    import Foundation

    /// One change made with `ip`, and what the monitor must then report.
    private struct Step: Sendable {
        var name: String
        var commands: [[String]]
        /// What the reported path must satisfy (`before` is the path when the step began).
        var expect: @Sendable (_ path: NetworkPath, _ before: NetworkPath) -> Bool
    }

    /// `family interface` of each default route, sorted: what the steps compare.
    private func routes(_ path: NetworkPath) -> [String] {
        path.defaultRoutes.map { "\($0.family.rawValue) \($0.interface)" }.sorted()
    }

    private let steps: [Step] = [
        Step(name: "lose-default", commands: [["route", "del", "default"]]) { path, _ in !path.isUsable },
        Step(name: "restore-default", commands: [["route", "add", "default", "dev", "lo"]]) { path, _ in
            routes(path) == ["IPv4 lo"]
        },
        Step(name: "add-address", commands: [["addr", "add", "10.9.0.1/24", "dev", "lo"]]) { path, before in
            path.isUsable && path.generation != before.generation
        },
        Step(name: "add-ipv6-default", commands: [["-6", "route", "add", "default", "dev", "lo"]]) { path, _ in
            routes(path) == ["IPv4 lo", "IPv6 lo"]
        },
        Step(name: "lose-ipv4-keep-ipv6", commands: [["route", "del", "default"]]) { path, _ in
            routes(path) == ["IPv6 lo"]
        },
        Step(name: "lose-ipv6-default", commands: [["-6", "route", "del", "default"]]) { path, _ in !path.isUsable },
        Step(
            name: "restore-both",
            commands: [["route", "add", "default", "dev", "lo"], ["-6", "route", "add", "default", "dev", "lo"]]
        ) { path, _ in routes(path) == ["IPv4 lo", "IPv6 lo"] },
        Step(name: "link-down", commands: [["link", "set", "lo", "down"]]) { path, _ in !path.isUsable },
        // The kernel dropped the IPv4 default without a message when lo went down; a monitor that
        // missed that would report it again here, beside the new route.
        Step(
            name: "link-up-new-route",
            commands: [["link", "set", "lo", "up"], ["route", "add", "default", "dev", "lo", "metric", "7"]]
        ) { path, _ in path.defaultRoutes == [DefaultRoute(family: .ipv4, interface: "lo", metric: 7)] },
    ]

    /// `drill`: the monitor against real route changes in a fresh namespace. Prints
    /// `step <n> <name> ok <ms> ms: <path>` (or `TIMEOUT`) per step, then `drill ok` / `drill failed`.
    func drill(_ options: Options) -> Bool {
        let debounce = options.int("debounce-ms", 100, range: 0...60_000)
        let deadline = options.int("deadline-ms", 5000, range: 1...600_000)
        requireFreshNamespace()
        ip("link", "set", "lo", "up")
        ip("route", "add", "default", "dev", "lo")
        let monitor = NetlinkPathMonitor(debounce: .milliseconds(debounce), log: { say("log \($0)") })
        let inbox = PathInbox()
        do {
            try monitor.start(queue: DispatchQueue(label: "bird-netcheck.drill"), onChange: inbox.post)
        } catch {
            fail("\(error)")
        }
        defer { monitor.stop() }
        var before = monitor.current
        say("start usable=\(before.isUsable) generation=\(before.generation): \(before)")
        guard routes(before) == ["IPv4 lo"] else {
            say("drill failed: the initial path should be the IPv4 default via lo")
            return false
        }
        var passed = true
        for (number, step) in steps.enumerated() {
            inbox.drain()
            let start = ContinuousClock.now
            for command in step.commands { ip(command) }
            let limit = Date(timeIntervalSinceNow: Double(deadline) / 1000)
            let snapshot = before
            let seen = inbox.wait(until: limit, skipped: { say("  seen \($0.defaultRoutes.map(\.description))") }) {
                step.expect($0, snapshot)
            }
            guard let seen else {
                say("step \(number + 1) \(step.name) TIMEOUT after \(deadline) ms: current \(monitor.current)")
                passed = false
                break
            }
            let elapsed = seen.at - start
            let (seconds, attoseconds) = elapsed.components
            let tenths = seconds * 10_000 + attoseconds / 100_000_000_000_000
            say(
                "step \(number + 1) \(step.name) ok \(tenths / 10).\(tenths % 10) ms: usable=\(seen.path.isUsable) "
                    + "generation=\(seen.path.generation) \(seen.path)")
            before = seen.path
        }
        say(passed ? "drill ok" : "drill failed")
        return passed
    }
#endif
