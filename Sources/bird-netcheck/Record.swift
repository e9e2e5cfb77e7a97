#if canImport(Glibc)
    import BirdRealtime
    import Foundation
    import Glibc

    /// `record`: prints a Swift enum with the datagrams of a dump (and, with `--mutate`, of each
    /// change made with `ip` in a fresh namespace).
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
        let name = mutate ? "NamespaceRecording" : "HostRecording"
        say("// Recorded on Linux \(kernel) (x86_64, little-endian) by")
        say(mutate ? "// `unshare -n bird-netcheck record --mutate`." : "// `bird-netcheck record` (read-only dumps).")
        say("// Raw rtnetlink datagrams as the kernel sent them; regenerate rather than edit.")
        say("enum \(name) {")
        say("    /// The recording socket's port id: dump replies carry it in `nlmsg_pid`.")
        say("    static let portId: UInt32 = \(socket.portId)")
        var sequence: UInt32 = 1
        for kind in NetworkPathTracker.DumpKind.allCases {
            emit(
                "\(kind.rawValue)Dump", doc: "The `\(kind.rawValue)` dump (sequence \(sequence)).",
                dumpDatagrams(kind, on: socket, sequence: sequence))
            sequence += 1
        }
        guard mutate else {
            say("}")
            return
        }
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
        say("}")
    }

    /// Prints `static let identifier: [[UInt8]] = [...]`, 16 bytes a line.
    private func emit(_ identifier: String, doc: String, _ datagrams: [[UInt8]]) {
        say("")
        say("    /// \(doc)")
        say("    static let \(identifier): [[UInt8]] = [")
        for datagram in datagrams {
            say("        [")
            for start in stride(from: 0, to: datagram.count, by: 16) {
                let line = datagram[start..<min(start + 16, datagram.count)]
                    .map { byte -> String in
                        let hex = String(byte, radix: 16)
                        return "0x" + (hex.count == 1 ? "0" + hex : hex)
                    }
                    .joined(separator: ", ")
                say("            \(line),")
            }
            say("        ],")
        }
        say("    ]")
    }
#endif
