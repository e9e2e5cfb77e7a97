import TestSupport
#if os(Linux)
    import Foundation
    import Glibc
    import Testing
    @testable import BirdRealtime

    @Suite("NetlinkPathMonitor on real rtnetlink sockets")
    struct NetlinkPathMonitorTests {
        @Test("in this namespace: start gives a known path; a second start throws; stop is idempotent; restart works")
        func lifecycle() throws {
            let monitor = NetlinkPathMonitor()
            #expect(!monitor.current.isKnown)
            let queue = DispatchQueue(label: "netlink-monitor-test")
            try monitor.start(queue: queue) { _ in }
            #expect(monitor.current.isKnown)
            #expect(monitor.current.generation > 0)
            #expect(throws: NetworkMonitorError.self) { try monitor.start(queue: queue) { _ in } }
            monitor.stop()
            monitor.stop()
            try monitor.start(queue: queue) { _ in }
            #expect(monitor.current.isKnown)
            queue.sync { monitor.stop() }  // stop from the delivery queue must not deadlock
        }

        /// Root, `unshare` and `ip`: what the namespace drill needs.
        static let namespacesAvailable = getuid() == 0 && NamespaceDrill.unshare != nil && NamespaceDrill.ip != nil

        @Test(
            "in a fresh namespace (unshare -n): default route removed and restored, lo down and up — every change reported",
            .enabled(if: namespacesAvailable, "needs root, unshare (util-linux) and ip (iproute2): skipped"),
            .timeLimit(.minutes(1)))
        func namespaceDrill() throws {
            let result = try NamespaceDrill.run(arguments: ["drill", "--deadline-ms", "5000"])
            print("bird-netcheck drill (exit \(result.status)):\n" + result.output)
            #expect(result.status == 0)
            let steps = result.output.split(separator: "\n").filter { $0.hasPrefix("step ") }
            let names = steps.map { $0.split(separator: " ")[2] }
            #expect(
                names == [
                    "lose-default", "restore-default", "add-address", "add-ipv6-default", "lose-ipv4-keep-ipv6",
                    "lose-ipv6-default", "restore-both", "link-down", "link-up-new-route",
                ])
            #expect(steps.allSatisfy { $0.split(separator: " ")[3] == "ok" })
            #expect(result.output.contains("drill ok"))
        }

        /// What the client drill needs besides: `openssl` for the edge's certificate.
        static let clientDrillAvailable =
            namespacesAvailable
            && ["/usr/bin/openssl", "/bin/openssl"].contains {
                FileManager.default.isExecutableFile(atPath: $0)
            }

        @Test(
            "a real client and sandbox in a fresh namespace: address change → ping at once; route gone → no network, no attempts; route back → connected within 1 s; release → no monitor thread",
            .enabled(if: clientDrillAvailable, "needs root, unshare (util-linux), ip (iproute2) and openssl: skipped"),
            .timeLimit(.minutes(1)))
        func clientDrill() throws {
            let result = try NamespaceDrill.run(arguments: ["drill-client", "--deadline-ms", "5000"])
            print("bird-netcheck drill-client (exit \(result.status)):\n" + result.output)
            #expect(result.status == 0)
            let steps = result.output.split(separator: "\n").filter { $0.hasPrefix("step ") }
            #expect(
                steps.map { $0.split(separator: " ")[2] } == [
                    "connect", "address-change-ping", "lose-default-connected", "drop-while-down",
                    "no-attempts-while-down", "restore-default", "release",
                ])
            #expect(steps.allSatisfy { $0.split(separator: " ")[3] == "ok" })
            #expect(result.output.contains("client drill ok"))
        }
    }

    /// Runs `unshare -n bird-netcheck …` (bird-netcheck is built beside the test bundle) with a deadline.
    enum NamespaceDrill {
        static let unshare: String? = ["/usr/bin/unshare", "/bin/unshare"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        static let ip: String? = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }

        struct Failure: Error, CustomStringConvertible {
            var description: String
        }

        static func run(arguments: [String], deadline: TimeInterval = 50) throws -> (status: Int32, output: String) {
            guard let tool = PackagePaths.builtTool("bird-netcheck") else {
                throw Failure(
                    description: "bird-netcheck is missing: build the package (swift build --build-tests) first")
            }
            guard let unshare else { throw Failure(description: "unshare is missing") }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: unshare)
            process.arguments = ["-n", tool] + arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let done = DispatchSemaphore(value: 0)
            let collected = Locked(Data())
            DispatchQueue.global().async {
                let data = output.fileHandleForReading.readDataToEndOfFile()
                collected.withLock { $0 = data }
                done.signal()
            }
            if done.wait(timeout: .now() + deadline) == .timedOut {
                process.terminate()
                _ = done.wait(timeout: .now() + 5)
                throw Failure(
                    description: "bird-netcheck did not finish within \(deadline) s; output so far:\n"
                        + String(decoding: collected.snapshot, as: UTF8.self))
            }
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: collected.snapshot, as: UTF8.self))
        }
    }
#endif
