import Testing

@testable import BirdWire

/// The package's one loopback rule (BirdWire's `Loopback`), as every caller relies on it.
@Suite("Loopback")
struct LoopbackTests {
    @Test(
        "loopback hosts: localhost, 127.0.0.0/8 as four octets, ::1, IPv4-mapped 127/8, any case, brackets",
        arguments: [
            "localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "127.255.255.255", "::1", "[::1]", "::ffff:127.0.0.1",
            "[::FFFF:127.0.0.1]",
        ])
    func loopbackHosts(host: String) {
        #expect(Loopback.isLoopback(host: host))
    }

    @Test(
        "everything else is not: other addresses, names that only resolve to loopback, other spellings",
        arguments: [
            "", "example.com", "10.0.0.1", "192.168.1.20", "localhost.example.com", "127.0.0.1.nip.io", "::2",
            "128.0.0.1", "127.1", "127.0.0.256", "127.0.0.01234", "127..0.1", "0:0:0:0:0:0:0:1", "::ffff:10.0.0.1",
            "[::1", "[[::1]]", "localhost:80",
        ])
    func otherHosts(host: String) {
        #expect(!Loopback.isLoopback(host: host))
    }

    @Test("authorities and peer addresses: the port is cut off, a bare IPv6 address is a host")
    func authorities() {
        #expect(Loopback.isLoopback(authority: "127.0.0.1:5000"))
        #expect(Loopback.isLoopback(authority: "[::1]:5000"))
        #expect(Loopback.isLoopback(authority: "[::ffff:127.0.0.1]:5000"))
        #expect(Loopback.isLoopback(authority: "localhost"))
        #expect(Loopback.isLoopback(authority: "::1"))
        #expect(!Loopback.isLoopback(authority: "192.168.1.4:5000"))
        #expect(!Loopback.isLoopback(authority: "[fe80::1]:5000"))
        #expect(!Loopback.isLoopback(authority: "[::1]x"))
        #expect(Loopback.split("[::1]:80").map { ($0.host, $0.port) } ?? ("", nil) == ("[::1]", "80"))
        #expect(Loopback.split("h:").map { ($0.host, $0.port) } ?? ("", nil) == ("h", ""))
        #expect(Loopback.split("[::1") == nil)
    }
}

/// The package's one seeded generator.
@Suite("SplitMix64")
struct SplitMix64Tests {
    @Test("the reference sequence for seed 0 (Vigna's splitmix64.c)")
    func reference() {
        var generator = SplitMix64(seed: 0)
        #expect(
            [generator.next(), generator.next(), generator.next()]
                == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
    }

    @Test("units: [0, 1) and [0, 1] from the top 53 bits; the same seed, the same numbers")
    func units() {
        var a = SplitMix64(seed: 42)
        var b = SplitMix64(seed: 42)
        for _ in 0..<1000 {
            let x = a.nextUnit()
            #expect(x >= 0 && x < 1)
            #expect(b.nextUnit() == x)
        }
        var c = SplitMix64(seed: 7)
        var d = SplitMix64(seed: 7)
        let bits = d.next() >> 11
        #expect(c.nextClosedUnit() == Double(bits) / Double((UInt64(1) << 53) - 1))
    }
}
