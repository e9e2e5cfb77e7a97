#if os(Linux)
    import Testing
    @testable import BirdRealtime

    @Suite("NetworkPathTracker: recorded dumps and changes fold into the path; the dump protocol")
    struct NetworkPathTrackerTests {
        typealias Action = NetworkPathTracker.Action

        /// Parses and applies `datagrams`; returns the requests the tracker made.
        private func feed(_ tracker: inout NetworkPathTracker, _ datagrams: [[UInt8]]) throws -> [Action] {
            var actions: [Action] = []
            for datagram in datagrams { actions += tracker.receive(try NetlinkParser.parse(datagram)) }
            return actions
        }

        /// `family interface` of each default route.
        private func routes(_ path: NetworkPath) -> [String] {
            path.defaultRoutes.map { "\($0.family.rawValue) \($0.interface)" }
        }

        /// A tracker synchronised on the namespace recording (lo up, IPv4 and IPv6 defaults via lo).
        private func namespaceTracker(sourceLocation: SourceLocation = #_sourceLocation) throws -> NetworkPathTracker {
            var tracker = NetworkPathTracker(portId: Recordings.namespace.portId)
            #expect(tracker.start() == [.requestDump(.links, sequence: 1)], sourceLocation: sourceLocation)
            #expect(
                try feed(&tracker, Recordings.namespace.linksDump) == [.requestDump(.addresses, sequence: 2)],
                sourceLocation: sourceLocation)
            #expect(!tracker.isSynchronized, sourceLocation: sourceLocation)
            #expect(
                try feed(&tracker, Recordings.namespace.addressesDump) == [.requestDump(.routes, sequence: 3)],
                sourceLocation: sourceLocation)
            #expect(try feed(&tracker, Recordings.namespace.routesDump) == [], sourceLocation: sourceLocation)
            #expect(tracker.isSynchronized, sourceLocation: sourceLocation)
            return tracker
        }

        @Test("host dumps: default via eth0 (IPv4, IPv6) with their gateways; not loopback only")
        func host() throws {
            var tracker = NetworkPathTracker(portId: Recordings.host.portId)
            _ = tracker.start()
            _ = try feed(
                &tracker, Recordings.host.linksDump + Recordings.host.addressesDump + Recordings.host.routesDump)
            let path = tracker.path
            #expect(tracker.isSynchronized && path.isKnown && path.isUsable && !path.isLoopbackOnly)
            #expect(path.description == "default via eth0 (IPv4, IPv6)")
            #expect(
                path.defaultRoutes == [
                    DefaultRoute(family: .ipv4, interface: "eth0", gateway: "192.0.2.1"),
                    DefaultRoute(family: .ipv6, interface: "eth0", gateway: "fd00::1", metric: 1024),
                ])
        }

        @Test("namespace: deleting and restoring the defaults turns usable off and on, generation moving each time")
        func namespaceTransitions() throws {
            var tracker = try namespaceTracker()
            let initial = tracker.path
            #expect(routes(initial) == ["IPv4 lo", "IPv6 lo"])
            #expect(initial.isLoopbackOnly && initial.description == "default via lo (IPv4, IPv6)")

            #expect(try feed(&tracker, Recordings.namespace.deleteIPv4Default) == [])
            let ipv6Only = tracker.path
            #expect(routes(ipv6Only) == ["IPv6 lo"] && ipv6Only.isUsable)
            #expect(ipv6Only.generation != initial.generation)

            _ = try feed(&tracker, Recordings.namespace.deleteIPv6Default)
            let none = tracker.path
            #expect(!none.isUsable && none.isKnown)
            #expect(none.description == "no default route (loopback only)")
            #expect(none.generation != ipv6Only.generation)

            _ = try feed(&tracker, Recordings.namespace.addIPv4Default)
            #expect(routes(tracker.path) == ["IPv4 lo"] && tracker.path.isUsable)
            #expect(tracker.path.generation != none.generation)
        }

        @Test("an address added keeps the routes but moves the generation; one removed re-dumps the routes")
        func addresses() throws {
            var tracker = try namespaceTracker()
            let before = tracker.path
            #expect(try feed(&tracker, Recordings.namespace.addAddress) == [])
            let added = tracker.path
            #expect(added.defaultRoutes == before.defaultRoutes && added.generation != before.generation)
            // The kernel drops IPv4 routes through a removed address without a word: dump them again.
            #expect(try feed(&tracker, Recordings.namespace.deleteAddress) == [.requestDump(.routes, sequence: 4)])
            #expect(tracker.path.generation != added.generation)
        }

        @Test("link down: unusable, routes dumped again; after link up the silently flushed IPv4 default stays gone")
        func linkDownAndUp() throws {
            var tracker = try namespaceTracker()
            #expect(try feed(&tracker, Recordings.namespace.linkDown) == [.requestDump(.routes, sequence: 4)])
            #expect(!tracker.path.isUsable)
            #expect(try feed(&tracker, Recordings.namespace.routesDumpAfterLinkDown) == [])
            #expect(try feed(&tracker, Recordings.namespace.linkUp) == [.requestDump(.routes, sequence: 5)])
            // Without the re-dump the tracker would still hold `default dev lo` (IPv4) and say usable.
            #expect(!tracker.path.isUsable)
            #expect(tracker.path.description == "no default route (loopback only)")
        }

        // MARK: - Dump protocol (synthetic messages)

        private let port: UInt32 = 500

        private func reply(_ payload: NetlinkPayload, sequence: UInt32, flags: UInt16 = 2) -> NetlinkMessage {
            NetlinkMessage(
                header: NetlinkHeader(length: 0, type: 0, flags: flags, sequence: sequence, portId: port),
                payload: payload)
        }

        private func notification(_ payload: NetlinkPayload, flags: UInt16 = 0) -> NetlinkMessage {
            NetlinkMessage(
                header: NetlinkHeader(length: 0, type: 0, flags: flags, sequence: 77, portId: 9), payload: payload)
        }

        private let eth0 = LinkInfo(index: 2, flags: NetlinkBytes.up, name: "eth0")
        private func defaultRoute(oif: UInt32 = 2, type: UInt8 = 1, table: UInt32 = 254, gateway: [UInt8]? = nil)
            -> RouteInfo
        {
            RouteInfo(family: 2, destinationLength: 0, table: table, type: type, gateway: gateway, outputInterface: oif)
        }

        /// Synchronised with eth0 up and the given routes.
        private func synchronized(routes: [RouteInfo]) -> NetworkPathTracker {
            var tracker = NetworkPathTracker(portId: port)
            _ = tracker.start()
            _ = tracker.receive([reply(.newLink(eth0), sequence: 1), reply(.done, sequence: 1)])
            _ = tracker.receive([reply(.done, sequence: 2)])
            _ = tracker.receive(routes.map { reply(.newRoute($0), sequence: 3) } + [reply(.done, sequence: 3)])
            return tracker
        }

        @Test("NLM_F_DUMP_INTR: the dump is retried with a new sequence and its replies replace the table")
        func interruptedDump() {
            var tracker = NetworkPathTracker(portId: port)
            _ = tracker.start()
            #expect(
                tracker.receive([reply(.newLink(eth0), sequence: 1, flags: 0x12), reply(.done, sequence: 1)])
                    == [.requestDump(.links, sequence: 2)])
            #expect(
                tracker.receive([reply(.newLink(eth0), sequence: 2), reply(.done, sequence: 2)])
                    == [.requestDump(.addresses, sequence: 3)])
        }

        @Test("a refused dump is retried, then the tracker gives up with an unknown (usable) path")
        func refusedDump() {
            var tracker = NetworkPathTracker(portId: port)
            var actions = tracker.start()
            var sequence: UInt32 = 1
            for _ in 1..<NetworkPathTracker.maximumAttempts {
                #expect(actions == [.requestDump(.links, sequence: sequence)])
                actions = tracker.receive([reply(.error(code: -16), sequence: sequence)])
                sequence += 1
            }
            actions = tracker.receive([reply(.error(code: -16), sequence: sequence)])
            guard case .failed(let reason)? = actions.first else {
                Issue.record("expected .failed, got \(actions)")
                return
            }
            #expect(reason.contains("errno 16"))
            #expect(!tracker.path.isKnown && tracker.path.isUsable)
            #expect(tracker.receive([reply(.done, sequence: sequence + 1)]) == [])
        }

        @Test("replies to a sequence we no longer wait for are dropped; notifications during a dump survive it")
        func staleRepliesAndInterleaving() {
            var tracker = NetworkPathTracker(portId: port)
            _ = tracker.start()
            _ = tracker.receive([reply(.newLink(eth0), sequence: 1), reply(.done, sequence: 1)])
            _ = tracker.receive([reply(.done, sequence: 2)])
            // During the routes dump: a stale reply (sequence 1) and a notification of a new default.
            _ = tracker.receive([
                reply(.newRoute(defaultRoute(oif: 9)), sequence: 1),
                notification(.newRoute(defaultRoute())),
            ])
            _ = tracker.receive([reply(.done, sequence: 3)])
            #expect(tracker.isSynchronized)
            #expect(routesOf(tracker) == ["IPv4 eth0"])
        }

        private func routesOf(_ tracker: NetworkPathTracker) -> [String] { routes(tracker.path) }

        @Test("resynchronising in the middle of a dump waits for its NLMSG_DONE, then dumps everything again")
        func resynchronizeMidDump() {
            var tracker = NetworkPathTracker(portId: port)
            _ = tracker.start()
            #expect(tracker.resynchronize() == [])  // the links dump (1) is still running
            #expect(
                tracker.receive([reply(.newLink(eth0), sequence: 1), reply(.done, sequence: 1)])
                    == [.requestDump(.addresses, sequence: 2)])
            _ = tracker.receive([reply(.done, sequence: 2)])
            #expect(tracker.receive([reply(.done, sequence: 3)]) == [.requestDump(.links, sequence: 4)])
        }

        @Test("NLMSG_OVERRUN or ENOBUFS: everything is dumped again, the path stays as it was meanwhile")
        func overrun() {
            var tracker = synchronized(routes: [defaultRoute()])
            let before = tracker.path
            #expect(tracker.receive([notification(.overrun)]) == [.requestDump(.links, sequence: 4)])
            #expect(tracker.path == before)
        }

        @Test(
            "what counts: unicast defaults outside table local, on links that are up (or unknown, or nexthop objects)")
        func usableRules() {
            #expect(synchronized(routes: [defaultRoute()]).path.isUsable)
            #expect(!synchronized(routes: [defaultRoute(type: 7)]).path.isUsable)  // unreachable
            #expect(!synchronized(routes: [defaultRoute(table: 255)]).path.isUsable)  // local
            var specific = defaultRoute()
            specific.destinationLength = 8
            specific.destination = [10, 0, 0, 0]
            #expect(!synchronized(routes: [specific]).path.isUsable)
            #expect(routes(synchronized(routes: [defaultRoute(oif: 33)]).path) == ["IPv4 if33"])
            var viaObject = RouteInfo(family: 10, destinationLength: 0, table: 254, type: 1)
            viaObject.nexthopId = 5
            #expect(routes(synchronized(routes: [viaObject]).path) == ["IPv6 nexthop 5"])

            var tracker = synchronized(routes: [defaultRoute()])
            _ = tracker.receive([notification(.newLink(LinkInfo(index: 2, flags: 0x1, name: "eth0")))])  // no carrier
            #expect(!tracker.path.isUsable)
        }

        @Test("multipath defaults: one entry per nexthop whose link is up")
        func multipathRoutes() {
            var route = RouteInfo(family: 2, destinationLength: 0, table: 254, type: 1)
            route.multipath = [
                RouteInfo.Nexthop(interfaceIndex: 2, gateway: [192, 0, 2, 1]),
                RouteInfo.Nexthop(interfaceIndex: 3, gateway: [198, 51, 100, 1]),
            ]
            var tracker = synchronized(routes: [route])
            _ = tracker.receive([notification(.newLink(LinkInfo(index: 3, flags: 0, name: "wlan0")))])
            #expect(
                tracker.path.defaultRoutes == [DefaultRoute(family: .ipv4, interface: "eth0", gateway: "192.0.2.1")])
        }

        @Test("NLM_F_REPLACE replaces the route with the same key; a delete of an unknown variant removes the key")
        func replaceAndDelete() {
            var tracker = synchronized(routes: [defaultRoute(gateway: [192, 0, 2, 1])])
            _ = tracker.receive([notification(.newRoute(defaultRoute(gateway: [192, 0, 2, 254])), flags: 0x100)])
            #expect(tracker.path.defaultRoutes.map(\.gateway) == ["192.0.2.254"])
            _ = tracker.receive([notification(.deleteRoute(defaultRoute(gateway: nil)))])
            #expect(!tracker.path.isUsable)
        }

        @Test("a link deleted takes its routes with it")
        func linkDeleted() {
            var tracker = synchronized(routes: [defaultRoute()])
            #expect(tracker.receive([notification(.deleteLink(eth0))]) == [.requestDump(.routes, sequence: 4)])
            #expect(!tracker.path.isUsable)
        }
    }
#endif
