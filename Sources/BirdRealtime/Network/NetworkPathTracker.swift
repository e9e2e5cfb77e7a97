#if canImport(CLinux)
    /// Folds rtnetlink messages into the current ``NetworkPath``, and says which dumps to request.
    /// A value with no I/O: the monitor sends the requests it returns and feeds it what it reads.
    ///
    /// It starts with dumps of links, then addresses, then routes (one at a time: the kernel runs one
    /// dump per socket), and from then on applies notifications. Dump replies (our port id and the
    /// dump's sequence number) fill a staging copy that replaces the live table at `NLMSG_DONE`;
    /// notifications arriving meanwhile go to both, so none is lost. The routes are dumped again when
    /// a link goes up or down or an IPv4 address goes away, because the kernel flushes IPv4 routes then
    /// without telling anyone. A dump marked `NLM_F_DUMP_INTR` (the table changed under it) or refused
    /// is retried, up to ``maximumAttempts`` times, then the tracker gives up (``Action/failed(_:)``).
    package struct NetworkPathTracker: Sendable {
        /// A table the kernel can dump.
        package enum DumpKind: String, Sendable, Hashable, CaseIterable {
            case links, addresses, routes
        }

        /// What the monitor must do.
        package enum Action: Sendable, Hashable {
            /// Send a dump request of this kind with this sequence number.
            case requestDump(DumpKind, sequence: UInt32)
            /// Dumps keep failing: the path cannot be known (the reason is for people).
            case failed(String)
        }

        /// How many times a dump is tried before the tracker gives up.
        package static let maximumAttempts = 5

        private struct Tables: Sendable {
            var links: [Int32: LinkInfo] = [:]
            var addresses: [AddressKey: AddressInfo] = [:]
            var routes: Set<RouteInfo> = []

            /// Applies a link, address or route message.
            mutating func apply(_ payload: NetlinkPayload, flags: UInt16) {
                switch payload {
                case .newLink(let link):
                    links[link.index] = link
                case .deleteLink(let link):
                    links[link.index] = nil
                    addresses = addresses.filter { Int64($0.value.interfaceIndex) != Int64(link.index) }
                    routes = routes.filter { !NetworkPathTracker.routeUses($0, interface: link.index) }
                case .newAddress(let address):
                    addresses[AddressKey(address)] = address
                case .deleteAddress(let address):
                    addresses[AddressKey(address)] = nil
                case .newRoute(let route):
                    if flags & NetlinkKernel.flagReplace != 0 {
                        routes = routes.filter { $0.key != route.key }
                    }
                    routes.insert(route)
                case .deleteRoute(let route):
                    if routes.remove(route) == nil {
                        routes = routes.filter { $0.key != route.key }
                    }
                case .done, .error, .overrun, .ignored:
                    break
                }
            }
        }

        /// What makes two address messages the same address.
        private struct AddressKey: Sendable, Hashable {
            var family: UInt8
            var interfaceIndex: UInt32
            var prefixLength: UInt8
            var address: [UInt8]

            init(_ info: AddressInfo) {
                family = info.family
                interfaceIndex = info.interfaceIndex
                prefixLength = info.prefixLength
                address = info.local ?? info.address ?? []
            }
        }

        private struct Dump: Sendable {
            var kind: DumpKind
            var sequence: UInt32
            var staging: Tables
            var interrupted = false
            /// Replaced by a resynchronisation: read to its end, then dropped.
            var abandoned = false
        }

        /// The socket's port id (`nl_pid` after `bind`): dump replies carry it.
        package let portId: UInt32
        private var live = Tables()
        private var dump: Dump?
        private var pending: [DumpKind] = []
        private var attempts: [DumpKind: Int] = [:]
        private var nextSequence: UInt32
        private var signature = Signature()
        private var failure: String?
        /// Every dump has completed once.
        package private(set) var isSynchronized = false
        /// The path as of the last message; meaningful once ``isSynchronized``.
        package private(set) var path = NetworkPath.unknown("not synchronized")

        /// A tracker for a socket bound with `portId`; sequence numbers start at `firstSequence`.
        package init(portId: UInt32, firstSequence: UInt32 = 1) {
            self.portId = portId
            self.nextSequence = firstSequence
        }

        // MARK: - Inputs

        /// The first request: the links dump (then addresses, then routes).
        package mutating func start() -> [Action] {
            pending = DumpKind.allCases
            return startNextDump()
        }

        /// Data may have been lost (`ENOBUFS`, `NLMSG_OVERRUN`, unreadable bytes): dump everything again.
        package mutating func resynchronize() -> [Action] {
            for kind in DumpKind.allCases where !pending.contains(kind) { pending.append(kind) }
            if dump != nil {
                dump?.abandoned = true
                return []
            }
            return startNextDump()
        }

        /// Applies one datagram's messages; returns the requests to send.
        package mutating func receive(_ messages: [NetlinkMessage]) -> [Action] {
            guard failure == nil else { return [] }
            var actions: [Action] = []
            var resync = false
            for message in messages {
                if message.header.portId == portId, message.header.sequence != 0 {
                    actions += reply(message, resync: &resync)
                } else {
                    notification(message.payload, flags: message.header.flags, resync: &resync)
                }
                if failure != nil { break }
            }
            if resync, failure == nil {
                actions += resynchronize()
            } else if failure == nil {
                actions += startNextDump()  // a route dump queued by a link or address change
            }
            if failure == nil { recomputePath() }
            return actions
        }

        // MARK: - Dumps

        private mutating func reply(_ message: NetlinkMessage, resync: inout Bool) -> [Action] {
            guard let current = dump, message.header.sequence == current.sequence else {
                return []  // a reply to a dump we no longer wait for
            }
            if message.header.flags & NetlinkKernel.flagDumpInterrupted != 0 { dump?.interrupted = true }
            switch message.payload {
            case .done:
                let finished = dump ?? current
                dump = nil
                return finish(finished)
            case .error(let code) where code != 0:
                dump = nil
                return retry(
                    current.kind, because: "the kernel refused the \(current.kind.rawValue) dump (errno \(-code))")
            case .overrun:
                resync = true
            default:
                dump?.staging.apply(message.payload, flags: message.header.flags)
            }
            return []
        }

        private mutating func finish(_ finished: Dump) -> [Action] {
            if finished.abandoned { return startNextDump() }
            if finished.interrupted {
                return retry(finished.kind, because: "the \(finished.kind.rawValue) dump kept being interrupted")
            }
            attempts[finished.kind] = nil
            switch finished.kind {
            case .links: live.links = finished.staging.links
            case .addresses: live.addresses = finished.staging.addresses
            case .routes: live.routes = finished.staging.routes
            }
            if pending.isEmpty, dump == nil { isSynchronized = true }
            return startNextDump()
        }

        private mutating func retry(_ kind: DumpKind, because reason: String) -> [Action] {
            let count = attempts[kind, default: 1] + 1
            attempts[kind] = count
            guard count <= Self.maximumAttempts else {
                failure = reason
                pending = []
                path = .unknown(reason, generation: path.generation &+ 1)
                return [.failed(reason)]
            }
            pending.removeAll { $0 == kind }
            pending.insert(kind, at: 0)
            return startNextDump()
        }

        private mutating func startNextDump() -> [Action] {
            guard dump == nil, !pending.isEmpty else { return [] }
            let kind = pending.removeFirst()
            let sequence = nextSequence
            nextSequence = nextSequence == UInt32.max ? 1 : nextSequence + 1
            var staging = live
            switch kind {
            case .links: staging.links = [:]
            case .addresses: staging.addresses = [:]
            case .routes: staging.routes = []
            }
            dump = Dump(kind: kind, sequence: sequence, staging: staging)
            return [.requestDump(kind, sequence: sequence)]
        }

        // MARK: - Notifications

        private mutating func notification(_ payload: NetlinkPayload, flags: UInt16, resync: inout Bool) {
            switch payload {
            case .overrun:
                resync = true
                return
            case .newLink(let link):
                let before = live.links[link.index]
                if before.map(Self.isUp) != Self.isUp(link) { queueRouteDump() }
            case .deleteLink:
                queueRouteDump()
            case .deleteAddress(let address) where address.family == NetlinkKernel.familyIPv4:
                queueRouteDump()
            default:
                break
            }
            live.apply(payload, flags: flags)
            dump?.staging.apply(payload, flags: flags)
        }

        private mutating func queueRouteDump() {
            if !pending.contains(.routes) { pending.append(.routes) }
        }

        // MARK: - The path

        /// What ``NetworkPath/generation`` follows: usable default routes and addresses on links that are up.
        private struct Signature: Sendable, Equatable {
            var routes: [DefaultRoute] = []
            var addresses: Set<AddressInfo> = []
        }

        private mutating func recomputePath() {
            guard isSynchronized else { return }
            let routes = usableDefaultRoutes()
            let upLinks = Set(live.links.values.filter(Self.isUp).map(\.index))
            let addresses = Set(
                live.addresses.values.filter { upLinks.contains(Int32(truncatingIfNeeded: $0.interfaceIndex)) })
            let next = Signature(routes: routes, addresses: addresses)
            var generation = path.generation
            if next != signature || !path.isKnown {
                generation &+= 1
                signature = next
            }
            let loopbackOnly = live.links.values.filter(Self.isUp).allSatisfy {
                $0.flags & NetlinkKernel.interfaceLoopback != 0
            }
            path = NetworkPath(defaultRoutes: routes, isLoopbackOnly: loopbackOnly, generation: generation)
        }

        private func usableDefaultRoutes() -> [DefaultRoute] {
            var result: [DefaultRoute] = []
            for route in live.routes {
                guard route.destinationLength == 0, route.type == NetlinkKernel.routeTypeUnicast,
                    route.table != NetlinkKernel.tableLocal
                else { continue }
                let family: DefaultRoute.Family
                switch route.family {
                case NetlinkKernel.familyIPv4: family = .ipv4
                case NetlinkKernel.familyIPv6: family = .ipv6
                default: continue
                }
                var hops: [(index: Int32?, gateway: [UInt8]?)] = route.multipath.map { ($0.interfaceIndex, $0.gateway) }
                if hops.isEmpty {
                    hops = [(route.outputInterface.map { Int32(truncatingIfNeeded: $0) }, route.gateway)]
                }
                for hop in hops {
                    let interface: String
                    if let index = hop.index {
                        if let link = live.links[index] {
                            guard Self.isUp(link) else { continue }
                            interface = link.name ?? "if\(index)"
                        } else {
                            interface = "if\(index)"  // not seen yet: err on the side of usable
                        }
                    } else if let id = route.nexthopId {
                        interface = "nexthop \(id)"
                    } else {
                        interface = "unknown"
                    }
                    result.append(
                        DefaultRoute(
                            family: family, interface: interface, gateway: hop.gateway.map(AddressText.format),
                            metric: route.priority))
                }
            }
            return Array(Set(result)).sorted()
        }

        // MARK: - Helpers

        /// Administratively up and with a carrier.
        static func isUp(_ link: LinkInfo) -> Bool {
            let wanted = NetlinkKernel.interfaceUp | NetlinkKernel.interfaceRunning
            return link.flags & wanted == wanted
        }

        fileprivate static func routeUses(_ route: RouteInfo, interface index: Int32) -> Bool {
            if let oif = route.outputInterface, Int64(oif) == Int64(index) { return true }
            return route.multipath.contains { $0.interfaceIndex == index }
        }
    }
#endif
