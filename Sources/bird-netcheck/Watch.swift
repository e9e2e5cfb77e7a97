#if canImport(Glibc)
    import BirdRealtime
    import BirdCommandLine
    import Foundation

    /// `watch`: prints the path, then each change, until interrupted or `--count` changes.
    func watch(_ options: Options) {
        let debounce = options.int("debounce-ms", 100, range: 0...60_000)
        let count = options.int("count", 0, range: 0...1_000_000)
        let monitor = NetlinkPathMonitor(
            debounce: .milliseconds(debounce), log: { StandardStreams.err("\($0)\n") })
        let inbox = PathInbox()
        do {
            try monitor.start(queue: DispatchQueue(label: "bird-netcheck.watch"), onChange: inbox.post)
        } catch {
            fail("\(error)")
        }
        say(line(monitor.current))
        var seen = 0
        while count == 0 || seen < count {
            guard let change = inbox.wait(until: nil, for: { _ in true }) else { continue }
            say(line(change.path))
            seen += 1
        }
        monitor.stop()
    }

    private func line(_ path: NetworkPath) -> String {
        var text = "\(Date()) usable=\(path.isUsable) generation=\(path.generation) \(path)"
        for route in path.defaultRoutes { text += "\n    \(route)" }
        return text
    }
#endif
