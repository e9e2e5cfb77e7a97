#if canImport(Glibc)
    import BirdRealtime
    import Foundation
    import Glibc

    /// Datagrams of one dump of `kind` on `socket`, read until its `NLMSG_DONE` (2 s at most).
    func dumpDatagrams(_ kind: NetworkPathTracker.DumpKind, on socket: NetlinkSocket, sequence: UInt32) -> [[UInt8]] {
        do {
            try socket.send(NetlinkRequest.dump(kind, sequence: sequence, portId: socket.portId))
        } catch {
            fail("cannot request the \(kind.rawValue) dump: \(error)")
        }
        var datagrams: [[UInt8]] = []
        let deadline = ContinuousClock.now + .seconds(2)
        while ContinuousClock.now < deadline {
            guard let datagram = nextDatagram(on: socket, waitingUntil: deadline) else { break }
            datagrams.append(datagram)
            let messages: [NetlinkMessage]
            do {
                messages = try NetlinkParser.parse(datagram)
            } catch {
                fail("unreadable \(kind.rawValue) dump: \(error)")
            }
            if messages.contains(where: { $0.header.sequence == sequence && $0.payload == .done }) {
                return datagrams
            }
        }
        fail("the \(kind.rawValue) dump did not finish within 2 s")
    }

    /// The next datagram, waiting at most until `deadline`; nil when none came.
    func nextDatagram(on socket: NetlinkSocket, waitingUntil deadline: ContinuousClock.Instant) -> [UInt8]? {
        while true {
            let result: NetlinkSocket.Received
            do {
                result = try socket.receive()
            } catch {
                fail("\(error)")
            }
            switch result {
            case .datagram(let bytes): return bytes
            case .overflow, .truncated: fail("the recording socket lost data (\(result))")
            case .wouldBlock:
                let left = deadline - ContinuousClock.now
                guard left > .zero else { return nil }
                var fd = pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0)
                let (seconds, attoseconds) = left.components
                let ms = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
                if poll(&fd, 1, ms) == 0 { return nil }
            }
        }
    }

    /// Exits unless this network namespace holds nothing but `lo` — the sign of `unshare -n`, and the
    /// guard that keeps `record --mutate` and `drill` away from a real host's network.
    func requireFreshNamespace() {
        let socket: NetlinkSocket
        do {
            socket = try NetlinkSocket(groups: 0)
        } catch {
            fail("\(error)")
        }
        defer { socket.close() }
        var links: [String] = []
        for datagram in dumpDatagrams(.links, on: socket, sequence: 1) {
            for message in (try? NetlinkParser.parse(datagram)) ?? [] {
                if case .newLink(let link) = message.payload { links.append(link.name ?? "if\(link.index)") }
            }
        }
        guard links == ["lo"] else {
            fail(
                "refusing to change the network: this namespace has links \(links), not just lo "
                    + "(run me under `unshare -n`)")
        }
    }
#endif
