#if os(Linux)
    import BirdRealtimeTestSupport
    import Testing
    @testable import BirdRealtime

    @Suite("rtnetlink parser: recorded datagrams, truncation and hostile bytes")
    struct NetlinkParserTests {
        private func messages(_ datagrams: [[UInt8]]) throws -> [NetlinkMessage] {
            try datagrams.flatMap { try NetlinkParser.parse($0) }
        }

        @Test("the host's link dump: lo, two ifb devices that are down, eth0 up; ends with NLMSG_DONE")
        func hostLinks() throws {
            let parsed = try messages(Recordings.host.linksDump)
            let links = parsed.compactMap { message -> LinkInfo? in
                if case .newLink(let link) = message.payload { return link }
                return nil
            }
            #expect(links.map(\.name) == ["lo", "ifb0", "ifb1", "eth0"])
            #expect(links.map { NetworkPathTracker.isUp($0) } == [true, false, false, true])
            #expect(parsed.last?.payload == .done)
            #expect(parsed.allSatisfy { $0.header.sequence == 1 && $0.header.portId == Recordings.host.portId })
        }

        @Test("the host's route dump: IPv4 default via 192.0.2.1 and IPv6 default via fd00::1 on eth0 (index 4)")
        func hostRoutes() throws {
            let routes = try messages(Recordings.host.routesDump).compactMap { message -> RouteInfo? in
                if case .newRoute(let route) = message.payload, route.destinationLength == 0, route.table == 254 {
                    return route
                }
                return nil
            }
            #expect(routes.count == 2)
            let v4 = routes.first { $0.family == 2 }
            #expect(v4?.gateway == [192, 0, 2, 1])
            #expect(v4?.outputInterface == 4)
            #expect(v4?.destination == nil)
            let v6 = routes.first { $0.family == 10 }
            #expect(v6.flatMap { $0.gateway.map(AddressText.format) } == "fd00::1")
            #expect(v6?.priority == 1024)
            #expect(v6?.type == 1)
        }

        @Test("the host's addresses: 192.0.2.2/24 (IFA_LOCAL and IFA_ADDRESS) and fd00::2/64 on eth0")
        func hostAddresses() throws {
            let addresses = try messages(Recordings.host.addressesDump).compactMap { message -> AddressInfo? in
                if case .newAddress(let address) = message.payload { return address }
                return nil
            }
            let v4 = addresses.first { $0.interfaceIndex == 4 && $0.family == 2 }
            #expect(v4?.local == [192, 0, 2, 2])
            #expect(v4?.address == [192, 0, 2, 2])
            #expect(v4?.prefixLength == 24)
            #expect(addresses.contains { $0.interfaceIndex == 4 && $0.address.map(AddressText.format) == "fd00::2" })
            #expect(addresses.contains { $0.interfaceIndex == 1 && $0.local == [127, 0, 0, 1] })
        }

        @Test("`ip route del default` in a namespace: one RTM_DELROUTE for 0.0.0.0/0 dev lo, from ip's port")
        func deleteNotification() throws {
            let parsed = try messages(Recordings.namespace.deleteIPv4Default)
            #expect(parsed.count == 1)
            guard case .deleteRoute(let route)? = parsed.first?.payload else {
                Issue.record("expected RTM_DELROUTE, got \(parsed)")
                return
            }
            #expect(route.family == 2 && route.destinationLength == 0 && route.outputInterface == 1)
            #expect(route.table == 254 && route.type == 1)
            #expect(parsed.first?.header.portId != Recordings.namespace.portId)
        }

        @Test("every prefix of every recorded datagram: whole messages parse, a cut one is a typed error")
        func truncation() throws {
            let recordings =
                Recordings.host.linksDump + Recordings.host.addressesDump + Recordings.host.routesDump
                + Recordings.namespace.linkDown + Recordings.namespace.addAddress + Recordings.namespace.routesDump
            var cuts = 0
            for datagram in recordings {
                let full = try NetlinkParser.parse(datagram)
                var boundaries: [Int: Int] = [0: 0]
                var start = 0
                for (index, message) in full.enumerated() {
                    let length = Int(message.header.length)
                    boundaries[start + length] = index + 1  // the last message may lack its padding
                    start = min(start + ((length + 3) & ~3), datagram.count)
                    boundaries[start] = index + 1
                }
                for length in 0..<datagram.count {
                    let prefix = Array(datagram[0..<length])
                    if let count = boundaries[length] {
                        #expect(try NetlinkParser.parse(prefix).count == count)
                    } else {
                        #expect(throws: NetlinkParseError.self) { try NetlinkParser.parse(prefix) }
                        cuts += 1
                    }
                }
            }
            #expect(cuts > 5000)
        }

        @Test("impossible lengths are typed errors")
        func hostileLengths() {
            typealias B = NetlinkBytes
            func kind(_ bytes: [UInt8]) -> NetlinkParseError.Kind? {
                let result = Result { () throws(NetlinkParseError) in try NetlinkParser.parse(bytes) }
                guard case .failure(let error) = result else { return nil }
                return error.kind
            }
            let route = B.rtmsg()
            #expect(kind(B.message(type: B.newRoute, body: route, length: 0)) == .badLength)
            #expect(kind(B.message(type: B.newRoute, body: route, length: 15)) == .badLength)
            #expect(kind(B.message(type: B.newRoute, body: route, length: 4096)) == .badLength)
            #expect(kind(B.message(type: B.newRoute, body: route, length: .max)) == .badLength)
            #expect(kind(Array(B.message(type: B.done, body: []).prefix(12))) == .truncatedHeader)
            #expect(kind(B.message(type: B.newRoute, body: Array(route.prefix(8)))) == .truncatedBody)
            #expect(kind(B.message(type: B.newLink, body: [0, 0, 0, 0])) == .truncatedBody)
            #expect(kind(B.message(type: B.newAddress, body: [2, 24])) == .truncatedBody)
            #expect(kind(B.message(type: B.error, body: [0xff, 0xff])) == .truncatedBody)
            #expect(
                kind(B.message(type: B.newRoute, body: route + B.attribute(4, B.le32(1), length: 2))) == .badAttribute)
            #expect(
                kind(B.message(type: B.newRoute, body: route + B.attribute(4, B.le32(1), length: 200))) == .badAttribute
            )
            #expect(kind(B.message(type: B.newRoute, body: route + B.attribute(4, [1, 0]))) == .badAttributeValue)
            #expect(
                kind(B.message(type: B.newRoute, body: route + B.attribute(5, [1, 2, 3, 4, 5]))) == .badAttributeValue)
            #expect(
                kind(B.message(type: B.newRoute, body: B.rtmsg(family: 10) + B.attribute(1, [1, 2, 3, 4])))
                    == .badAttributeValue)
            let address = B.ifaddrmsg(index: 1) + B.attribute(2, [10, 0, 0])
            #expect(kind(B.message(type: B.newAddress, body: address)) == .badAttributeValue)
            // RTA_MULTIPATH whose rtnexthop claims more bytes than the attribute holds.
            let nexthop = B.le16(64) + [0, 0] + B.le32(1)
            #expect(kind(B.message(type: B.newRoute, body: route + B.attribute(9, nexthop))) == .badAttribute)
            let shortNexthop = B.le16(4) + [0, 0] + B.le32(1)
            #expect(kind(B.message(type: B.newRoute, body: route + B.attribute(9, shortNexthop))) == .badAttribute)
        }

        @Test("RTA_MULTIPATH: each nexthop's interface and nested gateway")
        func multipath() throws {
            typealias B = NetlinkBytes
            let gateway = B.attribute(5, [192, 0, 2, 1])
            let first = B.le16(UInt16(8 + gateway.count)) + [0, 0] + B.le32(4) + gateway
            let second = B.le16(8) + [0, 0] + B.le32(7)
            let datagram = B.route(extra: B.attribute(9, first + second))
            guard case .newRoute(let route)? = try NetlinkParser.parse(datagram).first?.payload else {
                Issue.record("expected a route")
                return
            }
            #expect(
                route.multipath == [
                    RouteInfo.Nexthop(interfaceIndex: 4, gateway: [192, 0, 2, 1]),
                    RouteInfo.Nexthop(interfaceIndex: 7, gateway: nil),
                ])
        }

        @Test("NLMSG_ERROR carries its errno; NLMSG_DONE and unknown types parse; flag bits leave the attribute type")
        func controlMessages() throws {
            typealias B = NetlinkBytes
            let error = B.message(type: B.error, body: B.le32(UInt32(bitPattern: -16)) + Array(repeating: 0, count: 16))
            #expect(try NetlinkParser.parse(error).first?.payload == .error(code: -16))
            #expect(try NetlinkParser.parse(B.message(type: B.done, body: B.le32(0))).first?.payload == .done)
            #expect(try NetlinkParser.parse(B.message(type: 28, body: [1, 2, 3, 4])).first?.payload == .ignored)
            // RTA_OIF with NLA_F_NESTED set is still RTA_OIF.
            let flagged = B.message(type: B.newRoute, body: B.rtmsg() + B.attribute(4 | 0x8000, B.le32(3)))
            guard case .newRoute(let route)? = try NetlinkParser.parse(flagged).first?.payload else {
                Issue.record("expected a route")
                return
            }
            #expect(route.outputInterface == 3)
        }

        @Test("50,000 seeded mutations of recorded datagrams never trap: each parses or throws NetlinkParseError")
        func mutations() {
            var random = SeededRandom(seed: 15)
            let corpus =
                Recordings.host.linksDump + Recordings.host.routesDump + Recordings.namespace.linkDown
                + Recordings.namespace.deleteIPv6Default + Recordings.namespace.addAddress
            var errors = 0
            for i in 0..<50_000 {
                var bytes = corpus[i % corpus.count]
                for _ in 0..<(1 + Int(random.next() % 4)) {
                    let index = Int(random.next() % UInt64(bytes.count))
                    bytes[index] = UInt8(truncatingIfNeeded: random.next())
                }
                if random.next() % 4 == 0 { bytes.removeLast(Int(random.next() % UInt64(bytes.count))) }
                do {
                    _ = try NetlinkParser.parse(bytes)
                } catch {
                    errors += 1
                }
            }
            #expect(errors > 1000)
        }

        @Test("dump requests: nlmsghdr (REQUEST|DUMP, our sequence and port) + the type's zeroed body")
        func requests() {
            let link = NetlinkRequest.dump(.links, sequence: 7, portId: 99)
            #expect(link.count == 32)
            #expect(
                Array(link[0..<16]) == NetlinkBytes.le32(32) + NetlinkBytes.le16(18) + NetlinkBytes.le16(0x301)
                    + NetlinkBytes.le32(7) + NetlinkBytes.le32(99))
            #expect(link[16...].allSatisfy { $0 == 0 })
            let address = NetlinkRequest.dump(.addresses, sequence: 8, portId: 99)
            #expect(address.count == 24 && address[4] == 22)
            let route = NetlinkRequest.dump(.routes, sequence: 9, portId: 99)
            #expect(route.count == 28 && route[4] == 26)
        }
    }
#endif
