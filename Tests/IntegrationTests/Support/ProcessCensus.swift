import Foundation

/// Counts of this process's resources, from /proc.
enum ProcessCensus {
    /// Open file descriptors (/proc/self/fd, minus the one used to list it).
    static var fileDescriptors: Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.count ?? 1) - 1
    }

    /// Every open descriptor as "fd → target", for messages.
    static var descriptorTargets: Set<String> {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return Set(
            fds.map { fd in
                "\(fd) → \((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")) ?? "?")"
            })
    }

    /// Threads (/proc/self/task).
    static var threads: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task"))?.count ?? 0
    }

    /// The socket inodes this process holds open.
    static var socketInodes: Set<String> {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        var inodes = Set<String>()
        for fd in fds {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)"),
                target.hasPrefix("socket:[")
            else { continue }
            inodes.insert(String(target.dropFirst(8).dropLast()))
        }
        return inodes
    }

    /// How many of this process's TCP sockets (IPv4 and IPv6) have `port` as local or remote port.
    static func tcpSockets(port: Int) -> Int {
        let mine = socketInodes
        let hexPort = String(format: "%04X", port)
        var count = 0
        for table in ["/proc/self/net/tcp", "/proc/self/net/tcp6"] {
            guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count > 9 else { continue }
                let local = fields[1].split(separator: ":").last.map(String.init) ?? ""
                let remote = fields[2].split(separator: ":").last.map(String.init) ?? ""
                if (local == hexPort || remote == hexPort) && mine.contains(String(fields[9])) { count += 1 }
            }
        }
        return count
    }
}
