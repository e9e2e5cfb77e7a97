#if canImport(Glibc)
    import BirdRealtime
    import Foundation
    import Glibc

    /// `record`: prints a recording file (Tests/BirdRealtimeTests/NetlinkRecordings/*.txt) with the
    /// datagrams of each dump (and, with `--mutate`, of each change made with `ip` in a fresh
    /// namespace).
    func record(_ options: Options) {
        let mutate = options.flag("mutate")
        if mutate {
            requireFreshNamespace()
            ip("link", "set", "lo", "up")
            ip("route", "add", "default", "dev", "lo")
            ip("-6", "route", "add", "default", "dev", "lo")
        }
        let socket: NetlinkSocket
        do {
            socket = try NetlinkSocket(groups: NetlinkSocket.pathGroups)
        } catch {
            fail("\(error)")
        }
        defer { socket.close() }
        var uname = utsname()
        _ = Glibc.uname(&uname)
        let kernel = withUnsafeBytes(of: uname.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        say("# Recorded on Linux \(kernel) (x86_64, little-endian) by")
        say(mutate ? "# `unshare -n bird-netcheck record --mutate`." : "# `bird-netcheck record` (read-only dumps).")
        say("# Raw rtnetlink datagrams as the kernel sent them; regenerate rather than edit.")
        say("portId \(socket.portId)")
        var sequence: UInt32 = 1
        for kind in NetworkPathTracker.DumpKind.allCases {
            emit(
                "\(kind.rawValue)Dump", doc: "The `\(kind.rawValue)` dump (sequence \(sequence)).",
                dumpDatagrams(kind, on: socket, sequence: sequence))
            sequence += 1
        }
        guard mutate else { return }
        let steps: [(String, String, [[String]])] = [
            ("deleteIPv4Default", "`ip route del default`", [["route", "del", "default"]]),
            ("deleteIPv6Default", "`ip -6 route del default`", [["-6", "route", "del", "default"]]),
            ("addIPv4Default", "`ip route add default dev lo`", [["route", "add", "default", "dev", "lo"]]),
            ("addAddress", "`ip addr add 10.9.0.1/24 dev lo`", [["addr", "add", "10.9.0.1/24", "dev", "lo"]]),
            ("deleteAddress", "`ip addr del 10.9.0.1/24 dev lo`", [["addr", "del", "10.9.0.1/24", "dev", "lo"]]),
            ("linkDown", "`ip link set lo down` (the IPv4 default goes silently)", [["link", "set", "lo", "down"]]),
        ]
        for (identifier, doc, commands) in steps {
            for command in commands { ip(command) }
            var datagrams: [[UInt8]] = []
            // The kernel queues notifications before the `ip` that caused them exits.
            while let datagram = nextDatagram(on: socket, waitingUntil: .now) { datagrams.append(datagram) }
            emit(identifier, doc: "What \(doc) emitted.", datagrams)
        }
        emit(
            "routesDumpAfterLinkDown", doc: "The routes dump after `ip link set lo down`.",
            dumpDatagrams(.routes, on: socket, sequence: sequence))
        sequence += 1
        ip("link", "set", "lo", "up")
        var datagrams: [[UInt8]] = []
        while let datagram = nextDatagram(on: socket, waitingUntil: .now) { datagrams.append(datagram) }
        emit("linkUp", doc: "What `ip link set lo up` emitted.", datagrams)
    }

    /// Prints a section: `# doc`, `[identifier]`, then one datagram a line in lower-case hex.
    private func emit(_ identifier: String, doc: String, _ datagrams: [[UInt8]]) {
        say("")
        say("# \(doc)")
        say("[\(identifier)]")
        for datagram in datagrams {
            say(
                datagram.map { byte -> String in
                    let hex = String(byte, radix: 16)
                    return hex.count == 1 ? "0" + hex : hex
                }.joined())
        }
    }
#endif
